"""Literal reading of numeric criteria and the blind-extraction tolerance."""

from __future__ import annotations

import pytest

from reliability_core.claims.numeric_reading import criteria_hold, extractions_agree, literal_outcome
from reliability_core.models.claims import NumericCriteria


def crit(operator: str, threshold: float) -> NumericCriteria:
    return NumericCriteria(quantity="capacity", unit="GW", operator=operator, threshold=threshold)  # type: ignore[arg-type]


def test_tie_on_more_than_is_a_no() -> None:
    assert literal_outcome(crit("gt", 10), 10) == "false"


def test_tie_on_at_least_is_a_yes() -> None:
    assert literal_outcome(crit("ge", 10), 10) == "true"


def test_nothing_is_rounded_just_below_threshold() -> None:
    assert not criteria_hold(crit("ge", 10), 9.999)
    assert criteria_hold(crit("gt", 10), 10.001)


@pytest.mark.parametrize(
    ("operator", "observed", "expected"),
    [("lt", 5, False), ("lt", 4.99, True), ("le", 5, True), ("eq", 5, True), ("eq", 5.0001, False)],
)
def test_each_operator_is_read_literally(operator: str, observed: float, expected: bool) -> None:
    assert criteria_hold(crit(operator, 5), observed) is expected


def test_extractions_within_absolute_tolerance_agree() -> None:
    assert extractions_agree(10.0, 10.05)
    assert not extractions_agree(10.0, 10.06)


def test_extractions_within_relative_tolerance_agree() -> None:
    # 0.1% of 28000 is 28: a difference of 20 agrees, 40 does not.
    assert extractions_agree(28_000.0, 28_020.0)
    assert not extractions_agree(28_000.0, 28_040.0)
