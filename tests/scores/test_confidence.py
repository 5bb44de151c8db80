"""Confidence is a fixed rule ([M] "Confidence", [#8])."""

from __future__ import annotations

import pytest

from reliability_core.scores.confidence import (
    assess_confidence,
    confidence_from_counts,
    downgrade_for_interval_width,
    record_reason,
)
from reliability_core.scores.scoring import posterior_interval


@pytest.mark.parametrize(
    ("n", "documents", "level"),
    [
        (20, 5, "high"),
        (20, 4, "medium"),
        (19, 9, "medium"),
        (10, 3, "medium"),
        (10, 2, "low"),
        (9, 9, "low"),
        (5, 1, "low"),
        (4, 4, "insufficient"),
    ],
)
def test_confidence_level_follows_claim_and_document_counts(n: int, documents: int, level: str) -> None:
    assert confidence_from_counts(n, documents) == level


def test_mixed_record_of_20_claims_drops_from_high_to_medium() -> None:
    low, high = posterior_interval(2.0, 2.0, 20, 10.0)
    width = high - low
    assert 25 < width < 27  # "about 26 points wide"
    result = assess_confidence(
        n_checked=20,
        n_documents=6,
        interval_width=width,
        years=[2019, 2024],
        documents_sampled=8,
        candidates_found=30,
    )
    assert result.level == "medium"
    assert any("dropped to medium" in r for r in result.reasons)


def test_interval_wider_than_30_points_drops_medium_to_low() -> None:
    assert downgrade_for_interval_width("medium", 31.0) == "low"
    assert downgrade_for_interval_width("medium", 30.0) == "medium"


def test_narrow_interval_keeps_high() -> None:
    assert downgrade_for_interval_width("high", 20.0) == "high"


def test_downgrade_is_one_level_only() -> None:
    assert downgrade_for_interval_width("high", 45.0) == "medium"
    assert downgrade_for_interval_width("low", 90.0) == "low"


def test_reasons_say_claims_documents_years_and_sampling_in_plain_words() -> None:
    assert (
        record_reason(13, 6, [2013, 2020, 2025], 8, 36)
        == "13 resolved claims from 6 documents, 2013 to 2025; 8 documents sampled from 36 candidates found"
    )


def test_insufficient_record_has_no_level_and_says_why() -> None:
    result = assess_confidence(
        n_checked=4, n_documents=2, interval_width=None, years=[], documents_sampled=8, candidates_found=20
    )
    assert result.level == "insufficient"
    assert "insufficient record" in result.reasons[-1]
