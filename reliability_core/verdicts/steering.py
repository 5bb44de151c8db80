"""Steering detection: text in a claim or an evidence page that tries to steer
the judge ([R] "nothing in the claim, an appeal or the sources tried to steer
the Ref"; [#7] "instructions addressed to a model or reviewer, fake system or
role markers, planted verdict formats, hidden text ... in English and other
languages").

Four layers, each recorded with its name and the span it found ([#16] "a detection on any
layer blocks display and is recorded with the layer and the span"):

- ``screen_rules``: structural markers no ordinary page carries (chat-template tokens, a
  planted JSON verdict), and characters that hide text (tag characters, zero-width runs
  inside words, whitespace pushing text out of view);
- ``screen_classifier``: the trained screen (``reliability_core.verdicts.steering_screen``), scored
  on every sentence and pair of sentences, so an instruction in the middle of a long page is
  found; it reads any language and rewording the rules never listed (its concept features
  pool synonyms across wordings and languages);
- both of the above also on the text read without a disguise it carries (letters spaced
  out, stand-in digits, look-alike letters from another script, base64:
  ``steering_screen.deobfuscate``), the disguise named in the finding's rule;
- ``hidden_html``: text the page's HTML hides from a reader, found at fetch time
  (``reliability_core.web.hidden_text``) and kept on the snapshot;
- ``model_check`` and ``judge_report``: the ``detect_steering`` model step (live runs) and
  the judges' own report of instructions noticed in the evidence.

The fast screen (the first two) runs on every text, live or offline; a model can add
findings, never remove one.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from reliability_core.models.documents import HiddenText
from reliability_core.models.verdicts import SteeringFindingRef
from reliability_core.providers.base import ModelGateway
from reliability_core.verdicts.steering_screen import (
    Screen,
    ScreenModel,
    default_model,
    default_screen,
    window_cache,
)
from reliability_core.verdicts.steering_screen.deobfuscate import disguised_readings
from reliability_core.verdicts.steering_screen.model import ARTEFACT_PATH, as_screen, member_paths

SteeringKind = Literal[
    "instruction_to_model",
    "role_marker",
    "planted_verdict",
    "hidden_text",
]
SteeringLayer = Literal["screen_rules", "screen_classifier", "hidden_html", "model_check", "judge_report"]


class SteeringFinding(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: SteeringKind
    source: str  # which text: "claim", an evidence id, a URL
    language: str
    excerpt: str
    rule: str
    layer: SteeringLayer = "screen_rules"
    # Character offsets of the finding in the screened text (None where the layer has no
    # offsets: a model's report, hidden HTML, which is located by its source line).
    span: tuple[int, int] | None = None
    score: float | None = None  # the classifier's probability, where it decided


class SteeringResult(BaseModel):
    """Whether any text tried to steer the judge, with every finding recorded."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    detected: bool
    findings: list[SteeringFinding] = Field(default_factory=list)
    checked_sources: list[str] = Field(default_factory=list)
    model_checked: bool = False

    def notes(self) -> list[str]:
        return [
            f"{f.kind} in {f.source} [{f.layer}{'' if f.span is None else f' {f.span[0]}-{f.span[1]}'}]: "
            f"{f.excerpt!r}"
            for f in self.findings
        ]

    def refs(self) -> list[SteeringFindingRef]:
        """Each finding's kind, text and layer, stored on the verdict beside the notes."""
        return [SteeringFindingRef(kind=f.kind, source=f.source, layer=f.layer) for f in self.findings]


_I = re.IGNORECASE | re.UNICODE
_M = re.IGNORECASE | re.UNICODE | re.MULTILINE

# (rule name, kind, pattern): only forms that ordinary prose does not take. Words a page may
# use for its own readers ("Verdict:", "System:", "as an AI ...") are the classifier's to
# weigh, in context, not a rule's.
_PATTERNS: list[tuple[str, SteeringKind, re.Pattern[str]]] = [
    (
        "chat_template_token",
        "role_marker",
        # Tokens of model chat templates: they exist only to be read by a model.
        re.compile(
            r"<\|\s*(im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id)\s*\|>"
            r"|\[/?INST\]|<</?SYS>>",
            _I,
        ),
    ),
    (
        "prompt_role_heading",
        "role_marker",
        # Alpaca-style role headings on a line of their own ("### Instruction:").
        re.compile(r"^\s*#{2,4}\s*(system|instruction|assistant|response)\s*:?\s*$", _M),
    ),
    # Instructions addressed to a model, in the general forms that ordinary prose does not
    # take: "ignore your/the previous instructions", a note "to the AI". Words that also
    # address people (a judge, a reviewer, an assistant) are left to the classifier.
    (
        "ignore_previous_instructions",
        "instruction_to_model",
        re.compile(
            r"\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(of\s+)?"
            r"(your\s+((previous|prior|above|earlier|preceding)\s+)?|(the\s+)?(previous|prior|above|earlier|preceding)\s+)"
            r"(instructions|prompts?|rules|guidelines|directions)\b"
            r"|\b(ignorier(e|en|t)?|vergiss|missachte)\s+(alle\s+)?(deine\s+|die\s+)?"
            r"(vorherigen|bisherigen|obigen)\s+(anweisungen|regeln|instruktionen)"
            r"|\bignor(e|ez|er)\s+(toutes\s+)?(les\s+|tes\s+|vos\s+)(instructions|consignes)\s+(précédentes|antérieures)"
            r"|\bignor(a|e|en|ar)\s+(todas\s+)?(las\s+|tus\s+)(instrucciones|indicaciones)\s+(anteriores|previas)"
            r"|(התעלם|התעלמי|התעלמו)\s+(מכל\s+|מ)?(ה)?הוראות",
            _I,
        ),
    ),
    (
        "address_to_ai",
        "instruction_to_model",
        re.compile(
            r"\b(note|message|instructions?|attention)\s+(to|for)\s+(the\s+|any\s+|all\s+)?"
            r"(ai|a\.i\.|llm|large\s+language\s+model|language\s+model|chatbot)s?\b"
            r"|\b(hinweis|nachricht|anweisung)\s+(an|für)\s+(die\s+|das\s+)?(ki|künstliche\s+intelligenz|sprachmodell)\b"
            r"|\b(note|message|consigne)\s+(à|pour)\s+(l['’]\s*ia|l['’]\s*intelligence\s+artificielle|le\s+modèle\s+de\s+langage)"
            r"|\b(nota|mensaje|instrucción)\s+(para|a)\s+(la\s+)?(ia|inteligencia\s+artificial)\b",
            _I,
        ),
    ),
    (
        "planted_verdict_json",
        "planted_verdict",
        # A verdict in the judge's own output shape: a quoted key with one of its values.
        re.compile(
            r"[\"'](verdict|label|rating)[\"']\s*:\s*[\"'](true|false|mostly_true|mostly_false|mixed|"
            r"unresolvable|verified)[\"']",
            _I,
        ),
    ),
    (
        "planted_confidence",
        "planted_verdict",
        re.compile(r"[\"']confidence[\"']\s*:\s*(0?\.\d+|1(\.0+)?)\b", _I),
    ),
    (
        "planted_key_value",
        "planted_verdict",
        # "verdict=true; confidence=1.0": machine-shaped assignments, not a sentence.
        re.compile(r"\b(verdict|confidence)\s*=\s*(true|false|verified|1(\.0+)?|0?\.\d+)\b", _I),
    ),
]

# Characters that hide text from a human reader but not from a model. ZWNJ, ZWJ and the
# direction marks are left out: Persian, Indic scripts, emoji and bidi text use them.
_ZERO_WIDTH_IN_WORD = re.compile(r"(?<=\w)[\u200b\u2060-\u2064\ufeff\u180e]+(?=\w)")
# Tag characters, except in an emoji subdivision flag (U+1F3F4, tags, cancel tag U+E007F).
_TAG_CHARS = re.compile("(?<!\U0001f3f4)[\U000e0020-\U000e007e]{2,}")
_FLAG_SEQUENCE = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")
# A long run of spaces or blank lines before more text pushes it out of a reader's view.
_WHITESPACE_PUSH = re.compile(r"[ \t\u00a0\u3000]{60,}\S|(\n\s*){25,}\S")
# Hidden-HTML kinds that exist to conceal text from a reader; any wording in them counts.
# Elements merely not shown (display:none menus, aria-hidden icons, comments) count only
# when what they say is screened as steering.
_CONCEALING_KINDS = frozenset({"same_colour", "tiny_text", "off_screen", "transparent"})
_CONCEALED_MIN_WORDS = 4


def find_instructions(text: str, source: str) -> list[SteeringFinding]:
    """Fake role markers and planted verdict formats: the structural forms of [#7]."""
    findings: list[SteeringFinding] = []
    for rule, kind, pattern in _PATTERNS:
        match = pattern.search(text)
        if match:
            findings.append(
                SteeringFinding(
                    kind=kind,
                    source=source,
                    language="any",
                    excerpt=_excerpt(text, match.start(), match.end()),
                    rule=rule,
                    span=(match.start(), match.end()),
                )
            )
    return findings


def find_hidden_characters(text: str, source: str) -> list[SteeringFinding]:
    """Hidden text in plain text: tag characters, zero-width characters inside words, and
    whitespace runs that push text out of a human reader's view."""
    findings: list[SteeringFinding] = []
    unflagged = _FLAG_SEQUENCE.sub(lambda m: " " * len(m.group(0)), text)
    for rule, pattern in (("tag_characters", _TAG_CHARS), ("zero_width", _ZERO_WIDTH_IN_WORD)):
        match = pattern.search(unflagged)
        if match:
            findings.append(
                SteeringFinding(
                    kind="hidden_text",
                    source=source,
                    language="any",
                    excerpt=f"{rule.replace('_', ' ')} near {_excerpt(text, match.start(), match.end(), 30)!r}",
                    rule=rule,
                    span=(match.start(), match.end()),
                )
            )
    match = _WHITESPACE_PUSH.search(text)
    if match:
        findings.append(
            SteeringFinding(
                kind="hidden_text",
                source=source,
                language="any",
                excerpt="long whitespace run before text",
                rule="whitespace_push",
                span=(match.start(), match.end()),
            )
        )
    return findings


def find_by_classifier(
    text: str, source: str, *, model: ScreenModel | Screen | None = None, limit: int = 3
) -> list[SteeringFinding]:
    """[#16] "A screen that generalises": every sentence and pair of sentences scored by the
    trained classifier (the committed screen's models, ``steering_screen.Screen``); windows
    a model scores at or above its threshold are findings (the best ``limit`` that do not
    overlap, so one attempt is one finding, not six)."""
    screen = default_screen() if model is None else as_screen(model)
    if not text.strip():
        return []
    flagged = sorted(_flagged_windows(text, screen), key=lambda row: -row[2])
    findings: list[SteeringFinding] = []
    taken: list[tuple[int, int]] = []
    for w_start, w_end, probability in flagged:
        if any(w_start < end and start < w_end for start, end in taken):
            continue
        taken.append((w_start, w_end))
        findings.append(
            SteeringFinding(
                kind="instruction_to_model",
                source=source,
                language="und",
                excerpt=" ".join(text[w_start:w_end].split())[:200],
                rule="classifier",
                layer="screen_classifier",
                span=(w_start, w_end),
                score=round(probability, 4),
            )
        )
        if len(findings) >= limit:
            break
    return findings


def _flagged_windows(text: str, screen: Screen) -> list[tuple[int, int, float]]:
    """The windows some model flags (start, end, probability), in the text's order; for the
    committed screen, from the run's window cache when it holds the text
    (``steering_screen.window_cache``: the same answer, kept per text)."""
    committed = default_screen().members
    is_committed = len(screen.members) == len(committed) and all(
        a is b for a, b in zip(screen.members, committed, strict=True)
    )
    identity = (
        window_cache.screen_identity(member_paths(default_model(), ARTEFACT_PATH)) if is_committed else None
    )
    if identity is not None and (cached := window_cache.load(text, identity)) is not None:
        return cached
    rows = [(s.window.start, s.window.end, s.probability) for s in screen.flagged_windows(text)]
    if identity is not None:
        window_cache.store(text, identity, rows)
    return rows


@functools.lru_cache(maxsize=4096)
def _screen_cached(text: str, source: str) -> tuple[SteeringFinding, ...]:
    return tuple(screen_text(text, source))


def screen_text(
    text: str, source: str, *, model: ScreenModel | Screen | None = None
) -> list[SteeringFinding]:
    """The fast screen (no model call) of one text: rules and the trained classifier, on the
    text and on each reading of it without a disguise it carries (letters spaced out,
    stand-in digits, look-alike letters from another script, base64), so a disguised
    instruction is read as the model would read it. A finding in a reading is recorded with
    the disguise in its rule and the span of the disguised part in the original text."""
    findings = [
        *find_instructions(text, source),
        *find_hidden_characters(text, source),
        *find_by_classifier(text, source, model=model),
    ]
    for reading in disguised_readings(text):
        for found in (
            *find_instructions(reading.text, source),
            *find_by_classifier(reading.text, source, model=model),
        ):
            findings.append(
                found.model_copy(update={"rule": f"{found.rule}:{reading.disguise}", "span": reading.span})
            )
    return findings


def find_hidden_steering(hidden: Sequence[HiddenText], source: str) -> list[SteeringFinding]:
    """[#16] hidden-text detection on the raw HTML: text hidden by colour, size, position or
    transparency is steering whatever it says (it exists to be read by a machine, not a
    person); text in elements that are merely not shown (``display:none``, ``hidden``,
    ``aria-hidden``, comments) counts when the screen finds an instruction in it."""
    findings: list[SteeringFinding] = []
    for item in hidden:
        concealed = item.kind in _CONCEALING_KINDS and len(item.text.split()) >= _CONCEALED_MIN_WORDS
        screened = () if concealed else _screen_cached(item.text, source)
        if concealed or screened:
            findings.append(
                SteeringFinding(
                    kind="hidden_text",
                    source=source,
                    language="any",
                    excerpt=" ".join(item.text.split())[:200],
                    rule=f"hidden_html:{item.kind}" + ("" if concealed else f"+{screened[0].rule}"),
                    layer="hidden_html",
                    span=None,
                )
            )
    return findings


def detect_steering(
    texts: Mapping[str, str] | Sequence[str],
    *,
    hidden: Mapping[str, Sequence[HiddenText]] | None = None,
) -> SteeringResult:
    """[#7] "Detect attempts to steer the judge in claims and in evidence pages (instructions
    addressed to a model or reviewer, fake system or role markers, planted verdict formats,
    hidden text), in English and other languages. A detected attempt blocks the verdict from
    display and is recorded." ``texts`` maps a source label to its text (a plain sequence is
    labelled by position); ``hidden`` maps a source to the hidden HTML text found at fetch."""
    labelled = dict(texts) if isinstance(texts, Mapping) else {f"text[{i}]": t for i, t in enumerate(texts)}
    findings: list[SteeringFinding] = []
    for source, text in labelled.items():
        findings.extend(_screen_cached(text, source))
    for source, items in (hidden or {}).items():
        findings.extend(find_hidden_steering(items, source))
    checked = sorted(set(labelled) | set(hidden or {}))
    return SteeringResult(detected=bool(findings), findings=findings, checked_sources=checked)


def merge_steering(*results: SteeringResult) -> SteeringResult:
    """Findings add up; a detection is never removed by a later check."""
    findings = list(dict.fromkeys(finding for result in results for finding in result.findings))
    sources = sorted({source for result in results for source in result.checked_sources})
    return SteeringResult(
        detected=any(result.detected for result in results),
        findings=findings,
        checked_sources=sources,
        model_checked=any(result.model_checked for result in results),
    )


def _excerpt(text: str, start: int, end: int, width: int = 60) -> str:
    lo, hi = max(0, start - width), min(len(text), end + width)
    return " ".join(text[lo:hi].split())[:200]


# --- the model step -----------------------------------------------------------------------


class SteeringCheckText(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    text: str


class DetectSteeringInput(BaseModel):
    """Input of the ``detect_steering`` step: labelled texts, nothing else."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    texts: list[SteeringCheckText]


class ModelSteeringFinding(BaseModel):
    """One attempt the model reports (the model's proposal; the layer is set by code)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: SteeringKind
    source: str
    language: str = "und"
    excerpt: str = Field(max_length=400)


class DetectSteeringOutput(BaseModel):
    """Output of the ``detect_steering`` step."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    findings: list[ModelSteeringFinding] = Field(default_factory=list)
    confidence: float = Field(ge=0.0, le=1.0)


def model_findings(output: DetectSteeringOutput, texts: Mapping[str, str]) -> list[SteeringFinding]:
    """The model proposes, code records: each reported attempt becomes a ``model_check``
    finding, with its span when the excerpt is found word for word in the named text. A
    report naming a source that was not sent still counts (the model saw something), under
    the name it gave; nothing the model says removes a finding of another layer."""
    out: list[SteeringFinding] = []
    for reported in output.findings:
        text = texts.get(reported.source, "")
        at = text.find(reported.excerpt) if reported.excerpt else -1
        out.append(
            SteeringFinding(
                kind=reported.kind,
                source=reported.source,
                language=reported.language,
                excerpt=" ".join(reported.excerpt.split())[:200],
                rule="model",
                layer="model_check",
                span=(at, at + len(reported.excerpt)) if at >= 0 else None,
            )
        )
    return out


async def run_model_steering_check(texts: Mapping[str, str], gateway: ModelGateway) -> SteeringResult:
    """[#16] "the model steering check on the same texts in live runs (cached like every
    model call)": the ``detect_steering`` step over the labelled texts."""
    if not texts:
        return SteeringResult(detected=False, model_checked=True)
    payload = DetectSteeringInput(texts=[SteeringCheckText(source=s, text=t) for s, t in texts.items()])
    output = await gateway.run("detect_steering", payload, DetectSteeringOutput)
    findings = model_findings(output, texts)
    return SteeringResult(
        detected=bool(findings), findings=findings, checked_sources=sorted(texts), model_checked=True
    )


async def detect_steering_with_model(
    texts: Mapping[str, str],
    gateway: ModelGateway,
    *,
    hidden: Mapping[str, Sequence[HiddenText]] | None = None,
) -> SteeringResult:
    """The fast screen plus the ``detect_steering`` model step: a finding from either
    counts; the model can add findings, never clear the screen's."""
    return merge_steering(
        detect_steering(texts, hidden=hidden), await run_model_steering_check(texts, gateway)
    )
