"""How long what the pipeline stores stays in use: the candidate list ([M] step 2,
"stored and reused for 90 days") and the report ([M] step 9, "served for 90 days.
After that it is served marked stale while a refresh runs").

One small module below every phase, because the provider cache applies the candidate
list's lifetime to cached listings and the API applies the report's.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from reliability_core.constants import CANDIDATE_REUSE_DAYS, REPORT_SERVED_DAYS

# The purpose label of the search calls that list candidates: the provider cache keeps
# their answers only as long as a candidate list is reused.
CANDIDATES_PURPOSE = "candidates"


def candidate_list_is_reusable(listed_at: datetime, now: datetime) -> bool:
    """ "The list is stored and reused for 90 days, so repeat reports draw on the
    same pool."

    Reusable while less than ``CANDIDATE_REUSE_DAYS`` days have passed since it
    was listed (at exactly 90 days it is due for a new search). A listing from
    the future (clock skew) is not reused.
    """
    age = now - listed_at
    return timedelta(0) <= age < timedelta(days=CANDIDATE_REUSE_DAYS)



def report_served_until(generated_at: datetime) -> datetime:
    """[M] step 9: "store the report, which is served for 90 days"."""
    return generated_at + timedelta(days=REPORT_SERVED_DAYS)


def report_is_stale(served_until: datetime, now: datetime) -> bool:
    """[M] step 9: "After that it is served marked stale while a refresh runs."
    Stale from the instant ``served_until`` is reached."""
    return now >= served_until

