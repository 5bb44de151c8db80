"""Which figure of the quote the criteria ask for, and which period ([R] "How it reads a
claim": "Nothing is rounded"; [M] step 6 "... and the date to judge at").

The criteria writer proposes a threshold and a period; the quote's own words dispose. The
threshold must be a figure the quote writes (in any common written form, at the scale and
in the unit the criteria give it: ``text.numbers``), or the criteria are refused; among the
quote's figures a year, a date or a stated probability is never the threshold. The period
is the deadline for a promise or prediction and, for a factual claim, the one year (or
quarter, or half) its quote names as the time it is about. Where the writer and the words
disagree, the words' reading stands and the disagreement is kept on the criteria record.
Both the live path (``criteria.build_criteria``) and the offline stand-in call these.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from reliability_core.claims.stated_probability import remove_stated_probability
from reliability_core.models.base import ClaimType
from reliability_core.models.claims import NumericCriteria
from reliability_core.text.dates import date_spans, find_dates, said_after, said_before
from reliability_core.text.numbers import ROLES, WrittenNumber, parse_numbers, value_written_in

_YEAR = re.compile(r"(?<![\w.,])(?:19|20)\d{2}(?![\w])")
@dataclass(frozen=True)
class QuoteFigure:
    """A figure of the quote that could be a threshold: not a year, a date or a probability."""

    number: WrittenNumber
    written: str  # as it stands in the quote (stated probabilities blanked out)


def threshold_figures(quote: str) -> list[QuoteFigure]:
    """The figures a claim's criteria may take as their threshold, in the quote's order:
    every number the quote writes, except a stated probability ("70% likely" is the
    claim's odds, not its target), a year and the day or month of a date."""
    text = remove_stated_probability(quote)
    dates = date_spans(text)
    figures = []
    for number in parse_numbers(text):
        written = text[number.start : number.end]
        if any(start <= number.start < end for start, end in dates):
            continue
        if _YEAR.fullmatch(written.strip()) and number.scale == 1 and not number.percent:
            continue
        figures.append(QuoteFigure(number, written))
    return figures


def figure_is_written(value: float, unit: str, figure: QuoteFigure) -> bool:
    """Is ``value`` in ``unit`` this figure, in some common written form?"""
    return value_written_in(value, figure.written, unit=unit)


def threshold_not_written(numeric: NumericCriteria, quote: str) -> str | None:
    """[R] "Nothing is rounded": the frozen threshold is a figure written in the claim's
    quote, in any common written form, at the scale and in the unit the criteria give
    ("DKK 28 billion" is 28 in "DKK billion" or 28,000 in "DKK million"; 2 is never
    2.5). A figure the quote writes only as a year, a date or a label passes here:
    ``choose_threshold`` then puts the quote's own figure in its place and says so. Returns
    why it is not, or None when it is."""
    if value_written_in(numeric.threshold, quote, unit=numeric.unit, roles=ROLES):
        return None
    return (
        f"threshold {numeric.threshold:g} {numeric.unit}".rstrip()
        + " is not a figure the claim's quote writes (nothing is rounded)"
    )


def _unit_beside(quote_text: str, figure: QuoteFigure) -> str:
    """The unit words a quote writes with a figure: a currency just before it, its scale
    word, and the word after it ("DKK 28 billion of revenue" -> "DKK billion of")."""
    before = re.search(r"([A-Z]{3}|[$€£¥])\s*$", quote_text[: figure.number.start])
    after = re.match(r"\s*(%|[^\W\d_][\w/-]*)", quote_text[figure.number.end :])
    scale = next((w for w in figure.written.split()[1:] if w.isalpha()), "")
    parts = [
        before.group(1) if before else "",
        scale,
        "%" if figure.number.percent else (after.group(1) if after else ""),
    ]
    return " ".join(p for p in parts if p)


def choose_threshold(numeric: NumericCriteria, quote: str) -> tuple[NumericCriteria, str]:
    """Which figure of the quote the criteria ask for. The writer's figure stands when it is
    one of the quote's threshold figures (``threshold_figures``). When it is a figure the
    quote writes only as a year, a date or a stated probability, the quote's first
    threshold figure stands instead (with the unit written beside it), and the
    disagreement is returned as a note; "" when the writer's figure stands."""
    figures = threshold_figures(quote)
    if not figures or any(figure_is_written(numeric.threshold, numeric.unit, f) for f in figures):
        return numeric, ""
    first = figures[0]
    text = remove_stated_probability(quote)
    unit = _unit_beside(text, first)
    chosen = numeric.model_copy(update={"threshold": float(first.number.as_written), "unit": unit})
    note = (
        f"criteria writer's threshold {numeric.threshold:g} {numeric.unit} is a year, a date or a stated "
        f"probability in the quote; the quote's figure {first.written.strip()} is the threshold"
    )
    return chosen, note


def named_period_end(quote: str) -> date | None:
    """The last day of the one period a factual claim's quote names as the time it is
    about ("in 2024", "2024's revenue", "Q3 2024", "2024年", "i 2024"): the years, quarters
    and halves it writes (``text.dates``), less those its words name as a starting point or
    baseline ("since 2015", "from 2019 levels", "2019年以来": lexicon area ``dates``). None
    when it names no such period, or more than one."""
    text = remove_stated_probability(quote)
    periods: set[date] = set()
    for mention in find_dates(text):
        if mention.precision not in ("year", "quarter", "half"):
            continue
        if said_before(text, mention, "baseline_before") or said_after(text, mention, "baseline_after"):
            continue
        periods.add(mention.last)
    return periods.pop() if len(periods) == 1 else None


def period_from_words(claim_type: ClaimType, quote: str, deadline: date | None) -> date | None:
    """The date a claim's own words give it: its deadline for a promise or prediction,
    the end of the one period a factual claim's quote names (``named_period_end``);
    None when the words give none."""
    if claim_type in ("promise", "prediction") and deadline is not None:
        return deadline
    if claim_type == "factual":
        return named_period_end(quote)
    return None


def decide_period(
    claim_type: ClaimType, quote: str, deadline: date | None, proposed: date
) -> tuple[date, str]:
    """[M] step 6 "and the date to judge at": a promise or prediction is judged at its
    deadline ([R] "Something that happens at 11:30 pm on the deadline day counts", so the
    deadline day itself is included); a factual claim at the end of the one period its
    quote names; otherwise at the date the criteria writer proposed
    (``period_from_words``). Returns the date and a note when the writer proposed another."""
    decided = period_from_words(claim_type, quote, deadline)
    if decided is None or decided == proposed:
        return proposed, ""
    return (
        decided,
        f"criteria writer proposed {proposed.isoformat()}; the claim's words give {decided.isoformat()}",
    )
