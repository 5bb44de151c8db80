"""Mechanical quote and value checks ([V] T1 steps 3 and 4)."""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache

from reliability_core.constants import EVIDENCE_QUOTE_MAX_CHARS, EVIDENCE_QUOTE_MIN_CHARS
from reliability_core.models.base import Record
from reliability_core.text.normalise import NormalisedText, normalise_for_match
from reliability_core.text.numbers import parse_numbers, value_written_in


class QuoteCheck(Record):
    """The outcome of a quote check. ``start``/``end`` index the ORIGINAL page text,
    so a verified quote can be shown in its context; both are None when unverified."""

    verified: bool
    start: int | None = None
    end: int | None = None
    reason: str


@lru_cache(maxsize=16)
def _normalised_page(page_text: str) -> NormalisedText:
    # Pages are checked against many quotes in a row; normalise each page once.
    return normalise_for_match(page_text)


def _strip_enclosing_marks(text: str) -> str:
    """Drop quotation marks the quoter wrapped around the quote (not inner ones)."""
    stripped = text.strip(' "')
    if len(stripped) >= 2 and stripped[0] == stripped[-1] == "'":
        stripped = stripped[1:-1].strip()
    return stripped


def verify_quote(
    quote: str,
    page_text: str | NormalisedText,
    *,
    min_chars: int | None = None,
    max_chars: int | None = None,
) -> QuoteCheck:
    """Is ``quote`` in ``page_text``, word for word after normalisation?

    Implements [M] step 4 "each quote [must] appear word for word in the stored page
    text, after normalising spacing and quotation marks" and [#3] "A quote is verified
    only if its normalised form is a substring of the normalised page text." A failing
    quote is a value with ``verified=False`` and a reason ("kept and marked unverified").
    ``min_chars``/``max_chars`` bound the quote's length (None: no bound); evidence quotes
    use :func:`verify_evidence_quote`, which applies the 20-600 character rule.
    """
    stripped = quote.strip()
    if min_chars is not None and len(stripped) < min_chars:
        return QuoteCheck(
            verified=False, reason=f"quote has {len(stripped)} characters, fewer than {min_chars}"
        )
    if max_chars is not None and len(stripped) > max_chars:
        return QuoteCheck(
            verified=False, reason=f"quote has {len(stripped)} characters, more than {max_chars}"
        )
    needle = _strip_enclosing_marks(normalise_for_match(stripped).text)
    if not needle:
        return QuoteCheck(verified=False, reason="quote is empty after normalisation")
    page = page_text if isinstance(page_text, NormalisedText) else _normalised_page(page_text)
    index = page.text.find(needle)
    if index < 0:
        return QuoteCheck(verified=False, reason="quote not found in the page text after normalisation")
    start, end = page.original_span(index, index + len(needle))
    return QuoteCheck(verified=True, start=start, end=end, reason="quote found in the page text")


def verify_evidence_quote(quote: str, page_text: str | NormalisedText) -> QuoteCheck:
    """[V] T1 "The 20–600 character quote must be a substring of the page text."""
    return verify_quote(
        quote, page_text, min_chars=EVIDENCE_QUOTE_MIN_CHARS, max_chars=EVIDENCE_QUOTE_MAX_CHARS
    )


def numbers_in_text(text: str) -> list[tuple[Decimal, bool, int]]:
    """Every number written in ``text``: (figure as written, followed by a percent mark,
    scale multiplier or 1), read by the general reader ``text.numbers.parse_numbers``."""
    return [(n.as_written, n.percent, n.scale) for n in parse_numbers(text)]


def value_in_quote(value: float, quote: str, *, percent: bool = False) -> bool:
    """Does the quote state ``value`` in a common written form?

    Implements [V] T1 "Find the value inside the quote. As written in a common form:
    72.4, 72.4% or 0.724" and [#3] "thousands separators; '1.2 billion' for
    1,200,000,000". A number matches as written (``72.4``, ``1,200``), times its
    scale word (``1.2 billion``), divided by 100 when followed by ``%``, and, for a
    percentage (``percent=True``), times 100 when written as a fraction (``0.724``).
    The sign is compared by magnitude: quotes carry it in words ("fell 3%") as often
    as with a minus sign. The reading of written numbers is ``text.numbers``.
    """
    return value_written_in(value, quote, unit="%" if percent else "")
