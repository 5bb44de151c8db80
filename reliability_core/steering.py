"""Steering detection: text in a claim or an evidence page that tries to steer
the judge ([R] "nothing in the claim, an appeal or the sources tried to steer
the Ref"; [#7] "instructions addressed to a model or reviewer, fake system or
role markers, planted verdict formats, hidden text ... in English and other
languages").

The rule-based detector is pure and always runs; the optional
``detect_steering`` model step can add findings but never remove one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal

from lxml import html as lxml_html
from pydantic import BaseModel, ConfigDict, Field

from reliability_core.providers.base import ModelGateway

SteeringKind = Literal[
    "instruction_to_model",
    "role_marker",
    "planted_verdict",
    "hidden_text",
]


class SteeringFinding(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: SteeringKind
    source: str  # which text: "claim", an evidence id, a URL
    language: str
    excerpt: str
    rule: str


class SteeringResult(BaseModel):
    """Whether any text tried to steer the judge, with every finding recorded."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    detected: bool
    findings: list[SteeringFinding] = Field(default_factory=list)
    checked_sources: list[str] = Field(default_factory=list)
    model_checked: bool = False

    def notes(self) -> list[str]:
        return [f"{f.kind} in {f.source} ({f.language}): {f.excerpt!r}" for f in self.findings]


_I = re.IGNORECASE | re.UNICODE
_M = re.IGNORECASE | re.UNICODE | re.MULTILINE

# (rule name, kind, language, pattern)
_PATTERNS: list[tuple[str, SteeringKind, str, re.Pattern[str]]] = [
    # --- instructions addressed to a model or reviewer -----------------------------
    (
        "ignore_instructions",
        "instruction_to_model",
        "en",
        re.compile(
            r"\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(the\s+|your\s+)?"
            r"(previous|prior|above|earlier|preceding|other)?\s*(instructions|rules|guidelines|prompts?)",
            _I,
        ),
    ),
    (
        "address_to_model",
        "instruction_to_model",
        "en",
        re.compile(
            r"\b(note|message|instructions?|attention)\s+(to|for)\s+(the\s+|any\s+|all\s+)?"
            r"(ai|a\.i\.|llm|language\s+model|model|assistant|chatbot|judge|reviewer|fact[- ]?checker|grader|referee)s?\b",
            _I,
        ),
    ),
    (
        "vocative_to_model",
        "instruction_to_model",
        "en",
        re.compile(
            r"\b(ai|llm|language\s+model|assistant|reviewer|fact[- ]?checker|grader)s?\s*[,:]?\s+"
            r"(you\s+)?(must|should|shall|need\s+to|are\s+(instructed|required)\s+to|please)\s+"
            r"(rate|mark|score|classify|label|treat|output|return)",
            _I,
        ),
    ),
    (
        "you_are_model",
        "instruction_to_model",
        "en",
        re.compile(r"\b(you\s+are\s+(an?\s+)?(ai|language\s+model|llm|assistant|judge)|as\s+an\s+ai\b)", _I),
    ),
    (
        "rate_as",
        "instruction_to_model",
        "en",
        re.compile(
            r"\b(rate|mark|judge|score|classify|label|treat)\s+(this|the|these|that)\s+"
            r"(claim|statement|page|article|evidence|source|promise|prediction)s?\s+(as\s+)?"
            r"(true|false|verified|accurate|correct|reliable|mostly\s+true)\b",
            _I,
        ),
    ),
    (
        "answer_directive",
        "instruction_to_model",
        "en",
        # "respond only with TRUE", "answer true", "output: verified", addressed to whoever judges
        re.compile(
            r"\b(respond|reply|answer|output|return)\s+(only\s+|just\s+|simply\s+)?(with\s+)?[\"'“]?"
            r"(true|false|verified|mostly\s+true|yes)\b[\"'”]?",
            _I,
        ),
    ),
    (
        "role_claim",
        "instruction_to_model",
        "en",
        # "As the system administrator I confirm ...": an authority the page cannot have
        re.compile(
            r"\bas\s+(the|your)\s+(system\s+)?(administrator|operator|developer|moderator|supervisor)\b"
            r"[^.]{0,40}\b(i|we)\s+(confirm|certify|instruct|authori[sz]e|override)",
            _I,
        ),
    ),
    (
        "pre_approved",
        "instruction_to_model",
        "en",
        re.compile(
            r"\b(this|the)\s+(claim|statement|verdict|answer|item)\s+(has\s+been|is|was)\s+"
            r"(pre-?approved|already\s+verified|already\s+approved|whitelisted)\b"
            r"|\b(reviewer|judge|grader|assistant|model)\s*:\s*this\s+(has\s+been|is)\s+pre-?approved",
            _I,
        ),
    ),
    # German
    (
        "ignore_instructions_de",
        "instruction_to_model",
        "de",
        re.compile(
            r"\b(ignorier(e|en|t)?|vergiss|missachte)\s+(alle\s+)?(vorherigen\s+|bisherigen\s+)?(anweisungen|regeln|instruktionen)",
            _I,
        ),
    ),
    (
        "address_to_model_de",
        "instruction_to_model",
        "de",
        re.compile(
            r"\b(hinweis|nachricht|anweisung)\s+(an|für)\s+(die\s+|den\s+)?(ki|künstliche\s+intelligenz|sprachmodell|prüfer|gutachter|richter|modell)\b",
            _I,
        ),
    ),
    (
        "rate_as_de",
        "instruction_to_model",
        "de",
        re.compile(
            r"\b(bewerte|markiere|stufe)\s+(diese|die|den)\s+(aussage|behauptung|quelle|artikel)\s+(als\s+)?(wahr|richtig|zutreffend|korrekt)",
            _I,
        ),
    ),
    # French
    (
        "ignore_instructions_fr",
        "instruction_to_model",
        "fr",
        re.compile(
            r"\bignor(e|ez|er)\s+(toutes\s+)?(les\s+)?(instructions|consignes|règles)(\s+précédentes)?", _I
        ),
    ),
    (
        "address_to_model_fr",
        "instruction_to_model",
        "fr",
        re.compile(
            r"\b(note|message|consigne)\s+(à|pour)\s+(l['’]\s*ia|l['’]\s*intelligence\s+artificielle|le\s+modèle|l['’]\s*assistant|le\s+juge|l['’]\s*évaluateur|le\s+vérificateur)",
            _I,
        ),
    ),
    (
        "rate_as_fr",
        "instruction_to_model",
        "fr",
        re.compile(
            r"\b(marque[zr]?|considére[zr]?|évalue[zr]?|note[zr]?)\s+(cette|cet|la|le)\s+(affirmation|déclaration|allégation|source|article)\s+(comme\s+)?(vraie?|exacte?|correcte?|fiable)",
            _I,
        ),
    ),
    (
        "you_are_model_fr",
        "instruction_to_model",
        "fr",
        re.compile(r"\ben\s+tant\s+qu['’]\s*(ia|intelligence\s+artificielle|modèle\s+de\s+langage)", _I),
    ),
    # Spanish
    (
        "ignore_instructions_es",
        "instruction_to_model",
        "es",
        re.compile(
            r"\bignor(a|e|en|ar)\s+(todas\s+)?(las\s+)?(instrucciones|reglas|indicaciones)(\s+anteriores|\s+previas)?",
            _I,
        ),
    ),
    (
        "address_to_model_es",
        "instruction_to_model",
        "es",
        re.compile(
            r"\b(nota|mensaje|instrucción)\s+(para|a)\s+(la\s+|el\s+)?(ia|inteligencia\s+artificial|modelo|asistente|juez|revisor|verificador)\b",
            _I,
        ),
    ),
    (
        "rate_as_es",
        "instruction_to_model",
        "es",
        re.compile(
            r"\b(marca|marque|califica|califique|considera|considere|evalúa|evalúe)\s+(esta|este|la|el)\s+(afirmación|declaración|fuente|artículo)\s+(como\s+)?(verdader[oa]|ciert[oa]|correct[oa]|fiable)",
            _I,
        ),
    ),
    # Hebrew
    (
        "ignore_instructions_he",
        "instruction_to_model",
        "he",
        re.compile(r"(התעלם|התעלמי|התעלמו)\s+(מכל\s+|מ)?(ה)?הוראות"),
    ),
    (
        "address_to_model_he",
        "instruction_to_model",
        "he",
        re.compile(r"(הערה|הודעה|הוראה)\s+(ל|אל\s+)(ה)?(בינה\s+המלאכותית|מודל|שופט|בודק|עוזר)"),
    ),
    (
        "rate_as_he",
        "instruction_to_model",
        "he",
        re.compile(
            r"(סמן|סמני|דרג|דרגי|קבע|קבעי)\s+(את\s+)?(ה)?(טענה|הצהרה|כתבה|מקור)(\s+הזאת|\s+הזו)?\s+(כ)?(נכונה|נכון|אמת|אמינה)"
        ),
    ),
    # --- fake system or role markers ------------------------------------------------
    (
        "role_marker",
        "role_marker",
        "any",
        re.compile(
            r"(^\s*(\[|<|#{1,3}\s*)?(system|assistant|developer)\s*(\]|>|:)"
            r"|^\s*(\[|<)(user|human)(\]|>)"
            r"|<\|?(im_start|im_end|system|endoftext)\|?>|\[/?INST\]|<</?SYS>>|</s>)",
            _M,
        ),
    ),
    (
        "role_marker_words",
        "role_marker",
        "any",
        re.compile(
            r"\b(system\s+prompt|system\s+message|systemanweisung|message\s+système|mensaje\s+del\s+sistema)\s*[:\]]",
            _I,
        ),
    ),
    # --- planted verdict formats --------------------------------------------------------
    (
        "planted_verdict_json",
        "planted_verdict",
        "any",
        re.compile(
            r"[\"']?(verdict|label|rating|judgement|judgment)[\"']?\s*[:=]\s*[\"']?(true|false|mostly_true|mostly\s+true|verified|unresolvable)\b",
            _I,
        ),
    ),
    (
        "planted_confidence",
        "planted_verdict",
        "any",
        re.compile(r"[\"']confidence[\"']\s*:\s*(0?\.\d+|1(\.0+)?)", _I),
    ),
    (
        "planted_verdict_line",
        "planted_verdict",
        "any",
        re.compile(r"^\s*(final\s+)?(verdict|urteil|veredicto|verdetto)\s*[:=-]\s*\S+", _M),
    ),
]

# Characters that hide text from a human reader but not from a model.
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad\u180e]")
_TAG_CHARS = re.compile("[\U000e0000-\U000e007f]")
# A long run of spaces or blank lines before more text pushes it out of a reader's view.
_WHITESPACE_PUSH = re.compile(r"[ \t\u00a0\u3000]{60,}\S|(\n\s*){25,}\S")
_HIDDEN_STYLE = re.compile(
    r"display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(px|pt|em|rem|%)?\s*(;|$)|opacity\s*:\s*0(\.0+)?\s*(;|$)"
    r"|color\s*:\s*(#fff(fff)?|white)\s*;\s*background(-color)?\s*:\s*(#fff(fff)?|white)"
    r"|left\s*:\s*-\d{3,}px|text-indent\s*:\s*-\d{3,}",
    _I,
)


def find_instructions(text: str, source: str) -> list[SteeringFinding]:
    """Instructions addressed to a model or reviewer, fake role markers and planted verdict
    formats, in English, German, French, Spanish and Hebrew."""
    findings: list[SteeringFinding] = []
    for rule, kind, language, pattern in _PATTERNS:
        match = pattern.search(text)
        if match:
            findings.append(
                SteeringFinding(
                    kind=kind, source=source, language=language, excerpt=_excerpt(text, match), rule=rule
                )
            )
    return findings


def find_hidden_characters(text: str, source: str) -> list[SteeringFinding]:
    """Hidden text in plain text: zero-width and tag characters, and whitespace runs that
    push text out of a human reader's view."""
    findings: list[SteeringFinding] = []
    if _ZERO_WIDTH.search(text) or _TAG_CHARS.search(text):
        findings.append(
            SteeringFinding(
                kind="hidden_text",
                source=source,
                language="any",
                excerpt="zero-width or tag characters",
                rule="zero_width",
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
            )
        )
    return findings


def find_hidden_html(raw_html: str, source: str) -> list[SteeringFinding]:
    """Hidden text in raw HTML: elements with text that a browser does not show
    (``hidden``, ``aria-hidden`` with text, ``display:none``, zero font size, white on white,
    off-screen positioning). Hidden text is reported whatever it says."""
    try:
        root = lxml_html.fromstring(raw_html)
    except (ValueError, lxml_html.etree.ParserError):
        return []
    findings: list[SteeringFinding] = []
    for element in root.iter():
        if not isinstance(element.tag, str) or element.tag in {
            "script",
            "style",
            "template",
            "head",
            "meta",
            "noscript",
        }:
            continue
        hidden = (
            element.get("hidden") is not None
            or (element.get("aria-hidden") or "").lower() == "true"
            or bool(_HIDDEN_STYLE.search(element.get("style") or ""))
        )
        if not hidden:
            continue
        text = " ".join(element.text_content().split())
        if len(text) >= 3:
            findings.append(
                SteeringFinding(
                    kind="hidden_text", source=source, language="any", excerpt=text[:160], rule="hidden_html"
                )
            )
    return findings


def detect_steering(
    texts: Mapping[str, str] | Sequence[str], *, raw_html: Mapping[str, str] | None = None
) -> SteeringResult:
    """[#7] "Detect attempts to steer the judge in claims and in evidence pages (instructions
    addressed to a model or reviewer, fake system or role markers, planted verdict formats,
    hidden text), in English and other languages. A detected attempt blocks the verdict from
    display and is recorded." ``texts`` maps a source label to its text (a plain sequence is
    labelled by position); ``raw_html`` adds hidden-element checks where raw HTML is known."""
    labelled = dict(texts) if isinstance(texts, Mapping) else {f"text[{i}]": t for i, t in enumerate(texts)}
    findings: list[SteeringFinding] = []
    for source, text in labelled.items():
        findings.extend(find_instructions(text, source))
        findings.extend(find_hidden_characters(text, source))
    for source, body in (raw_html or {}).items():
        findings.extend(find_hidden_html(body, source))
    checked = sorted(set(labelled) | set(raw_html or {}))
    return SteeringResult(detected=bool(findings), findings=findings, checked_sources=checked)


def merge_steering(*results: SteeringResult) -> SteeringResult:
    """Findings add up; a detection is never removed by a later check."""
    findings = [finding for result in results for finding in result.findings]
    sources = sorted({source for result in results for source in result.checked_sources})
    return SteeringResult(
        detected=any(result.detected for result in results),
        findings=findings,
        checked_sources=sources,
        model_checked=any(result.model_checked for result in results),
    )


def _excerpt(text: str, match: re.Match[str], width: int = 60) -> str:
    start, end = max(0, match.start() - width), min(len(text), match.end() + width)
    return " ".join(text[start:end].split())[:200]


# --- the optional model step -------------------------------------------------------------


class SteeringCheckText(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    text: str


class DetectSteeringInput(BaseModel):
    """Input of the ``detect_steering`` step: labelled texts, nothing else."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    texts: list[SteeringCheckText]


class DetectSteeringOutput(BaseModel):
    """Output of the ``detect_steering`` step."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    findings: list[SteeringFinding] = Field(default_factory=list)
    confidence: float = Field(ge=0.0, le=1.0)


async def detect_steering_with_model(
    texts: Mapping[str, str], gateway: ModelGateway, *, raw_html: Mapping[str, str] | None = None
) -> SteeringResult:
    """The rule-based detector plus the ``detect_steering`` model step: a finding from either
    counts; the model can add findings, never clear the rules' ones."""
    rules = detect_steering(texts, raw_html=raw_html)
    if not texts:
        return rules
    payload = DetectSteeringInput(texts=[SteeringCheckText(source=s, text=t) for s, t in texts.items()])
    output = await gateway.run("detect_steering", payload, DetectSteeringOutput)
    model = SteeringResult(
        detected=bool(output.findings),
        findings=list(output.findings),
        checked_sources=sorted(texts),
        model_checked=True,
    )
    return merge_steering(rules, model)
