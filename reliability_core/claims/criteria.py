"""Step 6: fix the standard before looking ([M] step 6).

"For each sampled claim, resolution criteria are written and stored, with a
timestamp, before any research: what the evidence would need to show for true,
mostly true, mixed, mostly false and false, and the date to judge at. The
criteria are never rewritten afterwards."

The "write_criteria" model step proposes the five levels, the judge-at date and,
for a numeric claim, a structured form. Code then applies the literal reading
rules of [R] ("more than" strict, "at least" inclusive, nothing rounded) and
stores the result in the append-only ledger; a re-run reuses what is stored
without calling a model, and a different body for the same claim is refused
(``LedgerConflictError``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from datetime import date, datetime

from pydantic import BaseModel, ConfigDict, Field

from reliability_core.claims.comparisons import explicit_comparisons, figure_spans, operators_bound_to_figure
from reliability_core.claims.criteria_reading import (
    choose_threshold,
    decide_period,
    period_from_words,
    threshold_not_written,
)
from reliability_core.claims.numeric_reading import freeze_numeric_bands
from reliability_core.claims.stated_probability import remove_stated_probability
from reliability_core.clock import Clock
from reliability_core.ids import sha256_hex, stable_id
from reliability_core.models.base import ClaimType
from reliability_core.models.claims import (
    Claim,
    CriteriaLevels,
    NumericCriteria,
    ProbabilityKind,
    ResolutionCriteria,
)
from reliability_core.providers.base import ModelGateway
from reliability_core.providers.errors import ItemFailure
from reliability_core.providers.failures import ModelFailure, record_failure
from reliability_core.text.numbers import value_written_in
from reliability_core.warehouse.ledger import Ledger

CRITERIA_TABLE = "criteria"
STEP_WRITE_CRITERIA = "write_criteria"


class CriteriaInput(BaseModel):
    """Input of the "write_criteria" step: the claim only, before any research."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    claim_id: str
    subject_name: str
    claim_type: ClaimType
    quote: str
    restatement: str
    made_on: date | None
    deadline: date | None
    stated_probability: float | None
    probability_kind: ProbabilityKind | None


class CriteriaOutput(BaseModel):
    """Output of the "write_criteria" step."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    levels: CriteriaLevels
    judge_at: date = Field(
        description="The date at which the claim is judged (the deadline for promises/predictions)"
    )
    numeric: NumericCriteria | None = Field(
        description="Structured form when the claim is numeric, else null"
    )


# --- Literal reading rules ([R] "How it reads a claim") ------------------------------


class CriteriaRefusedError(ItemFailure):
    """Code refused what the criteria writer proposed (a threshold the quote does not
    write): nothing is frozen, and the refusal is recorded on the claim like any failure
    of the criteria writer, so the claim is unresolvable with this reason."""

    reason = "threshold not written in the quote"


class OperatorConflictError(CriteriaRefusedError):
    """The claim's words bind two different operators to the threshold's figure ("more than
    5 or fewer", "at least, and at most, 5"): the claim has no one literal reading, so no
    criteria are frozen and the claim is recorded unresolvable with this reason."""

    reason = "claim's words bind two operators to the figure"


def _threshold_spans(numeric: NumericCriteria, text: str) -> list[tuple[int, int]]:
    """Where the quote writes the threshold's figure, in any common written form."""
    return [
        (start, end)
        for start, end in figure_spans(text)
        if value_written_in(numeric.threshold, text[start:end], unit=numeric.unit)
    ]


def enforce_literal_operator(numeric: NumericCriteria, quote: str) -> NumericCriteria:
    """[R] "'More than', 'above', 'exceeds' are strict; 'at least', 'reaches', 'or more'
    include the number itself": the claim's own words decide the operator, in the quote's
    language. The phrases bound to the threshold's figure wherever the quote writes it
    (``comparisons.operators_bound_to_figure``; stated probabilities blanked out first, so
    "more than 10% likely" is not the claim's comparison) stand over the model's operator
    when they are one operator; the model's stands when they are none; two different ones
    are refused (``OperatorConflictError``). When the quote does not write the threshold's
    figure, the one operator bound to any of its figures stands, if there is exactly one."""
    text = remove_stated_probability(quote)
    spans = _threshold_spans(numeric, text)
    if spans:
        operators = {op for span in spans for op in operators_bound_to_figure(text, *span)}
        if len(operators) > 1:
            raise OperatorConflictError(
                f"the claim's words bind {', '.join(sorted(operators))} to the threshold "
                f"{numeric.threshold:g} {numeric.unit}".rstrip(),
                step=STEP_WRITE_CRITERIA,
                provider="code",
            )
    else:
        operators = set(explicit_comparisons(text))
    if len(operators) == 1:
        (operator,) = operators
        if operator != numeric.operator:
            return numeric.model_copy(update={"operator": operator})
    return numeric


def criteria_content_hash(levels: CriteriaLevels, judge_at: date, numeric: NumericCriteria | None) -> str:
    """SHA-256 over the levels, the judge-at date and the numeric form (canonical JSON)."""
    payload = {
        "levels": levels.model_dump(mode="json"),
        "judge_at": judge_at.isoformat(),
        "numeric": numeric.model_dump(mode="json") if numeric is not None else None,
    }
    return sha256_hex(json.dumps(payload, sort_keys=True, ensure_ascii=False))


def criteria_id(claim_id: str) -> str:
    """One criteria record per claim, whatever run writes it."""
    return stable_id("crit", claim_id)


def criteria_input_for(claim: Claim, subject_name: str) -> CriteriaInput:
    """What the criteria writer sees: the claim and nothing found by research."""
    return CriteriaInput(
        claim_id=claim.id,
        subject_name=subject_name,
        claim_type=claim.claim_type,
        quote=claim.quote,
        restatement=claim.restatement,
        made_on=claim.made_on,
        deadline=claim.deadline,
        stated_probability=claim.stated_probability,
        probability_kind=claim.probability_kind,
    )


def build_criteria(
    claim: Claim, output: CriteriaOutput, *, written_at: datetime, written_by: str, method_version: str
) -> ResolutionCriteria:
    """The record to freeze: the model's levels, the judge-at date and numeric form
    after the literal reading rules (with the five numeric bands), the timestamp and
    the content hash. The period and the figure are the claim's words' reading
    (``criteria_reading.decide_period``, ``criteria_reading.choose_threshold``; a
    disagreement with the writer is kept in ``reading_notes``); a threshold the quote
    does not write is refused (``CriteriaRefusedError``)."""
    judge_at, period_note = decide_period(claim.claim_type, claim.quote, claim.deadline, output.judge_at)
    notes = [period_note] if period_note else []
    numeric = output.numeric
    if numeric is not None:
        refused = threshold_not_written(numeric, claim.quote)
        if refused is not None:
            raise CriteriaRefusedError(refused, step=STEP_WRITE_CRITERIA, provider="code")
        numeric, figure_note = choose_threshold(numeric, claim.quote)
        notes += [figure_note] if figure_note else []
        period = period_from_words(claim.claim_type, claim.quote, claim.deadline)
        if period is not None and numeric.as_of != period:
            # The figure is read as of the period the words give, as the judge-at date is.
            if numeric.as_of is not None:
                notes.append(
                    f"criteria writer's figure as of {numeric.as_of}; the claim's words give {period}"
                )
            numeric = numeric.model_copy(update={"as_of": period})
        numeric = enforce_literal_operator(numeric, claim.quote)
    # The five levels as ranges, frozen with the rest before any research ([#15] rule 2).
    numeric = freeze_numeric_bands(numeric) if numeric is not None else None
    return ResolutionCriteria(
        id=criteria_id(claim.id),
        claim_id=claim.id,
        subject_id=claim.subject_id,
        levels=output.levels,
        judge_at=judge_at,
        numeric=numeric,
        written_at=written_at,
        written_by=written_by,
        content_hash=criteria_content_hash(output.levels, judge_at, numeric),
        method_version=method_version,
        reading_notes=notes,
    )


def store_criteria(ledger: Ledger, criteria: ResolutionCriteria) -> None:
    """[M] "The criteria are never rewritten afterwards": append to the ledger;
    the same body again is a no-op, a different body for the same claim raises
    ``LedgerConflictError``."""
    ledger.append(CRITERIA_TABLE, criteria.subject_id, [(criteria.id, criteria)])


def stored_criteria(ledger: Ledger, claim: Claim) -> ResolutionCriteria | None:
    """The criteria already frozen for this claim, if any."""
    return ledger.get(CRITERIA_TABLE, claim.subject_id, criteria_id(claim.id), ResolutionCriteria)


async def freeze_criteria(
    *,
    claims: Sequence[Claim],
    gateway: ModelGateway,
    ledger: Ledger,
    clock: Clock,
    method_version: str,
    subject_name: str = "",
    failures: list[ModelFailure] | None = None,
) -> list[ResolutionCriteria]:
    """[M] step 6 for each sampled claim, before any research: reuse the stored
    criteria when there are any (no model call), otherwise ask "write_criteria",
    apply the reading rules, stamp ``written_at`` from the clock and store it in
    the ledger. Returns one record per claim, in the order given, except a claim
    whose criteria the model failed to write (refused, invalid, truncated,
    provider error): nothing is frozen for it (a later run may write them), and
    the failure is appended to ``failures`` so the claim is recorded unresolvable. Code's
    refusal of the writer's threshold (``CriteriaRefusedError``) is recorded the same way."""

    async def freeze_one(claim: Claim) -> ResolutionCriteria | None:
        existing = stored_criteria(ledger, claim)
        if existing is not None:
            return existing
        try:
            output = await gateway.run(
                STEP_WRITE_CRITERIA,
                criteria_input_for(claim, subject_name or claim.subject_id),
                CriteriaOutput,
            )
            criteria = build_criteria(
                claim,
                output,
                written_at=clock.now(),
                written_by=gateway.model_for(STEP_WRITE_CRITERIA),
                method_version=method_version,
            )
        except ItemFailure as exc:
            if failures is not None:
                failures.append(
                    record_failure(exc, subject_id=claim.subject_id, item_kind="claim", item_id=claim.id)
                )
                return None
            raise
        store_criteria(ledger, criteria)
        return criteria

    # Claims are independent: their criteria are written at once (the gateway
    # bounds concurrent calls per provider); each is stored as soon as written.
    frozen = await asyncio.gather(*(freeze_one(claim) for claim in claims))
    return [criteria for criteria in frozen if criteria is not None]
