"""Numbers as people write them ([V] T1 "Find the value inside the quote. As written in a
common form: 72.4, 72.4% or 0.724"; [#3] "thousands separators; '1.2 billion'"; [#15] "Number
matching must handle common written forms generally").

One general reader, not patterns for particular figures: digits with any common grouping
(``1,200``, ``1 200``, ``1.200.000``, ``1'200``, narrow and no-break spaces), a decimal point
or comma, a sign (``-``, ``−``), a percent mark in any spelling (``%``, ``per cent``,
``percent``, ``pct``, ``percentage points``), a scale word or abbreviation (``thousand``,
``k``, ``million``, ``m``, ``mn``, ``mln``, ``billion``, ``bn``, ``b``, ``trillion``, ``tn``,
``lakh``, ``crore``, ``hundred``, ``dozen``) and numbers written in words (``three hundred``,
``twenty-five``, ``a dozen``, ``one and a half million``). Every reading keeps the figure as
written and its scale, so a comparison can ask "is this value written here in some form"
without guessing which form the writer chose.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Final

SCALE_WORDS: Final[dict[str, int]] = {
    "hundred": 10**2,
    "dozen": 12,
    "thousand": 10**3,
    "k": 10**3,
    "lakh": 10**5,
    "lakhs": 10**5,
    "million": 10**6,
    "millions": 10**6,
    "mn": 10**6,
    "mln": 10**6,
    "mio": 10**6,
    "m": 10**6,
    "crore": 10**7,
    "crores": 10**7,
    "billion": 10**9,
    "billions": 10**9,
    "bn": 10**9,
    "b": 10**9,
    "trillion": 10**12,
    "trillions": 10**12,
    "tn": 10**12,
}
# Abbreviations that are also ordinary letters or unit prefixes ("5 m" is five metres,
# "5 b" rarely anything): they scale only when glued to the figure ("5m", "$1.2bn").
_GLUED_ONLY: Final = frozenset({"k", "m", "b"})

UNITS: Final[dict[str, int]] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip

_PERCENT = r"%|\s*(?:per\s?cent\b|percent\b|pct\b|percentage\s+points?\b)"
_SCALE = "|".join(sorted((re.escape(w) for w in SCALE_WORDS), key=len, reverse=True))
_DIGITS = re.compile(
    rf"""
    (?<![\w.,])
    (?P<sign>[-\u2212+])?
    (?P<body>\d{{1,3}}(?:(?P<sep>[,.\u00a0\u202f\u2009 '])\d{{3}})(?:(?P=sep)\d{{3}})*(?:[.,]\d+)?
        |\d+(?:[.,]\d+)?)
    (?![\d])
    (?P<pct>{_PERCENT})?
    (?P<gap>[\s\u00a0-]*)
    (?P<scale>(?:{_SCALE})\b)?
    (?P<pct2>{_PERCENT})?
    """,
    re.VERBOSE | re.IGNORECASE,
)
_WORD = "|".join(sorted(UNITS, key=len, reverse=True))
_WORDS = re.compile(
    rf"""
    \b(?P<words>(?:a|an|half|(?:{_WORD}))(?:(?:\s+and\s+(?:an?\s+)?|[\s-]+(?:an?\s+)?)(?:{_WORD}|half|quarter|{_SCALE}))*)\b
    (?P<pct>{_PERCENT})?
    """,
    re.VERBOSE | re.IGNORECASE,
)


@dataclass(frozen=True)
class WrittenNumber:
    """One number as written: its figure (``as_written``), the multiplier of its scale word
    (1 when none), whether a percent mark follows, and where it stands in the text."""

    as_written: Decimal
    scale: int
    percent: bool
    start: int
    end: int
    alternatives: tuple[Decimal, ...] = ()  # other readings of an ambiguous grouping ("1.200")

    @property
    def value(self) -> Decimal:
        """The figure times its scale ("1.2 billion" -> 1,200,000,000)."""
        return self.as_written * self.scale

    def readings(self, *, percent_expected: bool = False) -> set[Decimal]:
        """Every value this writing can stand for: as written, scaled, a percentage as a
        fraction (72.4% -> 0.724) and, when a percentage is expected, a fraction as a
        percentage (0.724 -> 72.4)."""
        out: set[Decimal] = set()
        for figure in (self.as_written, *self.alternatives):
            out |= {abs(figure), abs(figure * self.scale)}
            if self.percent:
                out.add(abs(figure) / 100)
            elif percent_expected:
                out.add(abs(figure) * 100)
        return out


def _decimal(body: str, sep: str | None) -> tuple[Decimal, tuple[Decimal, ...]] | None:
    """The figure of a digit group, with another reading when the grouping is ambiguous."""
    text = body
    alternatives: list[str] = []
    if sep:
        head, tail_sep, tail = text, "", ""
        # A decimal part after the grouped digits uses the other mark ("1.200,5" / "1,200.5").
        for mark in (".", ","):
            if mark != sep and mark in text:
                head, tail_sep, tail = text.rpartition(mark)
                break
        grouped = head.replace(sep, "")
        if tail_sep:
            text = f"{grouped}.{tail}"
        elif head.count(sep) == 1 and sep in ".,":
            # "1.200" / "1,200": thousands in one convention, a decimal in the other.
            text = grouped
            alternatives.append(head.replace(sep, "."))
        else:
            text = grouped
    else:
        text = text.replace(",", ".")
    try:
        return Decimal(text), tuple(Decimal(a) for a in alternatives)
    except InvalidOperation:
        return None


def _words_value(words: str) -> Decimal | None:
    """"three hundred" -> 300, "twenty-five" -> 25, "one and a half million" -> 1,500,000,
    "half a million" -> 500,000, "a dozen" -> 12. None when the words are not a number
    ("a" alone). An article counts as one only before a scale word ("a million")."""
    tokens = [t for t in re.split(r"[\s-]+", words.lower()) if t and t != "and"]
    total = Decimal(0)
    current = Decimal(0)
    article = False
    seen_number = False
    for token in tokens:
        if token in ("a", "an"):
            article = True
            continue
        if token in UNITS:
            current += UNITS[token]
        elif token in ("half", "quarter"):
            current += Decimal("0.5") if token == "half" else Decimal("0.25")
        elif token in SCALE_WORDS and token not in _GLUED_ONLY:
            scale = SCALE_WORDS[token]
            current = (current or Decimal(1)) * scale if (current or article) else Decimal(scale)
            if scale >= 1000:
                total += current
                current = Decimal(0)
        else:
            return None
        article = False
        seen_number = True
    if not seen_number:
        return None
    return total + current


@lru_cache(maxsize=4096)
def _parse(text: str) -> tuple[WrittenNumber, ...]:
    found: list[WrittenNumber] = []
    for match in _DIGITS.finditer(text):
        parsed = _decimal(match.group("body"), match.group("sep"))
        if parsed is None:
            continue
        figure, alternatives = parsed
        if match.group("sign") in ("-", "\u2212"):
            figure, alternatives = -figure, tuple(-a for a in alternatives)
        scale_word = (match.group("scale") or "").lower()
        scale = SCALE_WORDS.get(scale_word, 1)
        end = match.end("scale") if scale_word else match.end("body")
        if scale_word in _GLUED_ONLY and match.group("gap"):
            scale, end = 1, match.end("body")
        percent = bool(match.group("pct") or (match.group("pct2") and scale_word))
        if percent:
            end = match.end()
        found.append(WrittenNumber(figure, scale, percent, match.start(), end, alternatives))
    taken = [(n.start, n.end) for n in found]
    for match in _WORDS.finditer(text):
        if any(s < match.end() and match.start() < e for s, e in taken):
            continue
        value = _words_value(match.group("words"))
        if value is None:
            continue
        found.append(WrittenNumber(value, 1, bool(match.group("pct")), match.start(), match.end()))
    return tuple(sorted(found, key=lambda n: n.start))


def parse_numbers(text: str) -> list[WrittenNumber]:
    """Every number written in ``text``, in order, digits and words alike."""
    return list(_parse(text))


def figure_value(written: str) -> float:
    """The value of one figure written in digits ("8,200", "13.1", "1,200,000"), as this
    reader reads it (its figure as written, without a scale word): for a caller that found
    the figure by its own pattern, so that the digits are still read by one reader."""
    numbers = _parse(written)
    if not numbers:
        raise ValueError(f"no number written in {written!r}")
    return float(numbers[0].as_written)


def unit_scale(unit: str) -> int:
    """The multiplier a criteria unit carries ("DKK billion" -> 10**9, "GW" -> 1)."""
    scale = 1
    for word in re.findall(r"[A-Za-z]+", unit or ""):
        multiplier = SCALE_WORDS.get(word.lower())
        if multiplier is not None and word.lower() not in _GLUED_ONLY:
            scale *= multiplier
    return scale


def _close(a: Decimal, b: Decimal) -> bool:
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)


def is_percent_unit(unit: str) -> bool:
    """A unit that is a percentage ("%", "per cent", "percentage points")."""
    return bool(re.search(r"%|per\s?cent|percent|pct|percentage", unit or "", re.IGNORECASE))


def value_written_in(value: float, text: str, *, unit: str = "") -> bool:
    """Is ``value`` (in ``unit``) written in ``text`` in any common form? It matches a number
    as written, times its scale word, a percentage as a fraction or a fraction as a
    percentage, and the value times the unit's own scale ("28" in "DKK billion" is written as
    "DKK 28,000 million"). The sign is compared by magnitude: quotes carry it in words ("fell
    3%") as often as with a minus sign."""
    target = abs(Decimal(repr(float(value))))
    targets = {target, target * unit_scale(unit)}
    percent = is_percent_unit(unit)
    return any(
        _close(t, reading)
        for number in _parse(text)
        for reading in number.readings(percent_expected=percent)
        for t in targets
    )


def same_number_written(first: WrittenNumber, others: Iterable[WrittenNumber]) -> bool:
    """Does ``first`` stand for the same amount as one of ``others`` ("1.2 billion" and
    "1,200 million" do; "3,000" and "300" do not)?"""
    mine = {first.value, abs(first.value)} | ({abs(first.value) / 100} if first.percent else set())
    for other in others:
        theirs = {abs(other.value)} | ({abs(other.value) / 100} if other.percent else set())
        if any(_close(abs(a), b) for a in mine for b in theirs):
            return True
    return False
