"""Step 8: judge blind ([M] step 8, [V] T2, [R] "The Ref is blind").

"Two judges from different model families see the claim, the frozen criteria and only the
verified evidence ... They get the same instructions and the same input, and each decides
separately, without seeing the other's answer. Judge A's verdict is the claim's verdict.
When judge B reaches a different verdict, the claim is flagged "judges disagree" and both
verdicts are shown; no third judge is called. With no verified evidence the claim is
"unresolvable" without a judge."

The step for one claim, in order: the usable evidence once (``usable_evidence``); the
steering screen over every text a judge will read; the blind input (``judge_input``) to
both judges at once; the method's rules over each proposal (``verdict_rules``); the
reviewer on judge A's verdict (``review``); then the display gates (``gates``). The
verdicts no judge is asked for (no usable evidence, only the subject's own statements, a
failed model call) are made here too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any, Literal

from reliability_core.clock import Clock, local_date
from reliability_core.models.base import SCORED_VERDICTS, Basis
from reliability_core.models.claims import Claim, ResolutionCriteria
from reliability_core.models.verdicts import ClaimVerdict, EvidenceItem, GateOutcome, JudgeVerdict
from reliability_core.providers.base import OFFLINE_NAME, ModelGateway
from reliability_core.providers.errors import ItemFailure
from reliability_core.providers.failures import ModelFailure, record_failure
from reliability_core.verdicts.gates import decide_display, held_whatever_the_review
from reliability_core.verdicts.judge_input import JudgeOutput, build_judge_input, mark_judge_input
from reliability_core.verdicts.review import review_verdict
from reliability_core.verdicts.steering import (
    SteeringFinding,
    SteeringResult,
    detect_steering,
    merge_steering,
    run_model_steering_check,
)
from reliability_core.verdicts.usable_evidence import UsableEvidence, basis_of_evidence, usable_view
from reliability_core.verdicts.verdict_rules import (
    RuledVerdict,
    apply_method_rules,
    deadline_day_open,
    judges_disagree,
    numeric_disputed,
    official_figure_awaited,
)

STEP_JUDGE_A = "judge_a"
STEP_JUDGE_B = "judge_b"
STEP_DETECT_STEERING = "detect_steering"


def judge_reports(outputs: Sequence[tuple[str, JudgeOutput]]) -> SteeringResult:
    """[#16] "the judge's output reports any instruction it noticed in the evidence, and a
    report blocks display": each noticed instruction is a ``judge_report`` finding."""
    findings = [
        SteeringFinding(
            kind="instruction_to_model",
            source=step,
            language="und",
            excerpt=" ".join(noticed.split())[:200],
            rule="judge_noticed_instruction",
            layer="judge_report",
        )
        for step, output in outputs
        for noticed in output.instructions_noticed
        if noticed.strip()
    ]
    return SteeringResult(detected=bool(findings), findings=findings, checked_sources=[s for s, _ in outputs])


def model_check_runs(gateway: ModelGateway) -> bool:
    """[#16] "the model steering check on the same texts in live runs": it runs whenever the
    ``detect_steering`` step has a model (offline, the screen it would repeat already ran)."""
    return gateway.model_for(STEP_DETECT_STEERING) != OFFLINE_NAME


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
    """[M] step 8 for one claim, then the reviewer and the display gates. ``steering`` carries
    what the evidence step found in the pages; the claim and the evidence quotes (every text
    that reaches a judge) are screened here as well, and, in live runs, checked by the
    ``detect_steering`` model; the judges' own reports of instructions in the evidence are
    added after they answer. A finding on any layer blocks display. The usable evidence is
    computed once (``usable_view``) and that view is what the judges' input, every rule and
    every gate read."""
    now = clock.now()
    today = local_date(now, claim.time_zone)
    usable = usable_view(evidence)
    judged_texts = {"claim": f"{claim.quote}\n{claim.restatement}", **{item.id: item.quote for item in usable.items}}
    checked = detect_steering(judged_texts)
    check_notes: list[str] = []
    if model_check_runs(gateway):
        try:
            checked = merge_steering(checked, await run_model_steering_check(judged_texts, gateway))
        except ItemFailure as exc:
            # A failed check is recorded, not a detection: the screen's findings stand alone.
            label = record_failure(exc, subject_id=claim.subject_id, item_kind="claim", item_id=claim.id).label()
            check_notes.append(f"{label}: the model steering check did not run; the screen stands alone")
    steering_all = merge_steering(checked, steering) if steering is not None else checked
    base = {
        "method_version": method_version,
        "claim_id": claim.id,
        "subject_id": claim.subject_id,
        "steering_detected": steering_all.detected,
        "steering_notes": [*steering_all.notes(), *check_notes],
        "steering_findings": steering_all.refs(),
        "decided_at": now,
    }
    placeholder = GateOutcome(shown=False, notes=["not yet gated"])

    if not usable:
        awaited = official_figure_awaited(
            numeric=criteria.numeric, judge_at=criteria.judge_at, usable=usable, today=today
        )
        still_open = None if awaited else deadline_day_open(claim.deadline, today)
        verdict = verdict_without_judges(
            **base,
            basis="nothing",
            reason=_not_yet_reason(awaited)
            if awaited
            else _deadline_day_reason(claim, still_open)
            if still_open
            else "no verified evidence: unresolvable without a judge",
            not_yet_due=(awaited or still_open) is not None,
            recheck_by=awaited or still_open,
        )
        return _gated(verdict, usable, None, steering_all)
    if basis_of_evidence(usable.items) == "ordinary_statements_only":
        verdict = verdict_without_judges(
            **base,
            basis="ordinary_statements_only",
            self_reported_only=True,
            evidence_ids=[item.id for item in usable.items],
            reason="self-reported only: the only evidence is the subject's ordinary statements",
        )
        return _gated(verdict, usable, None, steering_all)

    judge_input = build_judge_input(claim=claim, criteria=criteria, evidence=usable)
    # Blind and independent: the same input to both judges at once; neither
    # call can see the other's answer.
    # Each call marks the evidence with its own delimiters; the texts are the same.
    answers = await asyncio.gather(
        gateway.run(STEP_JUDGE_A, mark_judge_input(judge_input), JudgeOutput),
        gateway.run(STEP_JUDGE_B, mark_judge_input(judge_input), JudgeOutput),
        return_exceptions=True,
    )
    outputs: list[JudgeOutput] = []
    for out in answers:
        if isinstance(out, ItemFailure):
            # Two blind judges or no verdict: a judge that failed leaves the claim unresolvable.
            return _failed_claim(claim, out, clock, method_version, base, usable, steering_all)
        if isinstance(out, BaseException):
            raise out
        outputs.append(out)
    out_a, out_b = outputs
    steering_all = merge_steering(steering_all, judge_reports([(STEP_JUDGE_A, out_a), (STEP_JUDGE_B, out_b)]))
    base = {
        **base,
        "steering_detected": steering_all.detected,
        "steering_notes": [*steering_all.notes(), *check_notes],
        "steering_findings": steering_all.refs(),
    }
    ruled_a = apply_method_rules(out_a, judge_input=judge_input, usable=usable)
    ruled_b = apply_method_rules(out_b, judge_input=judge_input, usable=usable)
    judge_a = _judge_record(claim, "A", gateway, out_a, ruled_a, method_version, now)
    judge_b = _judge_record(claim, "B", gateway, out_b, ruled_b, method_version, now)
    disputed = (
        criteria.numeric is not None
        and ruled_a.verdict in SCORED_VERDICTS
        and numeric_disputed(ruled_a.observed_value, ruled_b.observed_value)
    )
    cited_a = usable.by_ids(ruled_a.cited)
    basis: Basis = basis_of_evidence(cited_a) if ruled_a.verdict in SCORED_VERDICTS else basis_of_evidence(usable.items)
    if ruled_a.self_reported_only:
        basis = (
            "ordinary_statements_only" if basis_of_evidence(cited_a) == "ordinary_statements_only" else basis
        )
    awaited = (
        official_figure_awaited(
            numeric=criteria.numeric,
            judge_at=criteria.judge_at,
            usable=usable,
            today=today,
            reason=ruled_a.unsettled_reason,
        )
        if ruled_a.verdict == "unresolvable"
        else None
    )
    if awaited is None and ruled_a.verdict == "unresolvable" and ruled_a.unsettled_reason == "no_positive_evidence":
        still_open = deadline_day_open(claim.deadline, today)
    else:
        still_open = None
    reasons = [*ruled_a.rules_applied]
    if ruled_a.measure_note and ruled_a.verdict in SCORED_VERDICTS:
        reasons.append(ruled_a.measure_note)
    if awaited is not None:
        reasons.append(_not_yet_reason(awaited))
    if still_open is not None:
        reasons.append(_deadline_day_reason(claim, still_open))
        awaited = still_open
    if judges_disagree(ruled_a.verdict, ruled_b.verdict):
        reasons.append(f"judges disagree: A {ruled_a.verdict}, B {ruled_b.verdict}")
    if disputed:
        reasons.append(
            f"numeric reading not reproduced: A {ruled_a.observed_value}, B {ruled_b.observed_value} "
            f"(B proposed {out_b.observed_value})"
        )
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
        review=None,
        not_yet_due=awaited is not None,
        recheck_by=awaited,
    )
    if ruled_a.verdict not in SCORED_VERDICTS:
        return _gated(verdict, usable, out_a.confidence, steering_all)
    held_by = held_whatever_the_review(verdict, usable, out_a.confidence, steering_all)
    if held_by:
        # Held whatever the reviewer says: the review could change nothing that is shown.
        note = f"not reviewed: already held by {', '.join(held_by)}"
        unreviewed = verdict.model_copy(update={"reason": f"{verdict.reason}; {note}"})
        return _gated(unreviewed, usable, out_a.confidence, steering_all)
    try:
        review = await review_verdict(judge_input=judge_input, output=out_a, ruled=ruled_a, gateway=gateway)
    except ItemFailure as exc:
        # No verdict is shown unreviewed: a reviewer that failed leaves the claim unresolvable.
        return _failed_claim(claim, exc, clock, method_version, base, usable, steering_all)
    verdict = verdict.model_copy(update={"review": review})
    return _gated(verdict, usable, out_a.confidence, steering_all)


def _deadline_day_reason(claim: Claim, recheck_on: date) -> str:
    return (
        f"not yet: the deadline day {claim.deadline} is not over in the claim's time zone ({claim.time_zone}) "
        f"and nothing shows the deciding event is over; checked again on {recheck_on.isoformat()}"
    )


def _not_yet_reason(expected_by: date) -> str:
    return (
        f"not yet: the official figure has not been published (expected by {expected_by.isoformat()}); "
        "re-checked on the cadence"
    )


def _failed_claim(
    claim: Claim,
    exc: ItemFailure,
    clock: Clock,
    method_version: str,
    base: dict[str, Any],
    usable: UsableEvidence,
    steering: SteeringResult,
) -> ClaimVerdict:
    """The claim's verdict when a model call of this step failed: unresolvable, with the
    failure as its reason, the steering found and the usable evidence kept, then gated."""
    failure = record_failure(exc, subject_id=claim.subject_id, item_kind="claim", item_id=claim.id)
    failed = model_failure_verdict(claim, failure, clock, method_version).model_copy(
        update={
            "steering_detected": base["steering_detected"],
            "steering_notes": base["steering_notes"],
            "steering_findings": base["steering_findings"],
            "evidence_ids": [item.id for item in usable.items],
        }
    )
    return _gated(failed, usable, None, steering)


def model_failure_verdict(
    claim: Claim, failure: ModelFailure, clock: Clock, method_version: str
) -> ClaimVerdict:
    """Issue 14 §2: a model failure for one claim (a judge, the criteria writer or the
    research planner refused, wrote invalid or cut-off output, or the provider failed)
    makes that claim "unresolvable" with the failure as its reason; the subject goes on.
    Not gated here: the caller applies the display gates as for any verdict."""
    label = failure.label()
    detail = f" ({failure.detail})" if failure.detail else ""
    return verdict_without_judges(
        method_version=method_version,
        claim_id=claim.id,
        subject_id=claim.subject_id,
        basis="nothing",
        reason=f"{label}{detail}",
        decided_at=clock.now(),
        model_failure=label,
    )


def verdict_without_judges(*, basis: Basis, reason: str, **fields: Any) -> ClaimVerdict:
    """An "unresolvable" verdict no judge was asked for (no usable evidence, only the
    subject's own statements, or a failed model call), not yet gated: ``fields`` are the
    claim's identifiers, time and whatever else the case records."""
    return ClaimVerdict(
        verdict="unresolvable",
        judge_a=None,
        judge_b=None,
        judges_disagree=False,
        basis=basis,
        gate=GateOutcome(shown=False, notes=["not yet gated"]),
        reason=reason,
        **fields,
    )


def _gated(
    verdict: ClaimVerdict,
    usable: UsableEvidence,
    confidence: float | None,
    steering: SteeringResult,
) -> ClaimVerdict:
    return verdict.model_copy(update={"gate": decide_display(verdict, usable, confidence, steering)})


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
