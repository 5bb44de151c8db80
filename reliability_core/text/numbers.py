"""Numbers as people write them, in the languages the subjects write ([V] T1 "Find the value
inside the quote. As written in a common form: 72.4, 72.4% or 0.724"; [#3] "thousands
separators; '1.2 billion'"; [#15] "Number matching must handle common written forms
generally"; issue 25 T1 "A value is found only when figure, scale and unit all agree; a number
the quote uses as a year, a page, a label or a note marker is not a value").

One general reader, not patterns for particular figures:

- digits in any script (Arabic-Indic, Persian, full-width) with any common grouping (``1,200``,
  ``1 200`` with a space, no-break or narrow no-break space, ``1.200.000``, ``1'234`` and the
  Swiss ``1’234``, Arabic ``١٬٢٠٠``, Indian ``12,34,567``) and a decimal point or comma; a single
  thousands group ("1.200") is read by the convention the rest of the text and a scale word
  decide, both ways only when nothing decides;
- a percent mark in any spelling ("%", "％", "٪", "Prozent", "por ciento", "процент", "%40",
  "yüzde 40", "百分之40");
- a scale word from CLDR's compact number forms in every web language ("mia.", "Mrd.",
  "milliards", "mil millones", "млрд", "億", "억": ``text.number_forms``);
- the unit written beside the figure: a currency (code, symbol or name) or an SI unit;
- numbers in words (English here; French, Spanish, Portuguese, German, Dutch, Italian and
  Danish through ``text_to_num``) and fractions in words in every web language;
- the number's role: a value, or a year, a date, a page or article reference, a label
  ("Scope 3", "Q3", "COVID-19", "3rd"), a period ("3. Quartal") or a note marker ("[3]").

``value_written_in`` then asks whether a claimed value, in the criteria's unit, is written:
figure, scale and unit must agree, and only numbers in the role of a value count.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from difflib import SequenceMatcher
from fractions import Fraction
from functools import lru_cache
from typing import Final

from text_to_num import alpha2digit

from reliability_core.text.dates import abbreviated_month_names, wide_month_names
from reliability_core.text.lexicon import area_lexicon, entry_pattern
from reliability_core.text.number_forms import (
    GLUED_ONLY,
    currency_codes,
    currency_key,
    currency_words,
    localized_unit_pattern,
    localized_units,
    scale_key,
    scale_pattern,
    scale_words,
    short_currency_symbols,
    unit_key,
)

# The English number-word reader (kept from before issue 25; other languages go through
# ``text_to_num``).
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
_GLUED_ONLY: Final = frozenset({"k", "m", "b"})

UNITS: Final[dict[str, int]] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip

# Roles a written number can play. Only VALUE numbers can be a claim's value.
VALUE: Final = "value"
YEAR: Final = "year"
DATE: Final = "date"
REFERENCE: Final = "reference"
LABEL: Final = "label"
NOTE: Final = "note"

# Languages ``text_to_num`` reads number words in, besides English (read here).
_WORD_LANGUAGES: Final = ("fr", "es", "pt", "de", "nl", "it", "da")

_GAP: Final = "[ \u00a0\u202f\u2009\u2007]"
_SPACES: Final = re.compile(f"{_GAP}*")
_EN_PERCENT = r"%|\s*(?:per\s?cent\b|percent\b|pct\b|percentage\s+points?\b)"
_EN_SCALE = "|".join(sorted((re.escape(w) for w in SCALE_WORDS), key=len, reverse=True))
_EN_WORD = "|".join(sorted(UNITS, key=len, reverse=True))
_EN_WORDS = re.compile(
    rf"""
    \b(?P<words>(?:a|an|half|(?:{_EN_WORD}))
      (?:(?:\s+and\s+(?:an?\s+)?|[\s-]+(?:an?\s+)?)(?:{_EN_WORD}|half|quarter|{_EN_SCALE}))*)\b
    (?P<pct>{_EN_PERCENT})?
    """,
    re.VERBOSE | re.IGNORECASE,
)
_DIGITS = re.compile(
    r"""
    (?<![\d.,'])
    (?P<sign>[-+](?=\d))?
    (?P<body>
        \d{1,2}(?:,\d{2})+,\d{3}(?:\.\d+)?(?!\d)                       # Indian: 12,34,567
      | \d{1,3}(?P<sep>[,.'\u00a0\u202f\u2009\u2007 ])\d{3}(?:(?P=sep)\d{3})*(?:[.,]\d+)?(?!\d)
      | \d+(?:[.,]\d+)?
    )
    (?!\d)
    """,
    re.VERBOSE,
)
# SI units (with a prefix) and the tonne's words: a figure in MW is not a figure in GW.
_SI_PREFIX: Final[dict[str, Decimal]] = {
    "": Decimal(1), "k": Decimal(10**3), "M": Decimal(10**6), "G": Decimal(10**9), "T": Decimal(10**12),
    "m": Decimal("0.001"),
}  # fmt: skip
_SI = re.compile(r"(?P<prefix>[kMGTm]?)(?P<base>Wh|Wp|W|VA|J|tCO2e|tCO2|t|g|m3|m²|m|l|bbl|boe)(?![\w²³])")
_TONNE_WORDS = re.compile(
    r"(?:tonnes?|tons?|Tonnen|toneladas|tonnellate|tonn|тонн\w*|tấn|ton|طن)(?!\w)", re.IGNORECASE
)
# Scale and currency in one token, as Nordic and German reports write them ("mkr", "TEUR",
# "DKKm"). CLDR has no such forms; the reader splits them into scale and currency.
_SCALED_CODE = re.compile(r"(?P<pre>T|k|M|m|Md|Mrd|bn|mn)?(?P<code>[A-Z]{3})(?P<post>m|bn|k|mn|tn)?$")
_SCALED_KRONER: Final[dict[str, int]] = {
    "tkr": 10**3,
    "t.kr": 10**3,
    "mkr": 10**6,
    "mnkr": 10**6,
    "mdkr": 10**9,
}
_CONNECTORS = re.compile(r"(?:de|d'|di|of|van)[ \u00a0]*", re.IGNORECASE)
_DATE_NUMERIC = re.compile(
    r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})(?!\d)|\d{4}/\d{1,2}/\d{1,2}"
)
_YEAR_RANGE_TAIL = re.compile(r"(?:19|20)\d{2}[-/\u2013](?:\d{2}|\d{4})$")
_CJK_DATE_AFTER = re.compile(r"[年月日년월일]")
_CJK_YEAR_AFTER = re.compile(r"[年년]")


def _is_gapless(ch: str) -> bool:
    """A character of a script written without spaces (Han, kana, Hangul)."""
    return unicodedata.name(ch, "").startswith(("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "FULLWIDTH"))


def _plain_char(ch: str) -> str:
    """One character as the reader reads it: any decimal digit as an ASCII digit, the Arabic
    decimal and grouping marks, full-width punctuation and typographic apostrophes as ASCII."""
    if "0" <= ch <= "9":
        return ch
    if ch.isdecimal():
        return str(unicodedata.decimal(ch))
    return _PLAIN.get(ch, ch)


_PLAIN: Final[dict[str, str]] = {
    "\u066b": ".",  # Arabic decimal separator
    "\u066c": "'",  # Arabic thousands separator: a grouping mark that is never a decimal
    "\uff0c": ",",
    "\uff0e": ".",
    "\uff05": "%",
    "\u066a": "%",  # Arabic percent sign
    "\ufe6a": "%",
    "\u2019": "'",  # the Swiss typographic apostrophe
    "\u02bc": "'",
    "\u2032": "'",
    "\u2212": "-",  # minus sign
}


def _plain(text: str) -> str:
    """``text`` with every character read by ``_plain_char``: same length, so spans match."""
    return "".join(_plain_char(ch) for ch in text)


@dataclass(frozen=True)
class WrittenNumber:
    """One number as written: its figure (``as_written``), the multiplier of its scale word
    (1 when none), whether a percent mark goes with it, where it stands in the text, and what
    the text writes beside it (a currency, an SI unit) and which role it plays there."""

    as_written: Decimal
    scale: int
    percent: bool
    start: int
    end: int
    alternatives: tuple[Decimal, ...] = ()  # other readings of an ambiguous grouping ("1.200")
    role: str = VALUE
    currencies: frozenset[str] = frozenset()  # ISO codes the currency beside it can stand for
    si_prefix: Decimal = Decimal(1)
    si_base: str = ""  # "W", "Wh", "t"...: empty when no SI unit is written beside it
    approximate: bool = False  # a fraction in words ("one third"): compared at the claim's precision
    other_scales: tuple[int, ...] = field(default=())  # a scale word two languages read differently

    @property
    def value(self) -> Decimal:
        """The figure times its scale ("1.2 billion" -> 1,200,000,000)."""
        return self.as_written * self.scale

    @property
    def figures(self) -> tuple[Decimal, ...]:
        """The figure and its other readings."""
        return (self.as_written, *self.alternatives)

    @property
    def scales(self) -> tuple[int, ...]:
        return (self.scale, *self.other_scales)

    def readings(self, *, percent_expected: bool = False) -> set[Decimal]:
        """Every amount this writing can stand for: the figure times its scale, a percentage
        also as a fraction (72.4% -> 0.724) and, when a percentage is expected, a bare fraction
        as a percentage (0.724 -> 72.4)."""
        out: set[Decimal] = set()
        for figure in self.figures:
            out |= {abs(figure * s) for s in self.scales}
            if self.percent:
                out.add(abs(figure) / 100)
            elif percent_expected and _bare_fraction(self, figure):
                out.add(abs(figure) * 100)
        return out


def _bare_fraction(number: WrittenNumber, figure: Decimal) -> bool:
    """A figure written as a fraction of one ("0.724", "two thirds"), with nothing beside it."""
    return (
        number.scale == 1
        and not number.percent
        and not number.currencies
        and not number.si_base
        and (number.approximate or figure != figure.to_integral_value())
        and abs(figure) <= 1
    )


# --- the digits ----------------------------------------------------------------------------------


def _decimal_votes(text: str) -> set[str]:
    """Which mark the text uses as its decimal point, from its unambiguous figures: a figure
    with both marks ("1.234,5"), repeated groups ("1.234.567"), or a mark not followed by
    exactly three digits ("2,5", "0.75")."""
    votes: set[str] = set()
    for match in _DIGITS.finditer(text):
        body, sep = match.group("body"), match.group("sep")
        if sep in (".", ","):
            other = "," if sep == "." else "."
            if other in body or body.count(sep) > 1:
                votes.add(other)
        elif sep is None and "," in body and body.count(",") > 1:
            votes.add(".")  # Indian grouping
        elif sep is None:
            mark = "." if "." in body else "," if "," in body else ""
            if (mark and len(body.rpartition(mark)[2]) != 3) or (mark and body.startswith("0" + mark)):
                votes.add(mark)
    return votes


def _decimal(body: str, sep: str | None, *, decimal_mark: str | None, scaled: bool) -> tuple[Decimal, ...]:
    """The readings of a digit group: one, or two when a single group is ambiguous ("1.200"
    is 1200 or 1.2) and neither the text's convention nor a scale word decides."""
    if sep is None and body.count(",") > 1:  # Indian grouping "12,34,567.5"
        return (Decimal(body.replace(",", "")),)
    if sep is None:
        return (Decimal(body.replace(",", ".")),)
    head, tail_sep, tail = body, "", ""
    for mark in (".", ","):
        if mark != sep and mark in body:
            head, tail_sep, tail = body.rpartition(mark)
            break
    grouped = head.replace(sep, "")
    if tail_sep:
        return (Decimal(f"{grouped}.{tail}"),)
    if head.count(sep) == 1 and sep in ".,":
        thousands, fraction = Decimal(grouped), Decimal(head.replace(sep, "."))
        if head.startswith("0"):  # "0.500": a thousands group never follows a lone zero
            return (fraction,)
        if scaled:  # "$1,200 million", "28.000 millones": writers do not pad a scaled decimal
            return (thousands,)
        if decimal_mark == sep:
            return (fraction,)
        if decimal_mark is not None:
            return (thousands,)
        return (thousands, fraction)
    return (Decimal(grouped),)


def _currency_at(text: str, pos: int) -> tuple[frozenset[str], int, int]:
    """A currency written from ``pos`` (after optional spaces and "de"/"of"): its codes, the
    scale a compound token carries ("MEUR", "mkr") and where it ends; empty when none."""
    gap = _SPACES.match(text, pos)
    at = gap.end() if gap else pos
    connector = _CONNECTORS.match(text, at)
    for start in (at, connector.end() if connector else -1):
        if start < 0:
            continue
        found = _currency_token(text, start)
        if found[0]:
            return found
    return frozenset(), 1, pos


def _currency_token(text: str, start: int) -> tuple[frozenset[str], int, int]:
    words = list(re.finditer(r"[^\s\d,;:()\[\]]+", text[start : start + 60]))
    best: tuple[frozenset[str], int, int] = (frozenset(), 1, start)
    if words and words[0].start() == 0:
        # One to three words, longest first ("danske kroner", "mil dólares" is not one).
        for count in (3, 2, 1):
            if len(words) < count:
                continue
            end = words[count - 1].end()
            if count > 1 and text[start : start + end].count("\n"):
                continue
            token = text[start : start + end]
            codes, scale = _currency_of(token)
            if codes:
                return codes, scale, start + end
        # A symbol glued to letters or a script without gaps ("円", "€bn" is caught by scale).
        first = words[0].group()
        for length in range(min(len(first), 4), 0, -1):
            codes, scale = _currency_of(first[:length])
            if codes:
                return codes, scale, start + length
    return best


def _currency_of(token: str) -> tuple[frozenset[str], int]:
    """The codes a currency token names, and the scale a compound token carries."""
    stripped = token.strip(".")
    if stripped in currency_codes():
        return frozenset({stripped}), 1
    compound = _SCALED_CODE.match(stripped)
    if (
        compound
        and compound.group("code") in currency_codes()
        and (compound.group("pre") or compound.group("post"))
    ):
        mark = (compound.group("pre") or compound.group("post") or "").lower()
        scale = {"t": 10**3, "k": 10**3, "m": 10**6, "mn": 10**6, "md": 10**9, "mrd": 10**9, "bn": 10**9}
        return frozenset({compound.group("code")}), scale.get(mark, 10**12)
    key = currency_key(token)
    if key in _SCALED_KRONER:
        return short_currency_symbols()["kr"], _SCALED_KRONER[key]
    exact = short_currency_symbols().get(stripped)
    if exact:
        return exact, 1
    return currency_words().get(key, frozenset()), 1


def _currency_before(text: str, start: int) -> frozenset[str]:
    """A currency written just before a figure ("DKK 28", "€5", "US$ 3", "kr. 500", "Rp5")."""
    window = text[max(0, start - 24) : start]
    head = window.rstrip(" \u00a0\u202f")
    if len(window) - len(head) > 1:
        return frozenset()
    token = re.search(r"[^\s\d]+$", head)
    if token is None:
        return frozenset()
    word = token.group().lstrip("([\"'\u201c\u00ab")
    # The whole word ("DKK", "US$", "kr.") or the symbol that ends it ("(€"), never the tail
    # of a word ("install" does not end in the lek's code).
    symbol = re.search(r"[^\w.]+$", word)
    for candidate in (word, symbol.group() if symbol else ""):
        codes, _ = _currency_of(candidate) if candidate else (frozenset(), 1)
        if codes:
            return codes
    return frozenset()


def _si_at(text: str, pos: int) -> tuple[Decimal, str, int]:
    """An SI unit written from ``pos`` ("MW", "TWh", "kt", "tonnes"): prefix, base, end."""
    gap = _SPACES.match(text, pos)
    at = gap.end() if gap else pos
    unit = _SI.match(text, at)
    if unit and not (
        unit.group("base") in ("m", "l", "g", "t")
        and unit.group("prefix") == ""
        and text[at : at + 1].isupper()
    ):
        return _SI_PREFIX[unit.group("prefix")], unit.group("base"), unit.end()
    tonnes = _TONNE_WORDS.match(text, at)
    if tonnes:
        return Decimal(1), "t", tonnes.end()
    # The unit written out or in another script ("МВт", "メガワット", "مگاوات"): CLDR's names.
    written = localized_unit_pattern().match(text, at)
    if written:
        found = localized_units().get(unit_key(written.group(0)))
        if found is None:  # a case ending the pattern allowed: look the name up without it
            key = unit_key(written.group(0))
            found = next((localized_units()[key[:-n]] for n in (1, 2, 3) if key[:-n] in localized_units()), None)
        if found is not None:
            return Decimal(found[0]), found[1], written.end()
    return Decimal(1), "", pos


def _scale_at(text: str, pos: int) -> tuple[tuple[int, ...], int]:
    """A scale word written from ``pos``: its multipliers and where it ends. A single letter
    scales only when glued to the figure ("5m", "$3B"), or before a currency symbol ("300 M€")."""
    gap = _SPACES.match(text, pos)
    at = gap.end() if gap else pos
    match = scale_pattern().match(text, at)
    if match is None:
        return (), pos
    key = scale_key(match.group())
    multipliers = scale_words().get(key) or scale_words().get(key + ".")
    if not multipliers:
        return (), pos
    end = match.end()
    if end < len(text) and text[end] == "." and (key + ".") in scale_words():
        end += 1
    if key.rstrip(".") in GLUED_ONLY and at > pos:
        codes, _, _ = _currency_token(text, end)
        if not codes:
            return (), pos
    if (
        key.rstrip(".") in GLUED_ONLY
        and end < len(text)
        and text[end].isalpha()
        and not _is_gapless(text[end])
    ):
        return (), pos  # "5mm", "5km": a unit, not a scale
    return tuple(sorted(multipliers)), end


def _lexicon_before(text: str, start: int, concept: str) -> bool:
    """Does a word of the concept end right before ``start`` (spaces allowed between)?"""
    head = text[max(0, start - 40) : start]
    pattern = area_lexicon("numbers").pattern(concept)
    return re.search(f"(?:{pattern.pattern})[ \u00a0\u202f-]*$", head, re.IGNORECASE) is not None


def _lexicon_after(text: str, end: int, concept: str) -> int:
    """Where a word of the concept written right after ``end`` ends; ``end`` when none."""
    gap = _SPACES.match(text, end)
    at = gap.end() if gap else end
    # Matched on the text after the number, so a word written straight after a digit
    # ("3분기", "12ページ") is not refused for the digit before it.
    match = area_lexicon("numbers").pattern(concept).match(text[at : at + 60])
    return at + match.end() if match else end


def _word_after(text: str, end: int) -> str:
    match = re.match(rf"{_GAP}*\.?{_GAP}*(?:de{_GAP}+|of{_GAP}+)?([^\W\d_]+)", text[end:])
    return match.group(1) if match else ""


def _month_after(text: str, end: int) -> bool:
    """A month name right after a day ("31 December", "31. Dezember", "12 de marzo", "31 Dec.
    2024"). An abbreviation counts only with its dot or a year after it: "out", "mar", "ago"
    are words too."""
    match = re.match(rf"\.?{_GAP}*(?:de{_GAP}+)?([^\W\d_]+)(\.?)({_GAP}*\d{{4}})?", text[end:])
    if match is None:
        return False
    return _is_month(match.group(1), abbreviated_ok=bool(match.group(2) or match.group(3)))


def _month_before(text: str, start: int) -> bool:
    """A month name right before a day ("December 31", "Dec. 31")."""
    match = re.search(rf"([^\W\d_]+)(\.?){_GAP}*$", text[max(0, start - 30) : start])
    return match is not None and _is_month(match.group(1), abbreviated_ok=bool(match.group(2)))


def _is_month(word: str, *, abbreviated_ok: bool) -> bool:
    """A month's name (CLDR, every WEB language: ``text.dates``); an abbreviation only when
    the writer marked it as one (a dot), since "mar" and "out" are words too."""
    key = currency_key(word)
    return key in wide_month_names() or (abbreviated_ok and key in abbreviated_month_names())


def _is_note_in_parentheses(text: str, start: int, end: int) -> bool:
    """A small integer alone in parentheses after a word or figure and right before a
    sentence's end (or the text's): how reports mark a note when superscripts are lost."""
    if end - start > 2 or start < 2 or text[start - 1] != "(" or text[end : end + 1] != ")":
        return False
    before = text[: start - 1].rstrip(" \u00a0")
    return bool(before) and not before[-1].isspace() and re.match(r"\s*(?:[.;。]|$)", text[end + 1 :]) is not None


def _role(text: str, number: WrittenNumber, body: str, glued_before: str) -> str:
    """What the number is in its text: a value, or a year, date, reference, label or note."""
    start, end = number.start, number.end
    plain_integer = number.scale == 1 and not number.percent and not number.currencies and not number.si_base
    integer = plain_integer and body.isdigit()
    after = text[end : end + 3]
    if glued_before:
        return LABEL  # "Q3", "FY2024", "H1", "COVID-19", "A320"
    if plain_integer and (_DATE_NUMERIC.fullmatch(_date_around(text, start, end)) is not None):
        return DATE
    if integer and _CJK_DATE_AFTER.match(after):
        return YEAR if _CJK_YEAR_AFTER.match(after) else DATE
    if integer and (_month_after(text, end) or _month_before(text, start)):
        return DATE
    if integer and len(body) == 4 and 1900 <= int(body) <= 2100:
        return YEAR
    if integer and len(body) <= 4 and (
        _lexicon_before(text, start, "year_before") or _lexicon_after(text, end, "year_after") > end
    ):
        return YEAR  # the word "year" beside it, in any calendar ("در سال ۱۴۰۲", "2024 yılında", "в 2024 году")
    if integer and len(body) in (2, 4) and _YEAR_RANGE_TAIL.search(text[max(0, start - 5) : end]):
        return YEAR  # "2024/25", "2024-2025"
    if not plain_integer:
        return VALUE
    if start > 0 and text[start - 1] == "[" and after[:1] == "]":
        return NOTE
    if _is_note_in_parentheses(text, start, end):
        return NOTE  # "... raised to 1.1 shekels (3)." : a note marker closing a sentence
    if _lexicon_before(text, start, "reference") or _lexicon_after(text, end, "reference_after") > end:
        return REFERENCE
    if _lexicon_before(text, start, "label") or _lexicon_after(text, end, "label_after") > end:
        return LABEL
    if _lexicon_before(text, start, "period") or _period_after(text, end):
        return LABEL  # a quarter or half ("3. Quartal", "quý 3")
    if re.match(r"[^\W\d_]", after) and not _is_gapless(after[0]):
        return LABEL  # an ordinal or a name glued to the figure ("3rd", "2e", "5G")
    if re.match(r"-[^\W\d_]{1,3}(?!\w)", after):
        return LABEL  # Russian and Ukrainian ordinals ("3-й", "5-го")
    if (
        re.match(r"\.[ \u00a0]+[^\W\d_]", after + text[end + 3 : end + 4])
        and text[end + 2 : end + 3].islower()
    ):
        return LABEL  # "3. kvartal", "2. miejsce": an ordinal before a lower-case noun
    return VALUE


def _period_after(text: str, end: int) -> bool:
    """A quarter or half word right after the number, past an ordinal mark ("3. Quartal",
    "3rd quarter" is caught as a glued ordinal)."""
    mark = re.match(r"\.?", text[end:])
    return _lexicon_after(text, end + (mark.end() if mark else 0), "period") > end + (
        mark.end() if mark else 0
    )


def _date_around(text: str, start: int, end: int) -> str:
    """The numeric date a figure is part of ("31.12.2026", "2026-12-31"), or ""."""
    for match in _DATE_NUMERIC.finditer(text[max(0, start - 11) : end + 11]):
        offset = max(0, start - 11)
        if match.start() + offset <= start and end <= match.end() + offset:
            return match.group()
    return ""


def _digits(text: str) -> list[WrittenNumber]:
    decimal_votes = _decimal_votes(text)
    decimal_mark = next(iter(decimal_votes)) if len(decimal_votes) == 1 else None
    found: list[WrittenNumber] = []
    for match in _DIGITS.finditer(text):
        start, body_end = match.start(), match.end()
        sign = match.group("sign")
        if sign and start > 0 and text[start - 1].isalnum():
            sign, start = None, start + 1  # "COVID-19", "ב-2024": a hyphen after a word is no minus
        before = text[max(0, start - 12) : start]
        glued = re.search(r"([^\W\d_]+)-?$", before) if not sign else None
        glued_before = ""
        if glued and not _is_gapless(glued.group(1)[-1]):
            letters = glued.group(1)
            hebrew_prefix = len(letters) <= 2 and all("\u0590" <= ch <= "\u05ff" for ch in letters)
            if not hebrew_prefix and not _currency_of(letters)[0] and letters.casefold() not in ("ke",):
                glued_before = letters
        scales, end = _scale_at(text, body_end)
        if scales and _si_at(text, body_end)[2] > end:
            # A unit name that begins like a scale word is the unit ("800兆瓦" is 800 MW, not
            # 800 x 10^12 watts; "メガワット" is no "メガ" scale).
            scales, end = (), body_end
        percent = False
        pct = re.match(f"{_GAP}?%", text[body_end:])
        if pct:
            percent, end, scales = True, body_end + pct.end(), ()
        elif not scales and _lexicon_after(text, body_end, "percent") > body_end:
            percent, end = True, _lexicon_after(text, body_end, "percent")
        if (start > 0 and text[start - 1] == "%") or _lexicon_before(text, start, "percent_before"):
            percent = True  # Turkish "%40", "yüzde 40"; Chinese "百分之40"
        codes, code_scale, _ = _currency_at(text, end)
        if codes:
            if code_scale != 1 and not scales:
                scales = (code_scale,)
        else:
            codes = _currency_before(text, start - (1 if sign else 0))
            if codes and glued_before:
                glued_before = ""
        si_prefix, si_base, _ = (Decimal(1), "", end) if (codes or percent) else _si_at(text, end)
        try:
            figures = _decimal(
                match.group("body"), match.group("sep"), decimal_mark=decimal_mark, scaled=bool(scales)
            )
        except InvalidOperation:
            continue
        if sign == "-":
            figures = tuple(-f for f in figures)
        number = WrittenNumber(
            figures[0],
            scales[0] if scales else 1,
            percent,
            start,
            end,
            figures[1:],
            currencies=codes,
            si_prefix=si_prefix,
            si_base=si_base,
            other_scales=tuple(scales[1:]),
        )
        role = _role(text, number, match.group("body"), glued_before)
        found.append(_with(number, role=role))
    return found


def _with(number: WrittenNumber, **changes: object) -> WrittenNumber:
    fields = {**number.__dict__, **changes}
    return WrittenNumber(**fields)  # type: ignore[arg-type]


# --- numbers and fractions in words -------------------------------------------------------------


def _words_value(words: str) -> Decimal | None:
    """ "three hundred" -> 300, "twenty-five" -> 25, "one and a half million" -> 1,500,000,
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


def _english_words(text: str) -> list[WrittenNumber]:
    found = []
    for match in _EN_WORDS.finditer(text):
        value = _words_value(match.group("words"))
        if value is not None:
            # "half", "a quarter": a fraction in words, compared as the fraction words of other
            # languages are ("half" is 50%, never 0.5%).
            fraction = value < 1 and value != 0
            found.append(
                WrittenNumber(
                    value, 1, bool(match.group("pct")), match.start(), match.end(), approximate=fraction
                )
            )
    return found


def _other_language_words(text: str) -> list[WrittenNumber]:
    """Numbers in words in the languages ``text_to_num`` reads ("drei Millionen", "trois cents",
    "dos mil"): each language's conversion is aligned back to the words it replaced, so a
    number keeps its place in the text. A lone small number ("un", "eine") is left as words
    by ``text_to_num`` itself: an article is not a value."""
    words = list(re.finditer(r"\S+", text))
    found: dict[tuple[int, int], WrittenNumber] = {}
    for lang in _languages_of(text):
        try:
            converted = alpha2digit(text, lang)
        except ValueError:
            continue
        if converted == text:
            continue
        new_words = converted.split()
        matcher = SequenceMatcher(a=[w.group() for w in words], b=new_words, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op != "replace" or j2 - j1 != 1:
                continue
            original = [w for w in words[i1:i2]]
            if not any(ch.isalpha() for w in original for ch in w.group()):
                continue
            digits = re.fullmatch(r"[^\d-]*(-?\d+(?:[.,]\d+)?)\D*", new_words[j1])
            if digits is None:
                continue
            start = original[0].start()
            end = original[-1].end()
            while end > start and not text[end - 1].isalnum():
                end -= 1
            value = Decimal(digits.group(1).replace(",", "."))
            percent = _lexicon_after(text, end, "percent") > end
            found.setdefault((start, end), WrittenNumber(abs(value), 1, percent, start, end))
    return list(found.values())


def _languages_of(text: str) -> tuple[str, ...]:
    """The number-word languages the text may be written in: those whose common function
    words ("der", "und"; "le", "et") it uses most (all when it uses none). Italian "sei" is
    six, German "sei" a verb: the German text's words keep the Italian reading out."""
    counts = {
        lang: len({m.group().casefold() for m in re.finditer(_function_words(lang), text)})
        for lang in ("en", *_WORD_LANGUAGES)
    }
    best = max(counts.values())
    return tuple(lang for lang in _WORD_LANGUAGES if counts[lang] == best)


@lru_cache(maxsize=16)
def _function_words(lang: str) -> re.Pattern[str]:
    entries = area_lexicon("numbers").entries["function_words"][lang]
    return re.compile("|".join(entry_pattern(e) for e in entries), re.IGNORECASE)


_FRACTIONS: Final[dict[str, Fraction]] = {
    "fraction_half": Fraction(1, 2),
    "fraction_third": Fraction(1, 3),
    "fraction_two_thirds": Fraction(2, 3),
    "fraction_quarter": Fraction(1, 4),
    "fraction_three_quarters": Fraction(3, 4),
}


def _fraction_words(text: str) -> list[WrittenNumber]:
    """Fractions in words in every web language ("two thirds", "die Hälfte", "un tiers",
    "三分之一"): read as the fraction, compared at the precision the claim writes."""
    lexicon = area_lexicon("numbers")
    found = []
    for concept, fraction in _FRACTIONS.items():
        for hit in lexicon.find(text, concept):
            value = Decimal(fraction.numerator) / Decimal(fraction.denominator)
            found.append(WrittenNumber(value, 1, False, hit.start, hit.end, approximate=True))
    return found


def _overlaps(number: WrittenNumber, taken: Iterable[WrittenNumber]) -> bool:
    return any(other.start < number.end and number.start < other.end for other in taken)


@lru_cache(maxsize=4096)
def _parse(text: str) -> tuple[WrittenNumber, ...]:
    plain = _plain(text)
    candidates = [
        *_digits(plain),
        *_fraction_words(plain),
        *_english_words(plain),
        *_other_language_words(plain),
    ]
    # Where two readings cover the same words the longer one stands: "3分の1" is one fraction,
    # not the numbers 3 and 1; "one and a half million" one number, not "a half".
    found: list[WrittenNumber] = []
    for number in sorted(candidates, key=lambda n: (n.start - n.end, n.start)):
        if not _overlaps(number, found):
            found.append(number)
    return tuple(sorted(found, key=lambda n: n.start))


def parse_numbers(text: str) -> list[WrittenNumber]:
    """Every number written in ``text``, in order, digits and words alike, each with its role
    (a value, a year, a date, a reference, a label or a note marker)."""
    return list(_parse(text))


def figure_value(written: str) -> float:
    """The value of one figure written in digits ("8,200", "13.1", "1,200,000"), as this
    reader reads it (its figure as written, without a scale word): for a caller that found
    the figure by its own pattern, so that the digits are still read by one reader."""
    numbers = _parse(written)
    if not numbers:
        raise ValueError(f"no number written in {written!r}")
    return float(numbers[0].as_written)


# --- the criteria's unit ---------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitReading:
    """What a criteria unit string names: its scale, whether it is a percentage, the currencies
    it can stand for, an SI unit, and any other words ("customers")."""

    scale: int = 1
    percent: bool = False
    currencies: frozenset[str] = frozenset()
    si_prefix: Decimal = Decimal(1)
    si_base: str = ""
    words: tuple[str, ...] = ()


_PERCENT_UNIT = re.compile(r"%|per\s?cent|percent|pct|percentage", re.IGNORECASE)


def is_percent_unit(unit: str) -> bool:
    """A unit that is a percentage ("%", "per cent", "percentage points", "Prozent")."""
    text = _plain(unit or "")
    return bool(_PERCENT_UNIT.search(text)) or area_lexicon("numbers").has(text, "percent")


@lru_cache(maxsize=1024)
def read_unit(unit: str) -> UnitReading:
    """The criteria's unit as the reader compares it ("DKK billion" -> scale 10^9, DKK;
    "GW" -> the watt at 10^9; "million customers" -> scale 10^6 and the word "customers")."""
    text = _plain(unit or "").strip()
    percent = is_percent_unit(text)
    scale = 1
    currencies: set[str] = set()
    si_prefix, si_base = Decimal(1), ""
    words: list[str] = []
    for token in re.findall(r"[^\s]+", text):
        bare = token.strip("().,")
        if not bare:
            continue
        key = scale_key(bare)
        multipliers = scale_words().get(key) or scale_words().get(key + ".")
        codes, code_scale = _currency_of(bare)
        si = _SI.fullmatch(bare)
        if multipliers and key not in GLUED_ONLY:
            scale *= min(multipliers)
        elif codes:
            currencies |= codes
            scale *= code_scale
        elif si:
            si_prefix, si_base = _SI_PREFIX[si.group("prefix")], si.group("base")
        elif _TONNE_WORDS.fullmatch(bare):
            si_base = "t"
        elif not percent and any(ch.isalpha() for ch in bare):
            words.append(bare.casefold())
    return UnitReading(scale, percent, frozenset(currencies), si_prefix, si_base, tuple(words))


def unit_scale(unit: str) -> int:
    """The multiplier a criteria unit carries ("DKK billion" -> 10**9, "GW" -> 1)."""
    return read_unit(unit).scale


# --- the comparison --------------------------------------------------------------------------------


def _close(a: Decimal, b: Decimal) -> bool:
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)


def _same_at_precision(claimed: Decimal, reading: Decimal) -> bool:
    """A fraction in words against a claimed figure: equal at the claim's written precision
    ("one third" is 33.3% and 0.33, not 0.3)."""
    if reading == claimed:
        return True
    exponent = claimed.normalize().as_tuple().exponent
    assert isinstance(exponent, int)
    places = max(0, -exponent)
    digits = len(claimed.normalize().as_tuple().digits)
    # One significant digit is a rounding, not a precision: 0.3 is not "one third".
    return digits >= 2 and abs(reading - claimed) <= Decimal(5) * Decimal(10) ** (-places - 1)


def _units_agree(number: WrittenNumber, want: UnitReading) -> bool:
    """The unit written beside the figure and the criteria's unit may stand for the same thing:
    a currency agrees with a currency it can be, an SI unit with the same base unit; when the
    text writes no unit beside the figure, the unit cannot disagree."""
    if number.currencies:
        if want.currencies:
            return bool(number.currencies & want.currencies)
        return not (want.si_base or want.percent or want.words)
    if number.si_base:
        if want.si_base:
            return number.si_base == want.si_base
        return not (want.currencies or want.percent or want.words)
    return True


def _number_bears(number: WrittenNumber, target: Decimal, want: UnitReading) -> bool:
    """Does this written number state the target in the criteria's unit (module docstring)?"""
    if not _units_agree(number, want):
        return False
    both_si = bool(number.si_base and want.si_base)
    goal = target * want.scale * (want.si_prefix if both_si else 1)
    unit_free = not (want.currencies or want.si_base or want.words or want.scale != 1)
    for figure in number.figures:
        figure = abs(figure)
        if number.percent:
            if want.percent:
                candidates = [figure] if number.scale == 1 else []
            elif want.currencies or want.si_base or want.scale != 1:
                candidates = []
            else:  # "72.4%" is 0.724 of a "share"; as written only when the criteria name no unit
                candidates = [figure / 100] + ([figure] if unit_free else [])
        elif want.percent:
            if number.currencies or number.si_base or number.scale != 1:
                candidates = []
            elif number.approximate:  # "half" is 50%, never 0.5%
                candidates = [figure * 100]
            else:
                candidates = [figure] + ([figure * 100] if _bare_fraction(number, figure) else [])
        else:
            candidates = [figure * s * (number.si_prefix if both_si else 1) for s in number.scales]
        for candidate in candidates:
            if number.approximate:
                if _same_at_precision(goal, candidate) or (
                    want.percent and _same_at_precision(goal, candidate * 100)
                ):
                    return True
            elif _close(candidate, goal):
                return True
    return False


def _counted_year(text: str, number: WrittenNumber, want: UnitReading) -> bool:
    """A figure that reads as a year but counts the criteria's own noun ("2000 employees" for
    a claim in employees) is a value."""
    after = _word_after(text, number.end).casefold()
    return bool(after) and any(after[:4] == word[:4] for word in want.words if len(word) >= 3)


ROLES: Final = (VALUE, YEAR, DATE, REFERENCE, LABEL, NOTE)


def value_written_in(value: float, text: str, *, unit: str = "", roles: Iterable[str] = (VALUE,)) -> bool:
    """Is ``value`` (in ``unit``) written in ``text`` in a common form? [V] T1 "72.4, 72.4% or
    0.724", issue 25 "A value is found only when figure, scale and unit all agree": the figure
    times its scale word equals the value times the unit's scale ("1.2 billion" is 1.2 in
    "DKK billion", 1200 in "million", never 1.2 in "" or "million"); a currency or SI unit
    beside the figure agrees with the unit's (SI prefixes convert: "1,200 MW" is 1.2 "GW"); a
    percentage is compared with a percentage ("0.5%" is never "50%"), or as a fraction with a
    unit that is not one ("72.4%" is 0.724 "share"), and a bare fraction ("0.724") with a
    percentage. A year, date, page or article reference, label or note marker is not a value.
    The sign is compared by magnitude: quotes carry it in words ("fell 3%") as often as with a
    minus sign. ``roles`` widens the search for a caller that asks whether the figure is
    written at all, in whatever role (``ROLES``)."""
    target = abs(Decimal(repr(float(value))))
    want = read_unit(unit)
    allowed = frozenset(roles)
    for number in _parse(text):
        if number.role == YEAR and _counted_year(_plain(text), number, want):
            number = _with(number, role=VALUE)
        if number.role in allowed and _number_bears(number, target, want):
            return True
    return False


def same_number_written(first: WrittenNumber, others: Iterable[WrittenNumber]) -> bool:
    """Does ``first`` stand for the same amount as one of ``others`` ("1.2 billion" and
    "1,200 million" do; "3,000" and "300" do not)?"""
    mine = {first.value, abs(first.value)} | ({abs(first.value) / 100} if first.percent else set())
    for other in others:
        theirs = {abs(other.value)} | ({abs(other.value) / 100} if other.percent else set())
        if any(_close(abs(a), b) for a in mine for b in theirs):
            return True
    return False
