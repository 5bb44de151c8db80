"""Which provider and model runs each model step, in one place.

Defaults follow the method ("Each step uses the cheapest model that does the
job well"): Claude Haiku for simple extraction and parsing, Claude Sonnet for
harder reading and search, Claude Opus for decisions and interpreting evidence
including judge A, and an OpenAI GPT model for judge B "so that the two blind
judges come from different model families" and for the steering check (a different
family from judge A, [#16]). Model ids are configuration:
override per step with a config mapping or with environment variables
``RELIABILITY_MODEL_<STEP>=<provider>:<model>[@<base_url>]``, e.g.
``RELIABILITY_MODEL_JUDGE_B=openai-compatible:llama-4@http://localhost:8000/v1``
(gathered by ``reliability_core.settings`` into ``Settings.models``, parsed here).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from reliability_core.providers.base import OFFLINE_NAME
from reliability_core.providers.errors import ConfigurationError
from reliability_core.version import SAME_FAMILY_EXPERIMENT_FLAG

if TYPE_CHECKING:

    pass

MODEL_STEPS: tuple[str, ...] = (
    "confirm_identity",
    "decide_coverage",
    "extract_statements",
    "classify_statements",
    "write_criteria",
    "plan_research",
    "read_evidence",
    "judge_a",
    "judge_b",
    "review_verdict",
    "detect_steering",
)

# Both judges read the same instructions; they differ only in the model.
TEMPLATE_FOR_STEP: dict[str, str] = {"judge_a": "judge", "judge_b": "judge"}

PROVIDERS: tuple[str, ...] = ("anthropic", "openai", "openai-compatible", OFFLINE_NAME)

HAIKU = "claude-haiku-5-5"
SONNET = "claude-sonnet-5-5"
OPUS = "claude-opus-5-5"
GPT = "gpt-6.1-sol"
# The reviewer: OpenAI's most capable model (GPT-6.2 Astra, 2026-11-17), ranked above Opus 5.5
# (Intelligence Index 62.1 against 59.1; docs/architecture/providers.md, "Which model runs
# each step", cites the pages). It replaced "gpt-6.1-sol-pro", which no vendor lists.
GPT_ASTRA = "gpt-6.2-astra"

# [#15] rule 7: the reviewer is "a second, stronger model ... different from judge A". Models
# ranked by strength, so the start-up check can refuse a reviewer that is not stronger. The
# ranks follow the vendors' own placing and the published comparisons cited in the providers
# doc: GPT-6.1 Sol is below Opus 5.5 there, hence judge B's rank 2; Anthropic places its Fable
# models above Opus 5.5 (the alternative reviewers of judge A's own family).
MODEL_STRENGTH: dict[str, int] = {
    HAIKU: 1,
    SONNET: 2,
    GPT: 2,
    OPUS: 3,
    GPT_ASTRA: 4,
    "claude-fable-5-1": 4,
    "claude-fable-5-2": 4,
}

DEFAULT_ASSIGNMENT: dict[str, str] = {
    # cheap: simple extraction and parsing
    "extract_statements": f"anthropic:{HAIKU}",
    "classify_statements": f"anthropic:{HAIKU}",
    # mid: harder reading and search
    "confirm_identity": f"anthropic:{SONNET}",
    "plan_research": f"anthropic:{SONNET}",
    "read_evidence": f"anthropic:{SONNET}",
    # strongest: decisions, interpreting evidence, judge A
    "decide_coverage": f"anthropic:{OPUS}",
    "write_criteria": f"anthropic:{OPUS}",
    "judge_a": f"anthropic:{OPUS}",
    # a different family for judge B
    "judge_b": f"openai:{GPT}",
    # a second, stronger model than judge A reviews judge A's verdict ([R] display gates)
    "review_verdict": f"openai:{GPT_ASTRA}",
    # [#16] the steering check from a different family than judge A: an attack written to
    # slip past one family's reading is less likely to slip past both
    "detect_steering": f"openai:{GPT}",
}

class StepLimits(BaseModel):
    """Output budget, reasoning effort and input limit of one step.

    Thinking (Anthropic) and reasoning (OpenAI) tokens count against the output
    budget, so each budget leaves room for them on top of the longest record
    the step writes. ``retry_output_tokens`` is the one retry after a
    truncation. ``max_input_chars`` caps the text one call may carry (a page's
    text for extraction is cut into chunks of at most this size).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_output_tokens: int
    retry_output_tokens: int
    effort: str | None = None
    max_input_chars: int = 200_000


# Provider configuration, not method constants, so it stays here and not in
# ``reliability_core.constants``: budgets and effort are sized to a vendor's models (what
# they spend on thinking, the efforts they take) and change with the assignment above; a
# budget too small ends in a recorded truncation, never in a different rule. The one limit
# that decides what the method reads, ``max_input_chars`` of extraction, is bounded by the
# method's own caps (``constants.EXTRACTION_MAX_CHUNKS``).
# Sized to the step: a short decision gets a small budget and low effort, a
# page's statements or a judge's reasoning a larger one. Effort levels are the
# vendors' (Anthropic output_config.effort, OpenAI reasoning.effort): the
# defaults are medium on Opus 5.5 and Haiku 5.5, high on Sonnet 5.5, so the
# table sets every step explicitly.
# A budget is also what a runaway answer (a model that keeps deliberating) burns before it
# is cut and retried, so a budget far above the step's longest answer is paid for on
# every runaway: each budget below leaves room for the longest answer the step's input
# allows, not more (the measured answers and the bounds are in docs/architecture/providers.md,
# "Cost per checked claim").
STEP_LIMITS: dict[str, StepLimits] = {
    "confirm_identity": StepLimits(max_output_tokens=2_048, retry_output_tokens=8_192, effort="low"),
    "decide_coverage": StepLimits(max_output_tokens=4_096, retry_output_tokens=12_288, effort="medium"),
    "extract_statements": StepLimits(
        max_output_tokens=12_288, retry_output_tokens=32_768, effort="low", max_input_chars=60_000
    ),
    "classify_statements": StepLimits(max_output_tokens=8_192, retry_output_tokens=24_576, effort="low"),
    # Low effort: the step applies written rules literally (the rulebook's reading of "more
    # than"/"at least", the operator table, the default margins of 5/15/35%), and code checks
    # what it writes (bands that cannot be applied literally are replaced by the default
    # margins), so it needs careful reading rather than long deliberation; its answer is
    # ~250 tokens. The strongest model stays on it. At medium effort it was the second
    # largest cost per checked claim (Opus thinking tokens at $20 per million).
    "write_criteria": StepLimits(max_output_tokens=4_096, retry_output_tokens=12_288, effort="low"),
    # Six queries of a few words: ~100 tokens of answer.
    "plan_research": StepLimits(max_output_tokens=2_048, retry_output_tokens=8_192, effort="low"),
    # The reader gets at most PASSAGE_MAX_CHARS (4,000 characters, ~1k tokens) of a page and
    # quotes from it, so its answer cannot be much longer than ~1.2k tokens even if it quoted
    # every passage; measured answers are ~50 tokens plus low-effort thinking (p99 ~270).
    "read_evidence": StepLimits(
        max_output_tokens=2_048, retry_output_tokens=8_192, effort="low", max_input_chars=60_000
    ),
    # The judges keep medium effort and room to deliberate: the verdict is the method's
    # decision, and a hard claim may think well past the ~1k tokens a typical one takes.
    "judge_a": StepLimits(max_output_tokens=8_192, retry_output_tokens=24_576, effort="medium"),
    "judge_b": StepLimits(max_output_tokens=8_192, retry_output_tokens=24_576, effort="medium"),
    # The reviewer ("a second, stronger model") checks a verdict judge A has already reasoned
    # out, against the same blind input, for major problems: low effort on the stronger model.
    # Every model documented as stronger than judge A costs at least $8/$40 per million tokens,
    # and at medium effort its reasoning alone was ~$0.023 of a checked claim, which took the
    # rehearsal over the $0.10 budget ($0.105 with reviews only where they can change display).
    # Its effect on quality is for the gold-set backtest to show, not the rehearsal: going back
    # to medium costs about $0.02 per checked claim.
    "review_verdict": StepLimits(max_output_tokens=4_096, retry_output_tokens=12_288, effort="low"),
    "detect_steering": StepLimits(max_output_tokens=2_048, retry_output_tokens=8_192, effort="low"),
}
DEFAULT_LIMITS = StepLimits(max_output_tokens=4_096, retry_output_tokens=12_288)


def limits_for(step: str) -> StepLimits:
    """The output budget, effort and input limit of ``step`` (a default for an unlisted step)."""
    return STEP_LIMITS.get(step, DEFAULT_LIMITS)


class StepAssignment(BaseModel):
    """Provider and model for one step; ``base_url`` only for openai-compatible."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: str
    model: str
    base_url: str | None = None

    def label(self) -> str:
        """``provider:model`` (``offline-rules`` alone for the offline provider)."""
        if self.provider == OFFLINE_NAME:
            return OFFLINE_NAME
        suffix = f"@{self.base_url}" if self.base_url else ""
        return f"{self.provider}:{self.model}{suffix}"


def template_for(step: str) -> str:
    """The prompt template name of ``step`` (``judge`` for both judges)."""
    return TEMPLATE_FOR_STEP.get(step, step)


def parse_assignment(spec: str) -> StepAssignment:
    """``anthropic:claude-opus-5-5``, ``openai:gpt-6.1-sol``,
    ``openai-compatible:llama-4@http://localhost:8000/v1`` or ``offline-rules``."""
    text = spec.strip()
    if text == OFFLINE_NAME:
        return StepAssignment(provider=OFFLINE_NAME, model=OFFLINE_NAME)
    provider, sep, rest = text.partition(":")
    if not sep or not rest:
        raise ConfigurationError(f"model assignment {spec!r} is not '<provider>:<model>[@<base_url>]'")
    if provider not in PROVIDERS:
        raise ConfigurationError(
            f"model assignment {spec!r}: unknown provider {provider!r} (known: {PROVIDERS})"
        )
    model, at, base_url = rest.partition("@")
    if provider == "openai-compatible" and not base_url:
        raise ConfigurationError(f"model assignment {spec!r}: openai-compatible needs '@<base_url>'")
    if provider != "openai-compatible" and at:
        raise ConfigurationError(f"model assignment {spec!r}: only openai-compatible takes a base URL")
    return StepAssignment(provider=provider, model=model, base_url=base_url or None)


def resolve_assignment(
    overrides: Mapping[str, str], config: Mapping[str, str] | None = None
) -> dict[str, StepAssignment]:
    """Defaults, then ``config`` (step -> spec), then ``overrides`` (step -> spec: the
    ``RELIABILITY_MODEL_<STEP>`` variables, ``Settings.models``)."""
    specs = dict(DEFAULT_ASSIGNMENT)
    for step, spec in (config or {}).items():
        if step not in MODEL_STEPS:
            raise ConfigurationError(f"model configuration names unknown step {step!r}")
        specs[step] = spec
    for step in MODEL_STEPS:
        override = overrides.get(step)
        if override:
            specs[step] = override
    return {step: parse_assignment(spec) for step, spec in specs.items()}


# [#15] rule 9: families of the providers, as the providers report them (``family``).
PROVIDER_FAMILIES: dict[str, str] = {"anthropic": "claude", "openai": "gpt", OFFLINE_NAME: OFFLINE_NAME}


def family_of(chosen: StepAssignment, env: Mapping[str, str]) -> str:
    """The model family of an assignment: the provider's family, or for an OpenAI-compatible
    server ``OPENAI_COMPATIBLE_FAMILY`` or the model id's first word ("llama-4" -> "llama")."""
    if chosen.provider == "openai-compatible":
        return (env.get("OPENAI_COMPATIBLE_FAMILY") or chosen.model.split("-")[0]).casefold()
    return PROVIDER_FAMILIES.get(chosen.provider, chosen.provider)


def check_model_table(
    assignment: Mapping[str, StepAssignment], env: Mapping[str, str], *, same_family_experiment: bool
) -> None:
    """At start-up, the model table must hold the method's two rules about models:
    [M] step 8 / [#15] rule 9 "Two judges from different model families": judge A and judge B
    of the same family are refused with a clear error, unless the explicit experiment flag
    ``RELIABILITY_EXPERIMENT_SAME_FAMILY_JUDGES`` is set (the method version then records
    it); [#15] rule 7 the reviewer is a model other than judge A's, and not a weaker one;
    [#16] the steering check is of a family other than judge A's (same flag).
    The offline stand-in is exempt: it is one labelled rule set, not a model."""
    judge_a, judge_b = assignment["judge_a"], assignment["judge_b"]
    if OFFLINE_NAME not in (judge_a.provider, judge_b.provider):
        family_a, family_b = family_of(judge_a, env), family_of(judge_b, env)
        if family_a == family_b and not same_family_experiment:
            raise ConfigurationError(
                f"judge A ({judge_a.label()}) and judge B ({judge_b.label()}) are both of the {family_a!r} "
                "family; the method needs two judges from different model families. Set "
                f"{SAME_FAMILY_EXPERIMENT_FLAG}=1 to run this as a recorded experiment."
            )
    # [#16] the steering check "assigned to a model of a different family from judge A": an
    # attack worded to slip past one family's reading then has to slip past two.
    check = assignment.get("detect_steering")
    if (
        check is not None
        and OFFLINE_NAME not in (check.provider, judge_a.provider)
        and family_of(check, env) == family_of(judge_a, env)
        and not same_family_experiment
    ):
        raise ConfigurationError(
            f"the steering check ({check.label()}) is of judge A's family ({family_of(judge_a, env)!r}); "
            f"it must come from a different family. Set {SAME_FAMILY_EXPERIMENT_FLAG}=1 to run this "
            "as a recorded experiment."
        )
    reviewer = assignment.get("review_verdict")
    if reviewer is None or OFFLINE_NAME in (reviewer.provider, judge_a.provider):
        return
    if (reviewer.provider, reviewer.model, reviewer.base_url) == (judge_a.provider, judge_a.model, judge_a.base_url):
        raise ConfigurationError(
            f"the reviewer ({reviewer.label()}) is judge A's model; it must be a second, stronger model"
        )
    strength_a, strength_r = MODEL_STRENGTH.get(judge_a.model), MODEL_STRENGTH.get(reviewer.model)
    if strength_a is not None and strength_r is not None and strength_r < strength_a:
        raise ConfigurationError(
            f"the reviewer ({reviewer.label()}) is weaker than judge A ({judge_a.label()}); "
            "it must be a second, stronger model"
        )


def concurrency_limits(configured: Mapping[str, int]) -> dict[str, int]:
    """The known providers' concurrency limits from ``configured`` (provider -> n: the
    ``RELIABILITY_CONCURRENCY_<PROVIDER>`` variables, ``Settings.concurrency``), at least 1."""
    return {provider: max(1, configured[provider]) for provider in PROVIDERS if provider in configured}








