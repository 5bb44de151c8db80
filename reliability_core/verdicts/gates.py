"""Display gates: code, not a model, decides whether a verdict is shown
([R] "The AI proposes; rules in our code decide whether you see it").

Each gate is one named function returning a ``GateCheck``; ``decide_display``
runs them all and holds the verdict for the steward when any fails. A held
verdict is stored with the names of the gates it failed and is not scored.
Every gate reads the same ``UsableEvidence`` view, computed once per claim
(``usable_evidence.usable_view``); no gate filters the evidence again.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from reliability_core.constants import (
    GATE_MIN_INDEPENDENT_PUBLISHERS,
    GATE_MIN_JUDGE_A_CONFIDENCE,
    GATE_MIN_PRIMARY_OR_MAJOR,
)
from reliability_core.models.base import SCORED_VERDICTS, Verdict
from reliability_core.models.verdicts import ClaimVerdict, EvidenceItem, GateOutcome, VerdictReview
from reliability_core.verdicts.sources import is_reliable_class
from reliability_core.verdicts.steering import SteeringResult
from reliability_core.verdicts.usable_evidence import UsableEvidence, basis_of_evidence

GATE_PUBLISHERS = "independent_publishers"
GATE_CONFIDENCE = "judge_a_confidence"
GATE_NO_CONTRADICTION = "no_reliable_contradiction"
GATE_NO_STEERING = "no_steering"
GATE_BASIS_DISCLOSED = "basis_disclosed"
GATE_NUMERIC_AGREEMENT = "numeric_extractions_agree"
GATE_REVIEWER = "reviewer_found_no_major_problem"

SUBJECT_PUBLISHER = "the subject itself"


class GateCheck(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    passed: bool
    note: str


def backing_stances(verdict: Verdict) -> frozenset[str]:
    """Which evidence stance backs a verdict: support backs true, contradiction backs false,
    either backs mixed; nothing backs "unresolvable"."""
    if verdict in ("true", "mostly_true"):
        return frozenset({"supports"})
    if verdict in ("false", "mostly_false"):
        return frozenset({"contradicts"})
    if verdict == "mixed":
        return frozenset({"supports", "contradicts"})
    return frozenset()


def backing_evidence(verdict: Verdict, usable: UsableEvidence) -> list[EvidenceItem]:
    """Verified, admitted evidence from a reliable class whose stance backs the verdict."""
    stances = backing_stances(verdict)
    return [item for item in usable.items if is_reliable_class(item.source_class) and item.stance in stances]


def publisher_key(item: EvidenceItem) -> str:
    """Publishers are counted once each; all of the subject's own records are one publisher."""
    return SUBJECT_PUBLISHER if item.subject_own else item.publisher.casefold()


def independent_publishers(backing: Sequence[EvidenceItem]) -> tuple[set[str], set[str]]:
    """[#15] rule 8, "Independence: the subject's own records never count toward the two
    independent publishers". The publishers among ``backing`` that are independent of the
    subject, and those of them that are primary or major. The subject's own filing is neither
    one of the two nor the "primary or major" one, however authoritative its class."""
    independent = [item for item in backing if not item.subject_own]
    return (
        {publisher_key(item) for item in independent},
        {publisher_key(item) for item in independent if item.primary_or_major},
    )


def gate_independent_publishers(verdict: Verdict, usable: UsableEvidence) -> GateCheck:
    """[R] "at least 2 independent publishers back it, including at least one primary or
    major source". Copies of one story are already excluded ("counts once"), and the
    subject's own records never count toward the two (``independent_publishers``).

    A verdict backed only by the subject's official records is the exception: [M] step 8
    makes those records evidence for the subject's own figures, events and appointments
    ("audited or published accounts, regulatory or exchange filings"), and such verdicts are
    shown with their basis beside them ("For GiveWell, 19 of 25 resolved claims did").
    There is by construction one publisher, so this gate does not apply; the basis gate
    (``gate_basis_disclosed``) governs them instead."""
    backing = backing_evidence(verdict, usable)
    if backing and basis_of_evidence(backing) == "official_records_only":
        return GateCheck(
            name=GATE_PUBLISHERS,
            passed=True,
            note="rests on the subject's official records only: shown with that basis, not two publishers",
        )
    publishers, primary = independent_publishers(backing)
    passed = len(publishers) >= GATE_MIN_INDEPENDENT_PUBLISHERS and len(primary) >= GATE_MIN_PRIMARY_OR_MAJOR
    note = (
        f"{len(publishers)} independent publisher(s) back it ({', '.join(sorted(publishers)) or 'none'}), "
        f"{len(primary)} primary or major; need {GATE_MIN_INDEPENDENT_PUBLISHERS} and {GATE_MIN_PRIMARY_OR_MAJOR}"
    )
    return GateCheck(name=GATE_PUBLISHERS, passed=passed, note=note)


def gate_judge_a_confidence(judge_a_confidence: float | None) -> GateCheck:
    """[R] "the Ref is at least 80% sure": judge A's confidence is at least
    ``GATE_MIN_JUDGE_A_CONFIDENCE``."""
    passed = judge_a_confidence is not None and judge_a_confidence >= GATE_MIN_JUDGE_A_CONFIDENCE
    shown = "none" if judge_a_confidence is None else f"{judge_a_confidence:.2f}"
    return GateCheck(
        name=GATE_CONFIDENCE,
        passed=passed,
        note=f"judge A confidence {shown}, need {GATE_MIN_JUDGE_A_CONFIDENCE:.2f}",
    )


def gate_no_reliable_contradiction(verdict: Verdict, usable: UsableEvidence) -> GateCheck:
    """[R] "reliable sources don't contradict it": no admitted evidence from an official
    record, wire service or established newsroom takes the opposite side. (A "mixed"
    verdict is backed by both sides, so nothing contradicts it.)"""
    if verdict in ("true", "mostly_true"):
        opposite = "contradicts"
    elif verdict in ("false", "mostly_false"):
        opposite = "supports"
    else:
        return GateCheck(name=GATE_NO_CONTRADICTION, passed=True, note=f"{verdict}: no opposite side")
    against = [item.id for item in usable.items if is_reliable_class(item.source_class) and item.stance == opposite]
    note = f"reliable evidence against: {', '.join(against)}" if against else "no reliable evidence against"
    return GateCheck(name=GATE_NO_CONTRADICTION, passed=not against, note=note)


def gate_no_steering(steering: SteeringResult) -> GateCheck:
    """[R] "nothing in the claim, an appeal or the sources tried to steer the Ref";
    [#7] "A detected attempt blocks the verdict from display and is recorded"."""
    note = "; ".join(steering.notes()) if steering.detected else "no steering detected"
    return GateCheck(name=GATE_NO_STEERING, passed=not steering.detected, note=note)


def gate_basis_disclosed(verdict: ClaimVerdict, usable: UsableEvidence) -> GateCheck:
    """[#7] "for a true/false verdict resting on official records only, the basis says so"
    ([M] step 8: "Such a verdict says the claim matches the subject's own official record ...
    the report says so beside each one")."""
    backing = backing_evidence(verdict.verdict, usable)
    rests_on = basis_of_evidence(backing) if backing else basis_of_evidence(usable.items)
    if rests_on != "official_records_only":
        return GateCheck(name=GATE_BASIS_DISCLOSED, passed=True, note=f"rests on {rests_on}")
    passed = verdict.basis == "official_records_only"
    return GateCheck(
        name=GATE_BASIS_DISCLOSED,
        passed=passed,
        note=f"rests on the subject's official records only; basis recorded as {verdict.basis}",
    )


def gate_numeric_extractions_agree(verdict: ClaimVerdict) -> GateCheck:
    """[V] T2 "Disagree → disputed. A mismatch never averages out. The claim is marked disputed
    and goes to the steward": a numeric claim whose blind extractions differ is held."""
    return GateCheck(
        name=GATE_NUMERIC_AGREEMENT,
        passed=not verdict.numeric_disputed,
        note="judges' extracted values differ beyond tolerance"
        if verdict.numeric_disputed
        else "agree or not numeric",
    )


def gate_reviewer_found_no_major_problem(review: VerdictReview | None) -> GateCheck:
    """[R] "a second, stronger AI model reviewed it and found no major problem"; [#15] rule 7
    "a verdict with a major problem is held". A verdict nobody reviewed has not passed."""
    if review is None:
        return GateCheck(name=GATE_REVIEWER, passed=False, note="not reviewed")
    if review.major_problems:
        return GateCheck(
            name=GATE_REVIEWER,
            passed=False,
            note=f"{review.reviewer} found major problem(s): {'; '.join(review.major_problems)}",
        )
    return GateCheck(name=GATE_REVIEWER, passed=True, note=f"{review.reviewer} found no major problem")


def decide_display(
    verdict: ClaimVerdict,
    usable: UsableEvidence,
    judge_a_confidence: float | None,
    steering: SteeringResult,
) -> GateOutcome:
    """[R] "A yes or a no is shown only when all of these hold"; otherwise the verdict is held
    for the steward and not scored. An "unresolvable" verdict is not scored, so only the
    steering gate applies to it (a steered page still blocks display and is recorded)."""
    checks = [gate_no_steering(steering)]
    if verdict.verdict in SCORED_VERDICTS:
        checks += [
            gate_independent_publishers(verdict.verdict, usable),
            gate_judge_a_confidence(judge_a_confidence),
            gate_reviewer_found_no_major_problem(verdict.review),
            gate_no_reliable_contradiction(verdict.verdict, usable),
            gate_basis_disclosed(verdict, usable),
            gate_numeric_extractions_agree(verdict),
        ]
    failed = [check.name for check in checks if not check.passed]
    notes = [f"{check.name}: {'pass' if check.passed else 'FAIL'}: {check.note}" for check in checks]
    if verdict.verdict not in SCORED_VERDICTS:
        notes.append("unresolvable is counted, not scored: the verdict gates do not apply")
    return GateOutcome(shown=not failed, failed=failed, notes=notes)


def held_whatever_the_review(
    verdict: ClaimVerdict,
    usable: UsableEvidence,
    judge_a_confidence: float | None,
    steering: SteeringResult,
) -> list[str]:
    """The gates other than the reviewer's that already hold ``verdict`` (judged as if it had
    not been reviewed). When any does, no review can change what is shown ([R] "A yes or a no
    is shown only when all of these hold"), so the reviewer, the dearest call per claim, is not
    asked: the verdict stays held for the steward, and the reviewer gate says "not reviewed"."""
    outcome = decide_display(verdict.model_copy(update={"review": None}), usable, judge_a_confidence, steering)
    return [name for name in outcome.failed if name != GATE_REVIEWER]
