"""The scripted model behind the rehearsal servers (labelled: it is not a model).

For a request it reads what a real model reads: the system prompt (to know the
step) and the user turn (the step's input as JSON: page text, claim, criteria,
evidence). Its competence is the offline rules (``reliability_core.stand_in.rules``),
which answer from that input alone, never from a lookup of test items. On top it
makes the mistakes real models make, each at a seeded rate and decided from the
request's own content, so the same request always gets the same answer (the
per-call data-mark token of a judge's or reviewer's input, random by design,
is left out of that content: see ``request_key``):

* a loose restatement passed off as a verbatim quote (extraction);
* an invented number inside a quote (extraction) or an observed value the quote
  does not hold (evidence reading);
* an inferred probability on a hedged prediction that states none (classification);
* a paraphrase presented as a quote (evidence reading);
* a refusal (the judges);
* a runaway answer that hits the output budget (any step: truncation);
* prose and a code fence around the JSON, where the request does not enforce a
  schema (an OpenAI-compatible ``json_object`` call, or no format at all).

Output lengths are realistic for cost: the visible answer is the JSON the
request asked for, and thinking or reasoning tokens (billed as output) scale
with the step's difficulty and the requested effort.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from reliability_core.providers.gateway import DEFAULT_PROMPTS_DIR
from reliability_core.stand_in.model import handler_for
from reliability_core.text.data_marking import without_mark_tokens

PROMPTS_DIR = DEFAULT_PROMPTS_DIR
JUDGE_TEMPLATE = "judge"

StopKind = Literal["end_turn", "max_tokens", "refusal"]

# Thinking (Anthropic) or reasoning (OpenAI) tokens at medium effort, by step:
# harder decisions think longer. Rough figures for structured single-turn calls.
BASE_THINKING_TOKENS: dict[str, int] = {
    "confirm_identity": 450,
    "decide_coverage": 350,
    "extract_statements": 350,
    "classify_statements": 500,
    "write_criteria": 600,
    "plan_research": 300,
    "read_evidence": 250,
    "judge_a": 900,
    "judge_b": 900,
    # a second, stronger model checking judge A's verdict against the quotes
    "review_verdict": 1200,
    "detect_steering": 200,
}
DEFAULT_THINKING_TOKENS = 400
# Effort levels of both vendors mapped to a multiplier of the medium figure.
EFFORT_FACTOR: dict[str, float] = {
    "none": 0.0,
    "minimal": 0.15,
    "low": 0.4,
    "medium": 1.0,
    "high": 1.8,
    "xhigh": 2.6,
    "max": 3.5,
}


def estimate_tokens(text: str) -> int:
    """Tokens of ``text``: about four characters a token for English prose and
    JSON (the vendors' tokenisers differ by some 10-20%; this is the figure the
    rehearsal bills, for both prompts as sent and answers as written)."""
    return max(1, math.ceil(len(text) / 4)) if text else 0


@dataclass(frozen=True)
class MistakeRates:
    """How often the scripted model makes each mistake (per item or per call)."""

    loose_quote: float = 0.06  # per extracted statement
    invented_number: float = 0.05  # per statement or evidence item holding a number
    inferred_probability: float = 0.3  # per hedged prediction without a stated probability
    paraphrased_quote: float = 0.08  # per evidence item
    judge_refusal: float = 0.02  # per judge call
    runaway: float = 0.01  # per call: thinks past the output budget
    prose_around_json: float = 0.35  # per call, only where no schema is enforced

    @classmethod
    def none(cls) -> MistakeRates:
        """A model that makes no mistakes (for tests of one mistake at a time)."""
        return cls(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class ScriptedAnswer:
    """What the model wrote for one request."""

    step: str
    text: str  # the visible answer (possibly cut)
    thinking_tokens: int
    text_tokens: int
    stop: StopKind
    refusal_explanation: str = ""
    mistakes: tuple[str, ...] = ()

    @property
    def output_tokens(self) -> int:
        """Billed output: thinking or reasoning tokens count as output."""
        return self.thinking_tokens + self.text_tokens


@dataclass
class ScriptedModel:
    """Answers one request the way a real model would, mistakes included."""

    rates: MistakeRates = field(default_factory=MistakeRates)
    seed: int = 0
    prompts_dir: Path = PROMPTS_DIR
    _templates: dict[str, str] = field(default_factory=dict, init=False, repr=False)

    # -- reading the request ------------------------------------------------

    def step_of(self, system: str, user: str, *, model: str) -> str:
        """The step, as a model knows it: from the instructions it was given.
        Both judges read one template; the judge on a GPT model is judge B."""
        marker = re.search(r"Input \(([a-z_]+)\)", user)
        if marker:
            return marker.group(1)
        for name, text in self._template_texts().items():
            if text and text[:400] in system:
                if name == JUDGE_TEMPLATE:
                    return "judge_b" if model.startswith("gpt") else "judge_a"
                return name
        raise ValueError("the request names no step the scripted model knows")

    def _template_texts(self) -> dict[str, str]:
        if not self._templates:
            for path in sorted(self.prompts_dir.glob("*.md")):
                self._templates[path.stem] = path.read_text(encoding="utf-8").strip()
        return self._templates

    # -- answering ----------------------------------------------------------

    def answer(
        self,
        *,
        system: str,
        user: str,
        model: str,
        max_tokens: int,
        effort: str | None,
        schema_enforced: bool,
        thinking: bool = True,
    ) -> ScriptedAnswer:
        """The answer to one request: the step's output as JSON text, or a refusal,
        or an answer cut off by ``max_tokens``."""
        step = self.step_of(system, user, model=model)
        payload = input_json_of(user)
        repair = "previous output was rejected" in user.lower()
        rng = random.Random(_seed_of(self.seed, step, model, request_key(user), max_tokens))
        mistakes: list[str] = []

        thinking_tokens = 0
        if thinking:
            base = BASE_THINKING_TOKENS.get(step, DEFAULT_THINKING_TOKENS)
            factor = EFFORT_FACTOR.get(effort or "medium", 1.0)
            thinking_tokens = int(base * factor * rng.uniform(0.7, 1.3))

        if step in ("judge_a", "judge_b") and rng.random() < self.rates.judge_refusal:
            explanation = (
                "I can't assess whether a named person's statement was true from these excerpts "
                "without risking an unfair characterisation of them."
            )
            return ScriptedAnswer(
                step=step,
                text="",
                thinking_tokens=thinking_tokens // 3,
                text_tokens=estimate_tokens(explanation),
                stop="refusal",
                refusal_explanation=explanation,
                mistakes=("refusal",),
            )

        output = _competent_output(step, payload)
        if not repair:
            output = _with_mistakes(step, output, self.rates, rng, mistakes)
        text = json.dumps(output, ensure_ascii=False, indent=2)
        if not schema_enforced and not repair and rng.random() < self.rates.prose_around_json:
            text = f"Here is the {step.replace('_', ' ')} output:\n\n```json\n{text}\n```\n\nLet me know if you need anything else."
            mistakes.append("prose around JSON")
        if thinking and rng.random() < self.rates.runaway:
            # It keeps deliberating: the budget runs out before (or while) it answers.
            thinking_tokens = max(thinking_tokens, int(max_tokens * rng.uniform(0.85, 1.2)))
            mistakes.append("runaway thinking")

        text_tokens = estimate_tokens(text)
        if thinking_tokens + text_tokens > max_tokens:
            room = max(0, max_tokens - thinking_tokens)
            cut = text[: room * 4]
            return ScriptedAnswer(
                step=step,
                text=cut,
                thinking_tokens=min(thinking_tokens, max_tokens),
                text_tokens=estimate_tokens(cut) if room else 0,
                stop="max_tokens",
                mistakes=(*mistakes, "truncated"),
            )
        return ScriptedAnswer(
            step=step,
            text=text,
            thinking_tokens=thinking_tokens,
            text_tokens=text_tokens,
            stop="end_turn",
            mistakes=tuple(mistakes),
        )


def input_json_of(user: str) -> dict[str, Any]:
    """The step's input: the first JSON object in the user turn (after "as JSON:")."""
    start = user.find("as JSON:")
    start = user.find("{", start if start >= 0 else 0)
    if start < 0:
        raise ValueError("the user turn holds no JSON input")
    value, _ = json.JSONDecoder().raw_decode(user[start:])
    if not isinstance(value, dict):
        raise ValueError("the step input is not a JSON object")
    return value


def request_key(text: str) -> str:
    """``text`` with every per-call data-mark token ([#16]: a fresh random token per judge or
    reviewer call, so a page cannot forge the delimiters) replaced by one constant, as the
    gateway's cache key does. Seeding the model's draws from the raw text made the rehearsal
    irreproducible: each run drew new tokens, so every judge and reviewer call drew its
    thinking length, refusal and runaway afresh (the cost per checked claim moved by about
    5% between runs of the same tree and seed)."""
    return without_mark_tokens(text)


def _seed_of(seed: int, *parts: object) -> int:
    digest = hashlib.sha256("\x1f".join(str(p) for p in (seed, *parts)).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def _competent_output(step: str, payload: dict[str, Any]) -> dict[str, Any]:
    """What a careful model would answer: the offline rules over the same input."""
    entry = handler_for(step)
    output = entry.handler(entry.input_type.model_validate(payload))
    result: dict[str, Any] = output.model_dump(mode="json")
    return result


# -- the mistakes ------------------------------------------------------------

_NUMBER = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?)(?![\w])")
_HEDGE = re.compile(r"\b(?:likely|probably|expect|expects|expected|should|confident|believe)\b", re.IGNORECASE)


def _loosen(quote: str, rng: random.Random) -> str | None:
    """A loose restatement: one interior word dropped and a contraction expanded
    or made, as a model tidying a quote does."""
    words = quote.split()
    if len(words) < 6:
        return None
    drop = rng.randrange(1, len(words) - 1)
    loosened = " ".join(words[:drop] + words[drop + 1 :])
    for short, long in (("we're", "we are"), ("it's", "it is"), ("don't", "do not"), ("we will", "we'll")):
        if short in loosened:
            return loosened.replace(short, long, 1)
    return loosened


def _invent_number(text: str, rng: random.Random) -> str | None:
    """One number in ``text`` nudged, as a model misremembering a figure does."""
    matches = list(_NUMBER.finditer(text))
    if not matches:
        return None
    match = rng.choice(matches)
    digits = match.group(1)
    try:
        value = float(digits.replace(",", ""))
    except ValueError:
        return None
    nudged = value + max(1.0, round(value * 0.1))
    shown = f"{nudged:.0f}" if "." not in digits else f"{nudged:.1f}"
    return text[: match.start(1)] + shown + text[match.end(1) :]


def _paraphrase(quote: str) -> str:
    """A paraphrase presented as a quote: the gist in other words."""
    words = quote.rstrip(".").split()
    core = " ".join(words[2:]) if len(words) > 6 else " ".join(words)
    return f"According to the report, {core}, as was noted."


def _with_mistakes(
    step: str, output: dict[str, Any], rates: MistakeRates, rng: random.Random, mistakes: list[str]
) -> dict[str, Any]:
    if step == "extract_statements":
        for statement in output.get("statements", []):
            if rng.random() < rates.loose_quote:
                loosened = _loosen(statement["quote"], rng)
                if loosened is not None:
                    statement["quote"] = loosened
                    mistakes.append("loose restatement as quote")
                    continue
            if rng.random() < rates.invented_number:
                invented = _invent_number(statement["quote"], rng)
                if invented is not None:
                    statement["quote"] = invented
                    mistakes.append("invented number in quote")
    elif step == "classify_statements":
        for item in output.get("items", []):
            if (
                item.get("claim_type") == "prediction"
                and item.get("stated_probability") is None
                and _HEDGE.search(item.get("restatement", ""))
                and rng.random() < rates.inferred_probability
            ):
                item["stated_probability"] = rng.choice([0.6, 0.7, 0.75, 0.8])
                item["probability_kind"] = "exact"
                mistakes.append("inferred probability")
    elif step == "read_evidence":
        for item in output.get("items", []):
            if rng.random() < rates.paraphrased_quote:
                item["quote"] = _paraphrase(item["quote"])
                mistakes.append("paraphrase presented as quote")
            elif item.get("observed_value") is not None and rng.random() < rates.invented_number:
                item["observed_value"] = round(float(item["observed_value"]) * 1.1 + 1.0, 2)
                mistakes.append("invented observed value")
    return output
