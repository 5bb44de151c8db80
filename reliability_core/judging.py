"""Step 8: judge blind ([M] step 8, [V] T2, [R] "The Ref is blind").

"Two judges from different model families see the claim, the frozen criteria
and only the verified evidence ... They get the same instructions and the same
input, and each decides separately, without seeing the other's answer. Judge
A's verdict is the claim's verdict. When judge B reaches a different verdict,
the claim is flagged "judges disagree" and both verdicts are shown; no third
judge is called. With no verified evidence the claim is "unresolvable" without
a judge."

The judges propose; code applies the method's rules to each proposal (literal
reading of numeric criteria, positive evidence for "did not happen", what a
subject says about itself, "can't be settled" cases) and then the display
gates decide whether the verdict is shown.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from reliability_core.clock import Clock
from reliability_core.evidence import basis_of_evidence, usable_evidence
from reliability_core.gates import decide_display
from reliability_core.models.base import SCORED_VERDICTS, Basis, ClaimType, SourceClass, Verdict
from reliability_core.models.claims import Claim, CriteriaLevels, NumericCriteria, ResolutionCriteria
from reliability_core.models.verdicts import ClaimVerdict, EvidenceItem, GateOutcome, JudgeVerdict
from reliability_core.providers.base import ModelGateway
from reliability_core.reading import extractions_agree, literal_outcome
from reliability_core.sources import is_reliable_class
from reliability_core.steering import SteeringResult, detect_steering, merge_steering

STEP_JUDGE_A = "judge_a"
STEP_JUDGE_B = "judge_b"

UnsettledReason = Literal[
    "",
    "outcome_known_when_claimed",
    "two_fair_readings",
    "sources_conflict",
    "too_little_evidence",
    "no_positive_evidence",
    "self_reported_only",
    "no_observed_value",
]


# --- the blind input and the judge's output ---------------------------------------------


class JudgeEvidence(BaseModel):
    """One verified evidence item as a judge sees it: the quote and where it is from.
    Not the reader's stance or extracted value: each judge reads the quote itself."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    url: str
    publisher: str
    source_class: SourceClass
    subject_own: bool = Field(description="Published by the subject itself (its records or its statements)")
    published_date: date | None
    quote: str


class JudgeInput(BaseModel):
    """Exactly what both judges see ([R] "The Ref sees the claim's contract and nothing else"):
    the claim restatement, the frozen criteria and the verified evidence. Never the subject's
    scores or other verdicts, its responses, the other judge's answer, or who asked."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    claim: str
    claim_type: ClaimType
    made_on: date | None
    deadline: date | None
    judge_at: date
    levels: CriteriaLevels
    numeric: NumericCriteria | None
    evidence: list[JudgeEvidence]


class JudgeOutput(BaseModel):
    """One judge's decision, as the "judge_a"/"judge_b" steps return it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    verdict: Verdict
    confidence: float = Field(ge=0.0, le=1.0, description="Probability that the verdict is right")
    basis: Basis
    rationale: str = Field(description="Two to four sentences citing evidence ids")
    cited_evidence_ids: list[str]
    observed_value: float | None = Field(
        default=None, description="For numeric criteria: the value the evidence reports, read blind"
    )
    unsettled_reason: UnsettledReason = ""


JUDGE_INPUT_FIELDS: frozenset[str] = frozenset(JudgeInput.model_fields)
JUDGE_EVIDENCE_FIELDS: frozenset[str] = frozenset(JudgeEvidence.model_fields)


def build_judge_input(
    *, claim: Claim, criteria: ResolutionCriteria, evidence: Sequence[EvidenceItem]
) -> JudgeInput:
    """[M] step 8: the judges "see the claim, the frozen criteria and only the verified
    evidence". Unverified and excluded items never reach a judge ([#7])."""
    return JudgeInput(
        claim=claim.restatement,
        claim_type=claim.claim_type,
        made_on=claim.made_on,
        deadline=claim.deadline,
        judge_at=criteria.judge_at,
        levels=criteria.levels,
        numeric=criteria.numeric,
        evidence=[
            JudgeEvidence(
                id=item.id,
                url=item.final_url or item.url,
                publisher=item.publisher,
                source_class=item.source_class,
                subject_own=item.subject_own,
                published_date=item.published_date,
                quote=item.quote,
            )
            for item in usable_evidence(evidence)
        ],
    )


# --- the method's rules over one judge's proposal ----------------------------------------


class RuledVerdict(BaseModel):
    """A judge's proposal after the method's code rules."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    verdict: Verdict
    cited: list[str]
    rules_applied: list[str]
    self_reported_only: bool = False
    unsettled_reason: UnsettledReason = ""


def cited_in_input(cited: Sequence[str], judge_input: JudgeInput) -> list[str]:
    """[R] "The Ref can only cite pages it actually opened. Any source it can't show is
    dropped": citations outside the verified input are dropped; a judge that cites nothing
    is taken to rest on all of the input."""
    known = [item.id for item in judge_input.evidence]
    kept = [cid for cid in dict.fromkeys(cited) if cid in known]
    return kept or known


def numeric_verdict(numeric: NumericCriteria, observed: float | None) -> Verdict:
    """[#7] "each judge extracts the observed value blind; code evaluates the criteria
    literally". No extracted value leaves the claim unresolvable."""
    if observed is None:
        return "unresolvable"
    return literal_outcome(numeric, observed)


def has_positive_evidence(cited: Sequence[EvidenceItem], *, numeric: bool, observed: float | None) -> bool:
    """[M] step 8: "Not finding a record of something is not taken as proof that it did not
    happen: a 'did not happen' verdict needs positive evidence, such as a report of a delay or
    cancellation, or a dated account of the situation after the deadline." Positive evidence is
    a cited item that contradicts the claim, or, for numeric criteria, an observed figure."""
    if numeric and observed is not None:
        return True
    return any(item.stance == "contradicts" for item in cited)


def is_self_reported_only(claim_type: ClaimType, verdict: Verdict, cited: Sequence[EvidenceItem]) -> bool:
    """[M] step 8, what a subject says about itself: "For a factual claim about the subject's own
    figures, events or appointments ... the subject's official records count as evidence ... For a
    promise, the subject saying it delivered is not enough; the deliverable itself, or an
    independent source, has to show it. When the only support is the subject's ordinary statements
    ..., the claim is 'unresolvable' and marked 'self-reported only'."""
    if verdict not in SCORED_VERDICTS or not cited:
        return False
    if basis_of_evidence(cited) == "ordinary_statements_only":
        return True
    if claim_type == "promise" and verdict in ("true", "mostly_true"):
        independent_support = [
            item
            for item in cited
            if not item.subject_own and is_reliable_class(item.source_class) and item.stance != "contradicts"
        ]
        return not independent_support
    return False


def outcome_known_when_claimed(
    claim_type: ClaimType, made_on: date | None, cited: Sequence[EvidenceItem]
) -> bool:
    """[R] "Can't be settled ... if the outcome was already known, or had already happened, when
    the claim was locked: predicting yesterday's news doesn't count." A forward-looking claim
    whose deciding evidence is dated before the claim was made cannot be settled."""
    if claim_type == "factual" or made_on is None:
        return False
    return any(
        item.stance != "neutral" and item.published_date is not None and item.published_date < made_on
        for item in cited
    )


def reliable_sources_conflict(evidence: Sequence[EvidenceItem], *, verdict: Verdict, judge_at: date) -> bool:
    """[R] "Can't be settled: ... reliable sources conflict". Two reliable publishers conflict
    when they report figures that differ beyond the extraction tolerance, or (for any verdict but
    "mixed", which is backed by both sides) when one supports and another contradicts the claim.
    Only accounts of the outcome are compared: items dated on or after the judge-at date (or
    undated); an earlier progress report ("delayed") does not conflict with a later account of
    the outcome. When no item is that late, all are compared."""
    reliable = [item for item in usable_evidence(evidence) if is_reliable_class(item.source_class)]
    late = [item for item in reliable if item.published_date is None or item.published_date >= judge_at]
    reliable = late or reliable
    valued = [item for item in reliable if item.observed_value is not None]
    for i, first in enumerate(valued):
        for second in valued[i + 1 :]:
            if first.publisher != second.publisher and not extractions_agree(
                first.observed_value or 0.0, second.observed_value or 0.0
            ):
                return True
    if verdict == "mixed":
        return False
    supporting = {item.publisher for item in reliable if item.stance == "supports"}
    contradicting = {item.publisher for item in reliable if item.stance == "contradicts"}
    return bool(supporting and contradicting and (supporting | contradicting) != (supporting & contradicting))


def apply_method_rules(
    output: JudgeOutput,
    *,
    judge_input: JudgeInput,
    evidence: Sequence[EvidenceItem],
) -> RuledVerdict:
    """The method's rules over one judge's proposal, in order: a judge's own "can't be settled"
    stands; numeric criteria are read literally from the judge's blind extraction; "did not
    happen" needs positive evidence; self-records; outcome already known; reliable sources
    conflict. Each rule that changes the verdict is recorded. "Prefer 'unresolvable' to a guess"."""
    by_id = {item.id: item for item in usable_evidence(evidence)}
    cited_ids = cited_in_input(output.cited_evidence_ids, judge_input)
    cited = [by_id[cid] for cid in cited_ids if cid in by_id]
    verdict: Verdict = output.verdict
    rules: list[str] = []
    reason: UnsettledReason = output.unsettled_reason

    def settle(new: Verdict, why: UnsettledReason, note: str) -> None:
        nonlocal verdict, reason
        if new != verdict:
            rules.append(note)
        verdict, reason = new, why

    if output.unsettled_reason and verdict != "unresolvable":
        settle(
            "unresolvable",
            output.unsettled_reason,
            f"judge gave a 'can't be settled' reason: {output.unsettled_reason}",
        )
    if verdict != "unresolvable" and judge_input.numeric is not None:
        literal = numeric_verdict(judge_input.numeric, output.observed_value)
        settle(
            literal,
            "no_observed_value" if literal == "unresolvable" else "",
            f"literal reading of {judge_input.numeric.operator} {judge_input.numeric.threshold:g} "
            f"on observed {output.observed_value}: {literal}",
        )
    if verdict in ("false", "mostly_false") and not has_positive_evidence(
        cited, numeric=judge_input.numeric is not None, observed=output.observed_value
    ):
        settle("unresolvable", "no_positive_evidence", "'did not happen' without positive evidence")
    self_reported = is_self_reported_only(judge_input.claim_type, verdict, cited)
    if self_reported:
        settle("unresolvable", "self_reported_only", "self-reported only")
    if verdict != "unresolvable" and outcome_known_when_claimed(
        judge_input.claim_type, judge_input.made_on, cited
    ):
        settle("unresolvable", "outcome_known_when_claimed", "outcome already known when the claim was made")
    if verdict != "unresolvable" and reliable_sources_conflict(
        evidence, verdict=verdict, judge_at=judge_input.judge_at
    ):
        settle("unresolvable", "sources_conflict", "reliable sources conflict")
    return RuledVerdict(
        verdict=verdict,
        cited=cited_ids,
        rules_applied=rules,
        self_reported_only=self_reported,
        unsettled_reason=reason if verdict == "unresolvable" else "",
    )


def judges_disagree(verdict_a: Verdict, verdict_b: Verdict) -> bool:
    """[M] step 8: "When judge B reaches a different verdict, the claim is flagged 'judges
    disagree' and both verdicts are shown; no third judge is called.\""""
    return verdict_a != verdict_b


def numeric_disputed(observed_a: float | None, observed_b: float | None) -> bool:
    """[V] T2: the two blind extractions must "Match within |Δ| ≤ 0.05 or ≤ 0.1% relative";
    otherwise the claim is disputed. Only two actual extractions can disagree: a judge that
    extracted nothing abstained, which shows as a verdict disagreement instead."""
    if observed_a is None or observed_b is None:
        return False
    return not extractions_agree(observed_a, observed_b)


# --- the step ---------------------------------------------------------------------------


async def judge_claim(
    *,
    claim: Claim,
    criteria: ResolutionCriteria,
    evidence: Sequence[EvidenceItem],
    gateway: ModelGateway,
    clock: Clock,
    method_version: str,
    steering: SteeringResult | None = None,
) -> ClaimVerdict:
    """[M] step 8 for one claim, then the display gates. ``steering`` carries what the evidence
    step found in the pages; the claim and the evidence quotes are checked here as well."""
    now = clock.now()
    usable = usable_evidence(evidence)
    checked = detect_steering(
        {"claim": f"{claim.quote}\n{claim.restatement}", **{item.id: item.quote for item in usable}}
    )
    steering_all = merge_steering(checked, steering) if steering is not None else checked
    base = {
        "method_version": method_version,
        "claim_id": claim.id,
        "subject_id": claim.subject_id,
        "steering_detected": steering_all.detected,
        "steering_notes": steering_all.notes(),
        "decided_at": now,
    }
    placeholder = GateOutcome(shown=False, notes=["not yet gated"])

    if not usable:
        verdict = ClaimVerdict(
            **base,
            verdict="unresolvable",
            judge_a=None,
            judge_b=None,
            judges_disagree=False,
            basis="nothing",
            gate=placeholder,
            reason="no verified evidence: unresolvable without a judge",
        )
        return _gated(verdict, evidence, None, steering_all)
    if basis_of_evidence(usable) == "ordinary_statements_only":
        verdict = ClaimVerdict(
            **base,
            verdict="unresolvable",
            judge_a=None,
            judge_b=None,
            judges_disagree=False,
            basis="ordinary_statements_only",
            self_reported_only=True,
            gate=placeholder,
            evidence_ids=[item.id for item in usable],
            reason="self-reported only: the only evidence is the subject's ordinary statements",
        )
        return _gated(verdict, evidence, None, steering_all)

    judge_input = build_judge_input(claim=claim, criteria=criteria, evidence=evidence)
    # Blind and independent: the same input to both judges at once; neither
    # call can see the other's answer.
    out_a, out_b = await asyncio.gather(
        gateway.run(STEP_JUDGE_A, judge_input, JudgeOutput),
        gateway.run(STEP_JUDGE_B, judge_input, JudgeOutput),
    )
    ruled_a = apply_method_rules(out_a, judge_input=judge_input, evidence=usable)
    ruled_b = apply_method_rules(out_b, judge_input=judge_input, evidence=usable)
    judge_a = _judge_record(claim, "A", gateway, out_a, ruled_a, method_version, now)
    judge_b = _judge_record(claim, "B", gateway, out_b, ruled_b, method_version, now)
    disputed = criteria.numeric is not None and numeric_disputed(out_a.observed_value, out_b.observed_value)
    cited_a = [item for item in usable if item.id in set(ruled_a.cited)]
    basis: Basis = (
        basis_of_evidence(cited_a) if ruled_a.verdict in SCORED_VERDICTS else basis_of_evidence(usable)
    )
    if ruled_a.self_reported_only:
        basis = (
            "ordinary_statements_only" if basis_of_evidence(cited_a) == "ordinary_statements_only" else basis
        )
    reasons = [*ruled_a.rules_applied]
    if judges_disagree(ruled_a.verdict, ruled_b.verdict):
        reasons.append(f"judges disagree: A {ruled_a.verdict}, B {ruled_b.verdict}")
    if disputed:
        reasons.append(f"numeric extractions differ: A {out_a.observed_value}, B {out_b.observed_value}")
    verdict = ClaimVerdict(
        **base,
        verdict=ruled_a.verdict,
        judge_a=judge_a,
        judge_b=judge_b,
        judges_disagree=judges_disagree(ruled_a.verdict, ruled_b.verdict),
        numeric_disputed=disputed,
        basis=basis,
        self_reported_only=ruled_a.self_reported_only,
        gate=placeholder,
        evidence_ids=ruled_a.cited,
        reason="; ".join(reasons) or out_a.rationale,
    )
    return _gated(verdict, evidence, out_a.confidence, steering_all)


def _gated(
    verdict: ClaimVerdict,
    evidence: Sequence[EvidenceItem],
    confidence: float | None,
    steering: SteeringResult,
) -> ClaimVerdict:
    return verdict.model_copy(update={"gate": decide_display(verdict, evidence, confidence, steering)})


def _judge_record(
    claim: Claim,
    judge_id: Literal["A", "B"],
    gateway: ModelGateway,
    output: JudgeOutput,
    ruled: RuledVerdict,
    method_version: str,
    now: datetime,
) -> JudgeVerdict:
    step = STEP_JUDGE_A if judge_id == "A" else STEP_JUDGE_B
    model = gateway.model_for(step)
    provider_for = getattr(gateway, "provider_for", None)
    provider = getattr(provider_for(step), "name", model) if callable(provider_for) else model
    return JudgeVerdict(
        method_version=method_version,
        claim_id=claim.id,
        judge_id=judge_id,
        provider=str(provider),
        model=model,
        verdict=ruled.verdict,
        confidence=output.confidence,
        basis=output.basis,
        rationale=output.rationale,
        cited_evidence_ids=ruled.cited,
        observed_value=output.observed_value,
        decided_at=now,
        proposed_verdict=output.verdict,
        rules_applied=ruled.rules_applied,
    )
