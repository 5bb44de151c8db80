"""Step 5, first half: triage every checkable claim ([M] step 5).

"Each checkable claim is triaged: resolvable now; not yet due (its deadline is
in the future); never resolvable (too vague, counterfactual, or no horizon);
checkable only against the subject's own records (internal figures and
processes). Only resolvable claims are researched."
"""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, ConfigDict, Field

from reliability_core.claims.classification import StatementClassification
from reliability_core.claims.wording import (
    deadline_in_words,
    harm_to_person_wording,
    has_relative_date,
    intention_without_target_wording,
    is_counterfactual_wording,
    own_records_wording,
    vague_wording,
)
from reliability_core.clock import DEFAULT_TIME_ZONE, is_time_zone
from reliability_core.models.base import ClaimType, TriageState
from reliability_core.models.claims import Claim

# States that make a statement "checkable" for the checkable share ([M] "the share
# of extracted statements that are checkable at all"): everything except never
# resolvable. Own-records claims are checkable against the subject's records, not
# yet due ones once due, and party-political ones are checkable though never
# scored. Same definition as ``scoring.checkable_share``.
CHECKABLE_STATES: frozenset[TriageState] = frozenset({"resolvable_now", "not_yet_due", "own_records_only"})
HARM_REASON = "about someone dying or being hurt: handed back without searching ([R] v1.2)"


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


class TriageFlags(BaseModel):
    """What triage reads of one claim, after the code's reading of the quote has been set
    beside the classifier's (``decide_triage_flags``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    vague: bool
    counterfactual: bool
    own_records_only: bool
    names_deliverable_or_target: bool
    deadline: date | None
    harm_to_person: bool
    overruled: list[str] = Field(default_factory=list, description="Each disagreement, and what stood")


def _flag(name: str, proposed: bool, read: bool | None, overruled: list[str]) -> bool:
    """The code's reading when it has one (recording a disagreement), else the classifier's."""
    if read is None or read == proposed:
        return proposed
    overruled.append(f"{name}: classifier said {proposed}, the quote's words say {read}")
    return read


def decide_triage_flags(classification: StatementClassification, quote: str, claim_type: ClaimType) -> TriageFlags:
    """Issue 24 "Rules only the stand-in holds ... Where the classifier and the code disagree,
    the code's reading stands and the disagreement is recorded", over [M] step 5's flags:

    * counterfactual, own records only: the words' cue (``wording.is_counterfactual_wording``,
      ``wording.own_records_wording``) makes it so; without a cue the classifier's flag stands;
    * too vague: an evaluation without a figure is vague, a figure in digits is not
      (``wording.vague_wording``); otherwise the classifier's flag stands;
    * a promise's deliverable or target: intention words without a figure are no target, a
      written figure is one (``wording.intention_without_target_wording``);
    * the deadline of a promise or prediction: the date the quote writes
      (``wording.deadline_in_words``); when the code reads none, the classifier's date stands
      only if its year is written in the quote or the quote dates itself relatively ("next
      year"), else it is refused (an invented date);
    * [R] v1.2 someone dying or being hurt: flagged when the classifier or the words say so
      (``wording.harm_to_person_wording``); the more careful reading wins either way.
    """
    overruled: list[str] = []
    counterfactual = _flag(
        "counterfactual", classification.counterfactual, is_counterfactual_wording(quote) or None, overruled
    )
    own_records = _flag(
        "own records only", classification.own_records_only, own_records_wording(quote) or None, overruled
    )
    vague = _flag("too vague", classification.vague, vague_wording(quote), overruled)
    names_target = classification.names_deliverable_or_target
    if claim_type == "promise":
        no_target = intention_without_target_wording(quote)
        names_target = _flag(
            "names a deliverable or target", names_target, None if no_target is None else not no_target, overruled
        )
    deadline = classification.deadline
    if claim_type in ("promise", "prediction") and not counterfactual:
        written = deadline_in_words(quote)
        if written is not None and written != deadline:
            overruled.append(f"deadline: classifier said {deadline}, the quote writes {written.isoformat()}")
            deadline = written
        elif written is None and deadline is not None and str(deadline.year) not in quote and not has_relative_date(quote):
            overruled.append(f"deadline: classifier said {deadline.isoformat()}, the quote writes no such date: refused")
            deadline = None
    harm_words = harm_to_person_wording(quote)
    harm = classification.harm_to_person or harm_words
    if classification.harm_to_person != harm_words:
        said = "the classifier flagged it" if classification.harm_to_person else "the quote's words say so"
        overruled.append(f"someone dying or being hurt: {said}; handed back without searching")
    return TriageFlags(
        vague=vague,
        counterfactual=counterfactual,
        own_records_only=own_records,
        names_deliverable_or_target=names_target,
        deadline=deadline,
        harm_to_person=harm,
        overruled=overruled,
    )


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
    harm_to_person: bool = False,
) -> tuple[TriageState, str]:
    """[M] step 5 triage, in this order:

    0. [R] v1.2 "a claim about someone dying or getting hurt can't be locked at all ... It
       now hands them straight back, without searching": never resolvable, with its reason;
    1. never resolvable: "too vague", "counterfactual", a promise that is an
       intention without a deliverable/target and date ("intentions without
       either are not checked"), or a promise/prediction with "no horizon";
    2. own records only: "internal figures and processes" (permanent, so it is
       decided before the deadline; such a claim never becomes researchable);
    3. not yet due: the deadline is after ``now`` (a deadline equal to today is due);
    4. otherwise resolvable now.
    """
    if harm_to_person:
        return "never_resolvable", HARM_REASON
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
