"""Literal reading of numeric criteria ([R] "How it reads a claim") and the
blind-extraction agreement check ([V] T2)."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from reliability_core.constants import NUMERIC_ABS_TOLERANCE, NUMERIC_REL_TOLERANCE
from reliability_core.models.claims import NumericCriteria

LiteralOutcome = Literal["true", "false"]


def criteria_hold(criteria: NumericCriteria, observed: float) -> bool:
    """[R] "Literally. The contract decides, not what someone probably meant. 'More than',
    'above', 'exceeds' are strict; 'at least', 'reaches', 'or more' include the number itself.
    A tie on 'more than' is a no. Nothing is rounded." ``eq`` means exactly equal."""
    threshold = criteria.threshold
    if criteria.operator == "gt":
        return observed > threshold
    if criteria.operator == "ge":
        return observed >= threshold
    if criteria.operator == "lt":
        return observed < threshold
    if criteria.operator == "le":
        return observed <= threshold
    return observed == threshold


def literal_outcome(criteria: NumericCriteria, observed: float) -> LiteralOutcome:
    """The verdict code gives a numeric claim from one observed value: "true" or "false"."""
    return "true" if criteria_hold(criteria, observed) else "false"


def extractions_agree(first: float, second: float) -> bool:
    """[V] T2: two blind extractions "Match within |Δ| ≤ 0.05 or ≤ 0.1% relative"; a
    mismatch never averages out. Relative difference is taken against the larger magnitude."""
    # Decimal of the values as written, so 10.05 against 10.0 is a difference of exactly
    # 0.05 and not 0.0500000000000007 in binary floating point.
    a, b = Decimal(repr(first)), Decimal(repr(second))
    delta = abs(a - b)
    if delta <= Decimal(repr(NUMERIC_ABS_TOLERANCE)):
        return True
    scale = max(abs(a), abs(b))
    return scale > 0 and delta / scale <= Decimal(repr(NUMERIC_REL_TOLERANCE))
