"""Offline rules for "write_criteria": resolution criteria from templates.

Deterministic stand-in for [M] step 6's criteria writer. The five levels are
filled from one template per claim kind (numeric or not); the judge-at date is
the deadline for promises and predictions, and for a factual claim the end of
the year it names (or the day it was said); the structured numeric form takes
the first figure with a unit in the quote, as written (nothing rounded), and
its operator from the reading rules (``comparisons.parse_comparison``). Ranges
("DKK 16-18 billion") get no numeric form: one operator cannot express them.
"""

from __future__ import annotations

import re
from datetime import date

from reliability_core.claims.comparisons import parse_comparison
from reliability_core.claims.criteria import CriteriaInput, CriteriaOutput
from reliability_core.claims.criteria_reading import period_from_words
from reliability_core.claims.stated_probability import remove_stated_probability
from reliability_core.models.claims import CriteriaLevels, CriteriaOperator, NumericCriteria
from reliability_core.stand_in.model import offline_step
from reliability_core.text.numbers import figure_value

_CURRENCY = r"(?:DKK|EUR|USD|GBP|SEK|NOK|CHF|JPY|\$|€|£)"
_SCALE = r"(?:thousand|million|billion|trillion|bn|mn)"
_UNIT = (
    r"(?:%|per\s*cent|percent|GW|MW|kW|TWh|GWh|MWh|tonnes|tons|people|employees|staff|jobs|sites|plants|"
    r"farms|turbines|customers|countries|projects)"
)
_FIGURE = re.compile(
    rf"(?P<currency>{_CURRENCY})?\s*(?P<number>\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?)"
    rf"(?P<range>\s*(?:-|–|to)\s*\d+(?:\.\d+)?)?"
    rf"\s*(?P<scale>{_SCALE})?\s*(?P<unit>{_UNIT})?(?P<per>\s*per\s+(?:MWh|kWh|GWh|tonne|share|year))?",
    re.IGNORECASE,
)
_YEAR_ONLY = re.compile(r"^(?:19|20)\d{2}$")
_OPERATOR_WORDS: dict[CriteriaOperator, str] = {
    "gt": "is more than (strictly; equal is not enough)",
    "ge": "is at least (equal counts)",
    "lt": "is less than (strictly)",
    "le": "is at most (equal counts)",
    "eq": "is exactly (as written, nothing rounded)",
}


_OF_PHRASE = re.compile(
    r"^\s*of\s+(.+?)(?:\s+(?:in|by|at|through|during|compared|since|for)\b|[,.;]|$)", re.IGNORECASE
)
_LEAD = re.compile(
    r"^.*?\b(?:expects?|reached|reach(?:es)?|installed|install|employed|employ|cut|raised|raise|produced|generated|"
    r"build|built|fall|stay|rise|grow|exceed|have|had|has|be|is|are|was|were)\b\s*",
    re.IGNORECASE,
)
_TRAILING_WORDS = re.compile(
    r"\s+(?:above|over|below|under|more\s+than|less\s+than|at\s+least|at\s+most|of|by|to|reaches|exactly)\s*$",
    re.IGNORECASE,
)


def _quantity(before: str, after: str) -> str:
    """What is measured: "2.1 GW of installed capacity" -> "installed capacity";
    "EBITDA above DKK 28 billion" -> "EBITDA". Empty when neither reading works."""
    of_phrase = _OF_PHRASE.match(after)
    if of_phrase:
        return of_phrase.group(1).strip()[:160]
    lead = _LEAD.sub("", before.strip(), count=1).strip()
    previous = None
    while lead != previous:
        previous, lead = lead, _TRAILING_WORDS.sub("", lead).strip()
    return lead[:160]


def numeric_form(quote: str, as_of: date | None) -> NumericCriteria | None:
    """The first figure with a unit or currency in the quote (years and stated
    probabilities skipped), with its operator from the reading rules."""
    text = remove_stated_probability(quote)
    for match in _FIGURE.finditer(text):
        number = match.group("number")
        currency, scale, unit = match.group("currency"), match.group("scale"), match.group("unit")
        if _YEAR_ONLY.match(number) and not (currency or scale or unit):
            continue
        if not (currency or unit):
            continue
        if match.group("range"):
            return None
        unit_words = " ".join(part.strip() for part in (currency, scale, unit, match.group("per")) if part)
        return NumericCriteria(
            quantity=_quantity(text[: match.start()], text[match.end() :]) or quote[:160],
            unit=unit_words,
            operator=parse_comparison(text),
            threshold=figure_value(number),
            as_of=as_of,
            named_source=None,
        )
    return None


def judge_date(payload: CriteriaInput) -> date:
    """The date the claim's words give (``criteria_reading.period_from_words``: the
    deadline of a promise or prediction, the end of the period a factual claim names),
    else the day it was said."""
    named = period_from_words(payload.claim_type, payload.quote, payload.deadline)
    if named is not None:
        return named
    if payload.made_on is not None:
        return payload.made_on
    return payload.deadline or date(1970, 1, 1)


def levels_for(payload: CriteriaInput, numeric: NumericCriteria | None, judge_at: date) -> CriteriaLevels:
    """The five levels from templates: literal for numeric claims, by degree otherwise."""
    claim = payload.restatement
    when = judge_at.isoformat()
    if numeric is not None:
        target = f"{numeric.threshold:g} {numeric.unit}".strip()
        words = _OPERATOR_WORDS[numeric.operator]
        return CriteriaLevels(
            true=f"A dated record shows that, as of {when}, the figure {words} {target}: {claim}",
            mostly_true=f"The figure misses {target} by no more than 5% of it, or meets it within one quarter after {when}.",
            mixed=f"The figure misses {target} by more than 5% and no more than 15%, or only part of the claim holds.",
            mostly_false=f"The figure misses {target} by more than 15% and no more than 35%.",
            false=(
                f"The figure misses {target} by more than 35%, or a dated record shows the opposite "
                f"(cancellation, a delay past {when}, or a different figure far from it)."
            ),
        )
    return CriteriaLevels(
        true=f"A dated record shows, as of {when}, that the claim holds in full: {claim}",
        mostly_true=f"A dated record shows the claim holds in substance with a minor difference in detail or timing (at most one quarter after {when}).",
        mixed="A dated record shows that part of the claim holds and part does not.",
        mostly_false="A dated record shows that the claim mostly does not hold; only a minor part of it is borne out.",
        false=(
            f"A dated record shows the claim does not hold as of {when} (for example a report of a delay, "
            "a cancellation or a contrary figure). Not finding a record is not enough."
        ),
    )


@offline_step("write_criteria", CriteriaInput)
def write_criteria_offline(payload: CriteriaInput) -> CriteriaOutput:
    """Criteria from templates; the pipeline then applies the reading rules and freezes them."""
    judge_at = judge_date(payload)
    as_of = (
        judge_at
        if payload.claim_type != "factual" or period_from_words("factual", payload.quote, None)
        else payload.made_on
    )
    numeric = numeric_form(payload.quote, as_of)
    if numeric is not None and payload.claim_type == "promise" and numeric.operator == "eq":
        # A promised target is a floor: "we will install 15 GW" is kept by 15 GW or more.
        numeric = numeric.model_copy(update={"operator": "ge"})
    return CriteriaOutput(levels=levels_for(payload, numeric, judge_at), judge_at=judge_at, numeric=numeric)
