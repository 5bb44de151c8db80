"""Offline rules for "review_verdict": a STAND-IN for the reviewer model, labelled as such.

[R] "a second, stronger AI model reviewed it and found no major problem". Offline there is
no second model: this deterministic stand-in re-reads judge A's verdict against the same
blind input with the offline reader's sentence rules and reports what a reviewer would
call a major problem:

  * the verdict cites nothing that is in the input;
  * for numeric criteria, the observed value is written in none of the cited quotes;
  * the cited quotes, re-read, point the other way from the verdict (a "true" resting only on
    quotes that contradict the claim, or a "false" resting only on quotes that support it).

Every record it makes says ``offline-rules``. It is never where the reviewer gate lives: the
gate (``gates.gate_reviewer_found_no_major_problem``) holds any verdict with a major problem
whichever reviewer reported it, and a live run asks the model assigned to "review_verdict".
"""

from __future__ import annotations

from reliability_core.stand_in.model import offline_step
from reliability_core.stand_in.rules.judging import votes
from reliability_core.text.numbers import value_written_in
from reliability_core.verdicts.judge_input import unmark_judge_input
from reliability_core.verdicts.review import ReviewInput, ReviewOutput

STAND_IN_LABEL = "offline stand-in reviewer (not a model)"


@offline_step("review_verdict", ReviewInput)
def review_verdict_offline(payload: ReviewInput) -> ReviewOutput:
    """The stand-in reviewer's report on judge A's verdict."""
    judged = unmark_judge_input(payload.judge_input)  # the texts, without the call's delimiters
    proposal = payload.verdict
    by_id = {item.id: item for item in judged.evidence}
    cited = [by_id[cid] for cid in proposal.cited_evidence_ids if cid in by_id]
    major: list[str] = []
    if not cited:
        major.append("the verdict cites no evidence from the input")
    numeric = judged.numeric
    value = proposal.observed_value
    if (
        numeric is not None
        and value is not None
        and cited
        and not any(value_written_in(value, item.quote, unit=numeric.unit) for item in cited)
    ):
        major.append(f"observed value {value:g} is in none of the cited quotes")
    cited_ids = {item.id for item in cited}
    stances = {vote.reading.stance for vote in votes(judged) if vote.item.id in cited_ids}
    if proposal.verdict in ("true", "mostly_true") and stances == {"contradicts"}:
        major.append("the cited quotes contradict the claim, the verdict says it held")
    if proposal.verdict in ("false", "mostly_false") and stances == {"supports"}:
        major.append("the cited quotes support the claim, the verdict says it did not hold")
    return ReviewOutput(
        major_problems=major,
        minor_problems=[],
        rationale=f"{STAND_IN_LABEL}: {len(cited)} cited quote(s) re-read; "
        + (f"{len(major)} major problem(s)" if major else "no major problem"),
    )
