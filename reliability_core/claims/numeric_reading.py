"""Literal reading of numeric criteria ([R] "How it reads a claim"), the five numeric
levels ([#15] rule 2) and the blind-extraction agreement check ([V] T2)."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from reliability_core.constants import NUMERIC_ABS_TOLERANCE, NUMERIC_BAND_MARGINS, NUMERIC_REL_TOLERANCE
from reliability_core.models.base import Verdict
from reliability_core.models.claims import BandVerdict, CriteriaOperator, NumericBand, NumericCriteria

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


# --- the five levels of a numeric claim ([#15] rule 2) ------------------------------------

_LEVELS_OUTWARD: tuple[BandVerdict, ...] = ("mostly_true", "mixed", "mostly_false", "false")


def _d(value: float) -> Decimal:
    # The value as written, so 0.95 x 28 is 26.6 and not 26.599999999999998.
    return Decimal(repr(float(value)))


def _miss_bands(t: Decimal, edges: list[Decimal], *, below: bool, near_inclusive: bool) -> list[NumericBand]:
    """The four levels short of "true" on one side of the threshold ``t``, nearest first: each
    band runs from the previous edge (``t`` itself first, inclusive as asked) to the next, the
    farther edge inside; "false" is everything beyond the last edge."""
    bands: list[NumericBand] = []
    near, inclusive = t, near_inclusive
    for level, edge in zip(_LEVELS_OUTWARD, edges, strict=False):
        if below:
            bands.append(NumericBand(verdict=level, low=float(edge), low_inclusive=True, high=float(near),
                                     high_inclusive=inclusive))  # fmt: skip
        else:
            bands.append(NumericBand(verdict=level, low=float(near), low_inclusive=inclusive, high=float(edge),
                                     high_inclusive=True))  # fmt: skip
        near, inclusive = edge, False
    beyond = {"high": float(near), "high_inclusive": False} if below else {"low": float(near), "low_inclusive": False}
    bands.append(NumericBand.model_validate({"verdict": "false", **beyond}))
    return bands


def default_numeric_bands(operator: CriteriaOperator, threshold: float) -> list[NumericBand]:
    """The five levels for a numeric claim when the criteria writer gave none that code can use:
    "true" is the literal reading of the operator; below (or, for "at most"/"less than",
    above) it the figure earns "mostly true", "mixed", "mostly false" and "false" as it misses
    the threshold by no more than 5%, 15%, 35% and beyond (``NUMERIC_BAND_MARGINS``). For
    "exactly" the misses on both sides count alike."""
    t = _d(threshold)
    under = [t - abs(t) * _d(m) for m in NUMERIC_BAND_MARGINS]
    over = [t + abs(t) * _d(m) for m in NUMERIC_BAND_MARGINS]
    if operator == "gt":
        true = NumericBand(verdict="true", low=threshold, low_inclusive=False, high=None)
        return [true, *_miss_bands(t, under, below=True, near_inclusive=True)]
    if operator == "ge":
        true = NumericBand(verdict="true", low=threshold, low_inclusive=True, high=None)
        return [true, *_miss_bands(t, under, below=True, near_inclusive=False)]
    if operator == "lt":
        true = NumericBand(verdict="true", low=None, high=threshold, high_inclusive=False)
        return [true, *_miss_bands(t, over, below=False, near_inclusive=True)]
    if operator == "le":
        true = NumericBand(verdict="true", low=None, high=threshold, high_inclusive=True)
        return [true, *_miss_bands(t, over, below=False, near_inclusive=False)]
    true = NumericBand(verdict="true", low=threshold, low_inclusive=True, high=threshold, high_inclusive=True)
    return [
        true,
        *_miss_bands(t, under, below=True, near_inclusive=False),
        *_miss_bands(t, over, below=False, near_inclusive=False),
    ]


def in_band(band: NumericBand, observed: float) -> bool:
    """Is ``observed`` inside the band, read literally (a bound is inside only when inclusive;
    nothing is rounded)?"""
    value = _d(observed)
    if band.low is not None:
        low = _d(band.low)
        if value < low or (value == low and not band.low_inclusive):
            return False
    if band.high is not None:
        high = _d(band.high)
        if value > high or (value == high and not band.high_inclusive):
            return False
    return True


def bands_are_usable(numeric: NumericCriteria, bands: list[NumericBand]) -> bool:
    """Proposed bands are kept only when code can apply them literally: no value falls in two
    bands, and "true" is exactly the operator's literal reading at and around the threshold
    (so a writer cannot make "more than 28" true at 28.0)."""
    if not bands:
        return False
    t = numeric.threshold
    step = max(abs(t), 1.0) * 1e-6
    probes = [t, t - step, t + step] + [b for band in bands for b in (band.low, band.high) if b is not None]
    for probe in probes:
        holding = [band for band in bands if in_band(band, probe)]
        if len(holding) > 1:
            return False
    for probe in (t, t - step, t + step):
        levels = [band.verdict for band in bands if in_band(band, probe)]
        if (levels == ["true"]) != criteria_hold(numeric, probe):
            return False
    return True


def freeze_numeric_bands(numeric: NumericCriteria) -> NumericCriteria:
    """[#15] rule 2: the bands are "set when the criteria are written, before research". The
    writer's bands are kept when usable (``bands_are_usable``), otherwise the default bands of
    the operator and threshold are written into the criteria before they are frozen."""
    if bands_are_usable(numeric, numeric.bands):
        return numeric
    return numeric.model_copy(update={"bands": default_numeric_bands(numeric.operator, numeric.threshold)})


def banded_verdict(numeric: NumericCriteria, observed: float) -> Verdict:
    """[#15] rule 2 "Numeric claims use the five levels ... code maps the verified observed value
    onto them literally ("more than" strict, no rounding)". Criteria frozen before bands existed
    use the default bands; a value in no band (a gap the writer left) cannot be settled."""
    bands = numeric.bands if bands_are_usable(numeric, numeric.bands) else default_numeric_bands(
        numeric.operator, numeric.threshold
    )
    for band in bands:
        if in_band(band, observed):
            return band.verdict
    return "unresolvable"
