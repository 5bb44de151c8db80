"""Step 5, first half: triage every checkable claim ([M] step 5).

"Each checkable claim is triaged: resolvable now; not yet due (its deadline is
in the future); never resolvable (too vague, counterfactual, or no horizon);
checkable only against the subject's own records (internal figures and
processes). Only resolvable claims are researched."
"""

from __future__ import annotations

from datetime import date

from reliability_core.clock import DEFAULT_TIME_ZONE, is_time_zone
from reliability_core.models.base import ClaimType, TriageState
from reliability_core.models.claims import Claim

# States that make a statement "checkable" for the checkable share ([M] "the share
# of extracted statements that are checkable at all"): everything except never
# resolvable. Own-records claims are checkable against the subject's records, not
# yet due ones once due, and party-political ones are checkable though never
# scored. Same definition as ``scoring.checkable_share``.
CHECKABLE_STATES: frozenset[TriageState] = frozenset({"resolvable_now", "not_yet_due", "own_records_only"})






def decide_time_zone(from_context: str | None, from_registry: str | None) -> tuple[str, str]:
    """[#15] rule 11 "each claim has a time zone (from the subject's registry entry or the
    claim's context, recorded)": a valid zone the claim's context names (the classifier's
    proposal, checked with ``zoneinfo``) wins, then the registry entry's, then UTC. Returns the
    zone and where it came from."""
    if is_time_zone(from_context):
        return (from_context or "").strip(), "claim context"
    if is_time_zone(from_registry):
        return (from_registry or "").strip(), "registry"
    return DEFAULT_TIME_ZONE, "default"




def is_due(deadline: date, now: date) -> bool:
    """[M] "not yet due (its deadline is in the future)": a deadline equal to
    today is NOT in the future, so it is due. Dates are calendar dates in the
    claim's time zone ([R] "Dates are in the claim's time zone"); ``now`` is the
    run's date in that zone (``local_date`` of the injected clock's time)."""
    return deadline <= now


def triage_claim(
    *,
    claim_type: ClaimType,
    deadline: date | None,
    vague: bool,
    counterfactual: bool,
    own_records_only: bool,
    checkable_promise: bool,
    now: date,
) -> tuple[TriageState, str]:
    """[M] step 5 triage, in this order:

    1. never resolvable: "too vague", "counterfactual", a promise that is an
       intention without a deliverable/target and date ("intentions without
       either are not checked"), or a promise/prediction with "no horizon";
    2. own records only: "internal figures and processes" (permanent, so it is
       decided before the deadline; such a claim never becomes researchable);
    3. not yet due: the deadline is after ``now`` (a deadline equal to today is due);
    4. otherwise resolvable now.
    """
    if vague:
        return "never_resolvable", "too vague to check"
    if counterfactual:
        return "never_resolvable", "counterfactual: about what would have happened"
    if claim_type == "promise" and not checkable_promise:
        return "never_resolvable", "an intention without a deliverable or measurable target with a date"
    if claim_type in ("promise", "prediction") and deadline is None:
        return "never_resolvable", "no horizon: the claim names no date by which it should come true"
    if own_records_only:
        return (
            "own_records_only",
            "checkable only against the subject's own records (internal figures or processes)",
        )
    if deadline is not None and not is_due(deadline, now):
        return "not_yet_due", f"deadline {deadline.isoformat()} is after {now.isoformat()}"
    if deadline is not None:
        return "resolvable_now", f"deadline {deadline.isoformat()} has been reached by {now.isoformat()}"
    return "resolvable_now", "a statement about the past or present that the record can settle"


def is_checkable(claim: Claim) -> bool:
    """[M] "checkable at all": a claim is checkable unless it was triaged never
    resolvable (too vague, counterfactual, no horizon, an intention)."""
    return claim.triage in CHECKABLE_STATES
