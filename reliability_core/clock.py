"""An injectable clock: every rule that depends on time (90-day reuse,
staleness, deadlines, triage) takes a ``Clock`` so tests can fix "now"."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


class Clock(Protocol):
    """Something that says what time it is, always timezone-aware UTC."""

    def now(self) -> datetime: ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """A clock that stands still until moved; for tests and reproducible runs."""

    def __init__(self, at: datetime) -> None:
        if at.tzinfo is None:
            raise ValueError("FixedClock needs a timezone-aware datetime")
        self._at = at

    def now(self) -> datetime:
        return self._at

    def advance(self, delta: timedelta) -> None:
        self._at = self._at + delta


def today(clock: Clock) -> date:
    """The UTC calendar date of ``clock.now()``."""
    return clock.now().astimezone(UTC).date()


def parse_clock_override(value: str | None) -> Clock:
    """``RELIABILITY_NOW=2026-11-30T00:00:00Z`` fixes the clock for a whole run
    (used by the demo so its reports are reproducible); empty means the system clock."""
    if not value:
        return SystemClock()
    at = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return FixedClock(at)


# --- Time zones: [R] "Dates are in the claim's time zone" ----------------------------

# A claim whose context and registry entry name no valid zone is read in UTC.
DEFAULT_TIME_ZONE = "UTC"


@lru_cache(maxsize=256)
def zone_of(name: str) -> ZoneInfo | None:
    """The IANA time zone called ``name``, or None when there is no such zone."""
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        return None


def is_time_zone(name: str | None) -> bool:
    """Is ``name`` an IANA time zone ``zoneinfo`` knows ("Europe/Copenhagen", "UTC")?"""
    return bool(name and name.strip()) and zone_of(name or "") is not None


def local_date(moment: datetime, time_zone: str) -> date:
    """[R] "Dates are in the claim's time zone. Something that happens at 11:30 pm on the
    deadline day counts." The calendar date of ``moment`` in ``time_zone``; a naive moment is
    taken as already local. An unknown zone reads as UTC."""
    if moment.tzinfo is None:
        return moment.date()
    zone = zone_of(time_zone) or UTC
    return moment.astimezone(zone).date()

