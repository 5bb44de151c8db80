"""[M] step 5 triage: resolvable now, not yet due, never resolvable, own records only."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from reliability_core.claims.triage import is_checkable, is_due, triage_claim
from reliability_core.clock import FixedClock, today
from tests.claims.claim_builders import make_claim


def _triage(now: date, **overrides: object) -> tuple[str, str]:
    fields: dict[str, object] = {
        "claim_type": "promise",
        "deadline": date(2025, 12, 31),
        "vague": False,
        "counterfactual": False,
        "own_records_only": False,
        "checkable_promise": True,
    }
    fields.update(overrides)
    return triage_claim(now=now, **fields)  # type: ignore[arg-type]


def test_deadline_equal_to_today_is_due_and_the_day_before_is_not_yet_due() -> None:
    clock = FixedClock(datetime(2025, 12, 30, 23, 0, tzinfo=UTC))
    assert _triage(today(clock))[0] == "not_yet_due"
    clock.advance(timedelta(hours=1))  # 2025-12-31 00:00 UTC: the deadline day itself
    assert _triage(today(clock))[0] == "resolvable_now"
    clock.advance(timedelta(days=1))
    assert _triage(today(clock))[0] == "resolvable_now"


def test_is_due_boundary() -> None:
    assert is_due(date(2026, 11, 30), date(2026, 11, 30))
    assert not is_due(date(2026, 12, 1), date(2026, 11, 30))


def test_not_yet_due_reason_names_the_deadline() -> None:
    state, reason = _triage(date(2026, 11, 30), deadline=date(2027, 6, 30))
    assert state == "not_yet_due"
    assert "2027-06-30" in reason


@pytest.mark.parametrize(
    ("overrides", "expected_words"),
    [
        ({"vague": True}, "vague"),
        ({"counterfactual": True}, "counterfactual"),
        ({"deadline": None, "claim_type": "prediction"}, "no horizon"),
        ({"checkable_promise": False}, "intention"),
    ],
)
def test_vague_counterfactual_no_horizon_and_intentions_are_never_resolvable(
    overrides: dict[str, object], expected_words: str
) -> None:
    state, reason = _triage(date(2026, 11, 30), **overrides)
    assert state == "never_resolvable"
    assert expected_words in reason


def test_factual_claim_without_deadline_is_resolvable_now() -> None:
    assert _triage(date(2026, 11, 30), claim_type="factual", deadline=None)[0] == "resolvable_now"


def test_internal_figures_are_own_records_only_even_before_the_deadline() -> None:
    assert _triage(date(2026, 11, 30), own_records_only=True)[0] == "own_records_only"
    assert _triage(date(2020, 1, 1), own_records_only=True)[0] == "own_records_only"


def test_checkable_means_anything_but_never_resolvable() -> None:
    assert is_checkable(make_claim(1, triage="resolvable_now"))
    assert is_checkable(make_claim(2, triage="not_yet_due"))
    assert is_checkable(make_claim(4, triage="own_records_only"))
    assert is_checkable(make_claim(5, party_political=True))  # checkable, just never scored
    assert not is_checkable(make_claim(3, triage="never_resolvable"))
