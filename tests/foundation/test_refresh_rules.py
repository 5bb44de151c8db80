from datetime import UTC, date, datetime

import pytest

from reliability_core.lifetimes import report_is_stale, report_served_until
from reliability_core.scores.refresh import recheck_interval_days, recheck_is_due, refresh_run_key


def test_report_is_served_for_90_days_then_stale() -> None:
    generated = datetime(2026, 1, 1, tzinfo=UTC)
    until = report_served_until(generated)
    assert until == datetime(2026, 4, 1, tzinfo=UTC)
    assert not report_is_stale(until, datetime(2026, 3, 31, 23, 59, tzinfo=UTC))
    assert report_is_stale(until, until)


def test_one_refresh_per_staleness_period() -> None:
    until = datetime(2026, 4, 1, 8, tzinfo=UTC)
    assert refresh_run_key("acme", until) == "acme:2026-04-01"


@pytest.mark.parametrize(
    ("deadline", "interval"),
    [
        (date(2026, 12, 5), 1),  # final week: daily
        (date(2026, 12, 7), 1),  # exactly 7 days left
        (date(2026, 12, 8), 7),  # inside two months: weekly
        (date(2027, 1, 29), 7),  # 60 days left
        (date(2027, 1, 30), 30),  # before that: monthly
        (date(2026, 11, 1), 1),  # deadline passed: daily until re-triaged
    ],
)
def test_recheck_cadence_daily_weekly_monthly(deadline: date, interval: int) -> None:
    assert recheck_interval_days(deadline, date(2026, 11, 30)) == interval


def test_recheck_is_due_after_its_interval_or_when_never_checked() -> None:
    today = date(2026, 11, 30)
    far = date(2027, 6, 1)
    assert recheck_is_due(far, None, today)
    assert not recheck_is_due(far, date(2026, 11, 10), today)
    assert recheck_is_due(far, date(2026, 10, 31), today)
