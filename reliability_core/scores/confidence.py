"""Confidence: a fixed rule, not a model's judgement ([M] "Confidence", [#8]).

    high    at least 20 checked claims from at least 5 documents
    medium  at least 10 checked claims from at least 3 documents
    low     otherwise, with at least 5 checked claims
    (below 5 there is no score: "insufficient")

then one level down when the 80% interval is wider than 20 points at high or
30 points at medium. Reasons are written in plain words so a reader sees
whether a score is thin because the subject says little or because little
was found.
"""

from __future__ import annotations

from collections.abc import Sequence

from reliability_core.constants import (
    CONFIDENCE_HIGH_MAX_INTERVAL_WIDTH,
    CONFIDENCE_HIGH_MIN_CLAIMS,
    CONFIDENCE_HIGH_MIN_DOCUMENTS,
    CONFIDENCE_MEDIUM_MAX_INTERVAL_WIDTH,
    CONFIDENCE_MEDIUM_MIN_CLAIMS,
    CONFIDENCE_MEDIUM_MIN_DOCUMENTS,
    MIN_CLAIMS_FOR_SCORE,
)
from reliability_core.models.base import Record
from reliability_core.models.reports import ConfidenceLevel


class Confidence(Record):
    level: ConfidenceLevel
    reasons: list[str]


def confidence_from_counts(n_checked: int, n_documents: int) -> ConfidenceLevel:
    """[#8] "high with at least 20 checked claims from at least 5 documents; medium with at
    least 10 from at least 3; low otherwise (with at least 5)"."""
    if n_checked < MIN_CLAIMS_FOR_SCORE:
        return "insufficient"
    if n_checked >= CONFIDENCE_HIGH_MIN_CLAIMS and n_documents >= CONFIDENCE_HIGH_MIN_DOCUMENTS:
        return "high"
    if n_checked >= CONFIDENCE_MEDIUM_MIN_CLAIMS and n_documents >= CONFIDENCE_MEDIUM_MIN_DOCUMENTS:
        return "medium"
    return "low"


def max_interval_width(level: ConfidenceLevel) -> float | None:
    """The widest 80% interval (points) a level allows; ``None`` when no limit applies."""
    if level == "high":
        return CONFIDENCE_HIGH_MAX_INTERVAL_WIDTH
    if level == "medium":
        return CONFIDENCE_MEDIUM_MAX_INTERVAL_WIDTH
    return None


def downgrade_for_interval_width(level: ConfidenceLevel, width: float) -> ConfidenceLevel:
    """[M] "A score drops to the next level down when its interval is too wide for its
    count"; [#8] "wider than 20 points at high, or 30 points at medium (so a mixed record
    of 20 claims, whose interval is about 26 points wide, is medium)". One level at most."""
    limit = max_interval_width(level)
    if limit is None or width <= limit:
        return level
    return "medium" if level == "high" else "low"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def record_reason(
    n_checked: int,
    n_documents: int,
    years: Sequence[int],
    documents_sampled: int,
    candidates_found: int,
) -> str:
    """The plain-word basis of a score, e.g. "13 resolved claims from 6 documents,
    2013 to 2025; 8 documents sampled from 36 candidates found" ([M] "Confidence")."""
    text = f"{_plural(n_checked, 'resolved claim')} from {_plural(n_documents, 'document')}"
    if years:
        first, last = min(years), max(years)
        text += f", {first}" if first == last else f", {first} to {last}"
    sampled = _plural(documents_sampled, "document")
    return f"{text}; {sampled} sampled from {_plural(candidates_found, 'candidate')} found"


def assess_confidence(
    *,
    n_checked: int,
    n_documents: int,
    interval_width: float | None,
    years: Sequence[int],
    documents_sampled: int,
    candidates_found: int,
) -> Confidence:
    """The confidence level of one score with its reasons in plain words."""
    reasons = [record_reason(n_checked, n_documents, years, documents_sampled, candidates_found)]
    base = confidence_from_counts(n_checked, n_documents)
    if base == "insufficient":
        reasons.append(
            f"fewer than {MIN_CLAIMS_FOR_SCORE} checked claims: insufficient record, no number given"
        )
        return Confidence(level=base, reasons=reasons)
    if base == "high":
        reasons.append(
            f"at least {CONFIDENCE_HIGH_MIN_CLAIMS} checked claims from at least "
            f"{CONFIDENCE_HIGH_MIN_DOCUMENTS} documents"
        )
    elif base == "medium":
        reasons.append(
            f"at least {CONFIDENCE_MEDIUM_MIN_CLAIMS} checked claims from at least "
            f"{CONFIDENCE_MEDIUM_MIN_DOCUMENTS} documents, short of {CONFIDENCE_HIGH_MIN_CLAIMS} "
            f"from {CONFIDENCE_HIGH_MIN_DOCUMENTS}"
        )
    else:
        reasons.append(
            f"short of {CONFIDENCE_MEDIUM_MIN_CLAIMS} checked claims from "
            f"{CONFIDENCE_MEDIUM_MIN_DOCUMENTS} documents"
        )
    level: ConfidenceLevel = base
    if interval_width is not None:
        level = downgrade_for_interval_width(base, interval_width)
        if level != base:
            reasons.append(
                f"80% interval {interval_width:.0f} points wide, wider than the "
                f"{max_interval_width(base):.0f} allowed at {base}: dropped to {level}"
            )
    return Confidence(level=level, reasons=reasons)
