"""When a subject's report is refreshed and when a not-yet-due claim is
re-checked. Pure rules over dates; the sensors in ``reliability_dagster``
only turn their answers into run requests."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from reliability_core.claims.triage import is_due
from reliability_core.clock import local_date
from reliability_core.constants import (
    RECHECK_DAILY_WITHIN_DAYS,
    RECHECK_WEEKLY_WITHIN_DAYS,
)
from reliability_core.models import Claim, ClaimVerdict


def refresh_run_key(subject_id: str, served_until: datetime) -> str:
    """``subject:cutoff-date``: one refresh per staleness period, however many
    sensor ticks see the stale report."""
    return f"{subject_id}:{served_until.date().isoformat()}"


def recheck_interval_days(deadline: date, today: date) -> int:
    """[R] "The Ref checks again later at no extra charge: daily in the last
    week, weekly within two months, monthly before that." After the deadline
    has passed the claim is due every day until it has been re-triaged."""
    days_left = (deadline - today).days
    if days_left <= RECHECK_DAILY_WITHIN_DAYS:
        return 1
    if days_left <= RECHECK_WEEKLY_WITHIN_DAYS:
        return 7
    return 30


def recheck_is_due(deadline: date, last_checked: date | None, today: date) -> bool:
    """A not-yet-due claim is re-checked when its cadence interval has passed
    since the last check (or it has never been checked)."""
    if last_checked is None:
        return True
    return (today - last_checked).days >= recheck_interval_days(deadline, today)


def awaited_official_figures(verdicts: Sequence[ClaimVerdict]) -> list[date]:
    """[#15] rule 12: the dates by which the official figures of "not yet" verdicts are
    expected; each is re-checked on the same cadence as a deadline (``recheck_is_due``)."""
    return [v.recheck_by for v in verdicts if v.not_yet_due and v.recheck_by is not None]


def recheck_run_key(subject_id: str, today: date) -> str:
    """At most one due-date re-check run per subject per day."""
    return f"{subject_id}:recheck:{today.isoformat()}"


def retriage_as_due(claim: Claim, now: date | datetime) -> Claim:
    """[M] step 5 "not yet due (its deadline is in the future)": when a
    re-check finds the deadline reached, the claim becomes resolvable now; every
    other triage state is permanent and is returned unchanged. A moment is read
    as a date in the claim's time zone ([#15] rule 11)."""
    today = local_date(now, claim.time_zone) if isinstance(now, datetime) else now
    if claim.triage != "not_yet_due" or claim.deadline is None or not is_due(claim.deadline, today):
        return claim
    return claim.model_copy(
        update={
            "triage": "resolvable_now",
            "triage_reason": f"deadline {claim.deadline.isoformat()} has been reached by {today.isoformat()}",
        }
    )
