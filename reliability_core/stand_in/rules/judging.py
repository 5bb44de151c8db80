"""Offline rules for step 8: ``judge_a``, ``judge_b`` and ``detect_steering``.

Deterministic stand-ins for the two blind judges and the steering check. Both
judges read only the ``JudgeInput`` (claim restatement, frozen criteria,
verified evidence quotes), exactly as a model would, and re-read every quote
themselves with the evidence reader's sentence rules
(``offline_rules.evidence.read_sentence``): figures in the claim's unit
decide when the claim states a figure, range or bound; otherwise outcome
words ("delayed", "cancelled", "missed" against; "commissioned",
"completed", "sold" for).

judge A:
  * quotes that bear on the claim (a figure, or an outcome word) vote, those of
    reliable classes only when there are any (the subject's ordinary
    statements never outvote an official record or a newsroom); the
    verdict is "true" when they all support, "false" when they all
    contradict (that is positive evidence of "did not happen"), "mixed" when
    both sides come from the same publisher, and "unresolvable" with reason
    "sources_conflict" when different publishers disagree; nothing bearing on
    the claim is "unresolvable" ("too_little_evidence");
  * observed value for numeric criteria: from the most authoritative quote
    that reports one (official record, then wire service, then newsroom);
  * confidence 0.9 with two or more publishers on the verdict's side, 0.85
    with one official record, 0.75 otherwise.

judge B reads exactly as judge A but is more cautious, like the second judge
the method describes ("Nearly every difference was the GPT judge saying
'unresolvable' where the Opus judge gave a verdict"): it abstains
("unresolvable", "too_little_evidence") when the quotes on the verdict's side
come from a single publisher, still reporting the figure it read. The two judges therefore give deterministic
but not always identical answers, so the "judges disagree" path runs in the
demo.

``detect_steering`` runs the rule-based detector of ``reliability_core.verdicts.steering``
on the texts it is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reliability_core.models.base import Basis, Verdict
from reliability_core.stand_in.model import offline_step
from reliability_core.stand_in.rules.evidence import Reading, read_sentence
from reliability_core.verdicts.judge_input import JudgeEvidence, JudgeInput, JudgeOutput, unmark_judge_input
from reliability_core.verdicts.steering import (
    DetectSteeringInput,
    DetectSteeringOutput,
    ModelSteeringFinding,
    detect_steering,
)

_AUTHORITY = {"official_record": 0, "wire_service": 1, "established_newsroom": 2}


@dataclass(frozen=True)
class Vote:
    item: JudgeEvidence
    reading: Reading


def votes(payload: JudgeInput) -> list[Vote]:
    """Every quote re-read against the claim; those with a side vote."""
    out: list[Vote] = []
    for item in payload.evidence:
        reading = read_sentence(
            item.quote,
            restatement=payload.claim,
            claim_type=payload.claim_type,
            numeric=payload.numeric,
            judge_at=payload.judge_at,
        )
        if reading.stance != "neutral":
            out.append(Vote(item=item, reading=reading))
    return out


def _publishers(side: Sequence[Vote]) -> set[str]:
    return {"subject" if v.item.subject_own else v.item.publisher.casefold() for v in side}


def _basis(side: Sequence[Vote]) -> Basis:
    if any(not v.item.subject_own and v.item.source_class in _AUTHORITY for v in side):
        return "independent_source"
    if any(v.item.subject_own and v.item.source_class == "official_record" for v in side):
        return "official_records_only"
    if side:
        return "ordinary_statements_only"
    return "nothing"


def _observed(side: Sequence[Vote]) -> float | None:
    valued = [v for v in side if v.reading.observed is not None]
    if not valued:
        return None
    best = min(valued, key=lambda v: _AUTHORITY.get(v.item.source_class, 9))
    return best.reading.observed


def _unresolvable(reason: str, rationale: str, cited: list[str]) -> JudgeOutput:
    return JudgeOutput(
        verdict="unresolvable",
        confidence=0.6,
        basis="nothing",
        rationale=rationale,
        cited_evidence_ids=cited,
        unsettled_reason=reason,  # type: ignore[arg-type]
    )


def decide(payload: JudgeInput, *, cautious: bool) -> JudgeOutput:
    """The offline judge: votes of the quotes, then a verdict with a confidence."""
    cast = votes(payload)
    reliable = [v for v in cast if v.item.source_class in _AUTHORITY]
    cast = reliable or cast  # the subject's ordinary statements vote only when nothing else does
    if not cast:
        return _unresolvable(
            "too_little_evidence", "No quote bears on the claim's outcome.", [i.id for i in payload.evidence]
        )
    supports = [v for v in cast if v.reading.stance == "supports"]
    contradicts = [v for v in cast if v.reading.stance == "contradicts"]
    verdict: Verdict
    if supports and contradicts:
        if _publishers(supports) & _publishers(contradicts) and len(_publishers(cast)) == 1:
            verdict, side = "mixed", cast
        else:
            ids = [v.item.id for v in cast]
            return _unresolvable(
                "sources_conflict", f"Sources disagree: {', '.join(ids)} point different ways.", ids
            )
    elif supports:
        verdict, side = "true", supports
    else:
        verdict, side = "false", contradicts
    publishers = _publishers(side)
    if cautious and len(publishers) < 2:
        # Abstaining on the verdict is not abstaining on the reading: judge B still reports the
        # figure it read blind, so code can check that judge A's figure is reproduced ([V] T2).
        abstained = _unresolvable(
            "too_little_evidence",
            f"Only one publisher ({', '.join(sorted(publishers))}) bears on the claim; judge B abstains.",
            [v.item.id for v in side],
        )
        observed = _observed(side) if payload.numeric is not None else None
        return abstained.model_copy(update={"observed_value": observed})
    official = any(v.item.source_class == "official_record" for v in side)
    confidence = 0.9 if len(publishers) >= 2 else 0.85 if official else 0.75
    cited = [v.item.id for v in side]
    observed = _observed(side)
    rationale = f"{len(side)} quote(s) from {len(publishers)} publisher(s) ({', '.join(cited)}) " + (
        "support the claim."
        if verdict == "true"
        else "contradict the claim."
        if verdict == "false"
        else "point both ways."
    )
    if observed is not None:
        rationale += f" Observed value: {observed:g}."
    return JudgeOutput(
        verdict=verdict,
        confidence=confidence,
        basis=_basis(side),
        rationale=rationale,
        cited_evidence_ids=cited,
        observed_value=observed if payload.numeric is not None else None,
    )


@offline_step("judge_a", JudgeInput)
def judge_a(payload: JudgeInput) -> JudgeOutput:
    """Judge A: gives a verdict whenever the quotes point one way."""
    return decide(unmark_judge_input(payload), cautious=False)


@offline_step("judge_b", JudgeInput)
def judge_b(payload: JudgeInput) -> JudgeOutput:
    """Judge B: as judge A, but abstains when one publisher alone carries the verdict."""
    return decide(unmark_judge_input(payload), cautious=True)


@offline_step("detect_steering", DetectSteeringInput)
def detect_steering_step(payload: DetectSteeringInput) -> DetectSteeringOutput:
    """The fast screen over the given texts, reported as a model would report it."""
    result = detect_steering({t.source: t.text for t in payload.texts})
    findings = [
        ModelSteeringFinding(kind=f.kind, source=f.source, language=f.language, excerpt=f.excerpt)
        for f in result.findings
    ]
    return DetectSteeringOutput(findings=findings, confidence=0.9 if result.detected else 0.7)
