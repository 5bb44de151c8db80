"""The one reader of dates and periods written in text, in the languages the subjects write.

Three rules read times from words: the deadline a promise's quote gives
(``claims.wording.deadline_in_words``), the period a factual claim is about
(``claims.criteria_reading.named_period_end``) and the times an evidence quote names
(``verdicts.outcome_wording.times_named_in``). Each had its own month table in ten European
languages; they now share this reader, whose month names come from CLDR through babel for
every language of ``text.lexicon.WEB_LANGUAGES`` (wide and abbreviated, the format forms —
the genitive "января", "stycznia", "ledna" — and the stand-alone ones), so a deadline written
"до конца 2026 года", "2026年6月までに" or "do 30. června 2027" is read the way "by the end of
2026" is.

What it finds (``find_dates``), each as the span of time it names:
- a day: "2027-01-01", "31.12.2026", "31/12/2026", "31 December 2026", "31. december 2026",
  "31 de diciembre de 2026", "December 31, 2026", "2026年12月31日", "2026년 12월 31일",
  "ngày 31 tháng 12 năm 2026";
- a month: "June 2027", "juin 2027", "czerwca 2027", "2027年6月", "tháng 6 năm 2027";
- a quarter or half: "Q3 2026", "3Q 2026", "third quarter of 2026", "3. kvartal 2026", "H1 2026";
- a year: "2026", "2026年", "2026년", "FY2026" is not a calendar period and is not read.
"The end of" a period ("by the end of 2026", "udgangen af", "Ende", "fin", "конца", "年末",
"년 말", "sonu") marks a point at its last day (``DateMention.end_of``).
"""

from __future__ import annotations

import calendar
import functools
import re
from dataclasses import dataclass
from datetime import date
from typing import Final, Literal

from babel import Locale

from reliability_core.text.lexicon import WEB_LANGUAGES, area_lexicon, normalise_for_lexicon

Precision = Literal["day", "month", "quarter", "half", "year"]


@dataclass(frozen=True)
class DateMention:
    """One time written in a text: where it stands, the first and last day it covers, and
    whether the words name the end of it ("by the end of June 2027")."""

    start: int
    end: int
    first: date
    last: date
    precision: Precision
    end_of: bool = False

    @property
    def point(self) -> date:
        """The day the words point at: the last day for "the end of", else the first."""
        return self.last if self.end_of else self.first


@functools.cache
def month_names() -> dict[str, int]:
    """Every month name of the WEB languages, casefolded, without a trailing dot -> month
    number (CLDR through babel). Names that carry a digit ("6月", "tháng 6") are read by the
    numeric patterns instead. No name stands for two months in two languages (checked by
    a test), so one table serves all."""
    names: dict[str, int] = {}
    for lang in WEB_LANGUAGES:
        locale = Locale.parse(lang)
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                for number, name in locale.months[context][width].items():
                    key = name.casefold().rstrip(".")
                    if key and not any(ch.isdigit() for ch in key):
                        names.setdefault(key, number)
    return names


def month_number(word: str) -> int | None:
    """The month a written name stands for ("Juni", "juin", "июня", "Okt.") or None."""
    return month_names().get(word.casefold().rstrip("."))


@functools.cache
def wide_month_names() -> frozenset[str]:
    """The full month names of every WEB language, casefolded ("december", "декабря")."""
    wide: set[str] = set()
    for lang in WEB_LANGUAGES:
        locale = Locale.parse(lang)
        for context in ("format", "stand-alone"):
            wide |= {n.casefold().rstrip(".") for n in locale.months[context]["wide"].values()}
    return frozenset(name for name in wide if name in month_names())


@functools.cache
def abbreviated_month_names() -> frozenset[str]:
    """The abbreviations that are not also a full name ("dec", "dez", "дек"): often a word
    too ("mar", "out"), so a reader accepts one only as the writer marks it."""
    return frozenset(name for name in month_names() if name not in wide_month_names())


@functools.cache
def _english_abbreviations() -> frozenset[str]:
    months = Locale.parse("en").months["format"]["abbreviated"].values()
    return frozenset(name.casefold() for name in months)


def _month_ok(written: str) -> bool:
    """An abbreviated month counts with its dot ("Okt. 2026", "out. 2026", "sept. 2026");
    without it only as English writes it, capitalised ("Oct 2026"): undotted "out", "set",
    "sie", "ago" and "Sie" are words of other languages. A full name counts as written."""
    key = written.casefold().rstrip(".")
    if key not in abbreviated_month_names():
        return True
    return written.endswith(".") or (written[:1].isupper() and key in _english_abbreviations())


_YEAR: Final = r"(?:19|20)\d\d"
_DAY: Final = r"[0-3]?\d"
# "the end of" in each language: before the period ...
_END_BEFORE: Final = (
    r"(?:(?:by|at|before|until)\s+)?(?:the\s+)?(?:end|close)\s+of|year[- ]end|end-|"
    # "by", "until", "no later than": the time is a limit, so the words point at its last day.
    r"by|until|till|no\s+later\s+than|bis(?:\s+spätestens)?|spätestens|senest|inden|innen|senast|"
    r"d['’]ici|au\s+plus\s+tard(?:\s+en)?|hasta|a\s+más\s+tardar(?:\s+en)?|entro|uiterlijk|até|"
    r"до|к|do|najpóźniej\s+do|nejpozději\s+do|en\s+geç|paling\s+lambat|selambat-lambatnya|hingga|"
    r"chậm\s+nhất|עד|بحلول|حتى|تا|"
    r"udgangen\s+af|slutningen\s+af|ultimo|utgangen\s+av|slutten\s+av|slutet\s+av|utgången\s+av|"
    r"ende|jahresende|eind(?:e)?(?:\s+van)?|d['’]ici(?:\s+la)?\s+fin\s+(?:de\s+)?|(?:la\s+)?fin\s+(?:de\s+)?|"
    r"finales\s+de|final\s+de|fim\s+de|(?:la\s+)?fine\s+(?:del?\s+)?|"
    r"конц[ае]|к\s+концу|до\s+конца|кінц[яі]|до\s+кінця|końca|do\s+końca|konce|do\s+konce|"
    r"cuối|akhir|sonuna|pada\s+akhir|סוף|בסוף|עד\s+סוף|نهاية|بنهاية|بحلول\s+نهاية|پایان"
)
# ... and after it (languages that put it behind the year: "2026年末", "2026년 말", "2026 sonu").
_END_AFTER: Final = (
    r"年末|年底|底|末|\s*말|(?:\s+yılı(?:nın)?)?\s+sonu(?:na|nda)?|"
    r"(?:までに|まで)|\s*까지|['’]?(?:y?[ae])?\s*kadar"
)

def _month_group(name: str) -> str:
    """A month name of any WEB language (a Hebrew one may carry its attached "in"/"to")."""
    names = "|".join(sorted((re.escape(n) for n in month_names()), key=len, reverse=True))
    return rf"(?:[בל]-?)?(?P<{name}>(?:{names})\.?)(?!\w)"


@functools.cache
def _pattern() -> re.Pattern[str]:
    """Compiled on first use: the month names come from babel's locale data."""
    return re.compile(_pattern_source(), re.IGNORECASE)


def _pattern_source() -> str:
    return (
    rf"(?P<endb>(?:(?<!\w)(?:{_END_BEFORE})\s*)+)?"
    r"(?:"
    # 2026-12-31, 2026/12/31
    rf"(?<!\d)(?P<iy>{_YEAR})[-/.](?P<im>[01]?\d)[-/.](?P<id>{_DAY})(?!\d)"
    # 31.12.2026, 31/12/2026 (12/31/2026 when the second number cannot be a month)
    rf"|(?<![\d.])(?P<nd>{_DAY})[./](?P<nm>{_DAY})[./](?P<ny>{_YEAR})(?!\d)"
    # 2026年12月31日, 2026년 12월 31일, 2026年12月
    rf"|(?P<cy>{_YEAR})\s*[年년]\s*(?P<cm>[01]?\d)\s*[月월](?:\s*(?P<cd>{_DAY})\s*[日일])?"
    # ngày 31 tháng 12 năm 2026, tháng 12 năm 2026, tháng 12/2026
    rf"|(?:ngày\s+(?P<vd>{_DAY})\s+)?tháng\s+(?P<vm>[01]?\d)(?:\s+năm\s+|\s*/\s*)(?P<vy>{_YEAR})"
    # Q3 2026, 3Q 2026, H1 2026, 1H 2026, Q3/2026, 3Q26 is not read (a two-digit year)
    rf"|(?<!\w)(?:Q(?P<q>[1-4])|(?P<q2>[1-4])Q|H(?P<h>[12])|(?P<h2>[12])H)\s*[-/]?\s*(?P<qy>{_YEAR})"
    # third quarter of 2026, 3. kvartal 2026, 3. Quartal 2026, 1. halvår 2026
    rf"|(?<!\w)(?:the\s+)?(?P<qw>first|second|third|fourth)\s+quarter\s+(?:of\s+)?(?P<qwy>{_YEAR})"
    rf"|(?<!\w)(?P<qn>[1-4])\.\s*(?:kvartal|quartal|kwartaal)\s+(?:\w+\s+)?(?P<qny>{_YEAR})"
    rf"|(?<!\w)(?P<hn>[12])\.\s*(?:halvår|halbjahr|halvåret)\s+(?:\w+\s+)?(?P<hny>{_YEAR})"
    # 31 December 2026, 31. december 2026, 31 de diciembre de 2026, 31 декабря 2026 года
    rf"|(?<![\d.])(?P<dd>{_DAY})(?:\.|er|st|nd|rd|th|-?го|-?е)?\s*(?:de\s+|of\s+)?{_month_group('dm')}"
    rf"\s*(?:de\s+|del\s+|,\s*)?(?P<dy>{_YEAR})"
    # December 31, 2026
    rf"|(?<!\w){_month_group('md_m')}\s+(?P<md_d>{_DAY})(?:st|nd|rd|th)?,?\s+(?P<md_y>{_YEAR})"
    # June 2027, juin 2027, czerwca 2027, June of 2027
    rf"|(?<!\w){_month_group('mm')}\s+(?:de\s+|of\s+|del\s+)?(?P<my>{_YEAR})"
    # a year: 2026, 2026年, 2026년, 2026 года, not FY2026 or 2026/27's first half
    rf"|(?<![0-9A-Za-z.,/-])(?P<yy>{_YEAR})(?:\s*[年년])?(?![\d/]|[.,]\d)"
    r")"
    rf"(?P<enda>{_END_AFTER})?"
    )

_QUARTER_WORDS: Final = {"first": 1, "second": 2, "third": 3, "fourth": 4}


def _last_day(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _mention(match: re.Match[str]) -> DateMention | None:
    g = match.groupdict()
    end_of = bool(g["endb"] or g["enda"])
    try:
        if g["iy"]:
            day = date(int(g["iy"]), int(g["im"]), int(g["id"]))
            return DateMention(match.start(), match.end(), day, day, "day", end_of)
        if g["nd"]:
            d, m = int(g["nd"]), int(g["nm"])
            if m > 12 >= d:  # written month first (12/31/2026)
                d, m = m, d
            day = date(int(g["ny"]), m, d)
            return DateMention(match.start(), match.end(), day, day, "day", end_of)
        if g["cy"] or g["vy"]:
            year, month = (int(g["cy"]), int(g["cm"])) if g["cy"] else (int(g["vy"]), int(g["vm"]))
            d_text = g["cd"] or g["vd"]
            if d_text:
                day = date(year, month, int(d_text))
                return DateMention(match.start(), match.end(), day, day, "day", end_of)
            return DateMention(match.start(), match.end(), date(year, month, 1), _last_day(year, month), "month",
                               end_of)  # fmt: skip
        for month_key, day_key, year_key in (("dm", "dd", "dy"), ("md_m", "md_d", "md_y")):
            if g[month_key]:
                named = month_number(g[month_key])
                if named is None or not _month_ok(g[month_key]):
                    return None
                day = date(int(g[year_key]), named, int(g[day_key]))
                return DateMention(match.start(), match.end(), day, day, "day", end_of)
        if g["mm"]:
            named = month_number(g["mm"])
            if named is None or not _month_ok(g["mm"]):
                return None
            year = int(g["my"])
            return DateMention(match.start(), match.end(), date(year, named, 1), _last_day(year, named), "month",
                               end_of)  # fmt: skip
        quarter = g["q"] or g["q2"] or g["qn"] or (str(_QUARTER_WORDS[g["qw"].lower()]) if g["qw"] else None)
        if quarter:
            year = int(g["qy"] or g["qwy"] or g["qny"])
            q = int(quarter)
            return DateMention(match.start(), match.end(), date(year, 3 * q - 2, 1), _last_day(year, 3 * q),
                               "quarter", end_of)  # fmt: skip
        half = g["h"] or g["h2"] or g["hn"]
        if half:
            year = int(g["qy"] or g["hny"])
            h = int(half)
            return DateMention(match.start(), match.end(), date(year, 6 * h - 5, 1), _last_day(year, 6 * h),
                               "half", end_of)  # fmt: skip
        year = int(g["yy"])
        return DateMention(match.start(), match.end(), date(year, 1, 1), date(year, 12, 31), "year", end_of)
    except ValueError:  # 31 February, month 13: not a date
        return None


def find_dates(text: str) -> list[DateMention]:
    """Every time ``text`` names, in order, each read once (module docstring for the forms).
    A match whose month word is not a month ("in Paris 2026") is read again from after that
    word, so the year behind it is still found."""
    found: list[DateMention] = []
    position = 0
    while position < len(text):
        match = _pattern().search(text, position)
        if match is None:
            break
        mention = _mention(match)
        if mention is not None:
            found.append(mention)
            position = match.end()
            continue
        # Not a date as matched (a word before a year that is no month): read on from the
        # first digit after the match's start, so "in Paris 2026" still yields 2026.
        digit = re.search(r"\d", text[match.start() + 1 :])
        position = match.start() + 1 + (digit.start() if digit else len(text))
    return found


def date_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` writes a day or a month (not a bare year): a number inside one is part
    of a date, never a figure of the claim."""
    return [(m.start, m.end) for m in find_dates(text) if m.precision in ("day", "month")]


# Words a rule may find between a time and the word that qualifies it ("by the year 2025",
# "since the end of 2015", "depuis l'année 2019").
_BETWEEN: Final = (
    r"(?:(?:the|a|end\s+of|den|det|dem|der|das|le|la|les|l'|el|los|il|lo|o|a|de|del|dia|year|fiscal\s+year|"
    r"financial\s+year|året|jahr|jahres|l'année|année|el\s+año|año|l'anno|anno|het\s+jaar|jaar|o\s+ano|ano|"
    r"roku|rok|года|году|год|року|році|tahun|năm)\s+)*"
)


@functools.cache
def _before_pattern(concept: str) -> re.Pattern[str]:
    alternation = area_lexicon("dates").pattern(concept).pattern
    return re.compile(rf"(?:{alternation})[\s\u00a0\-–]*{_BETWEEN}$", re.IGNORECASE)


@functools.cache
def _after_pattern(concept: str) -> re.Pattern[str]:
    alternation = area_lexicon("dates").pattern(concept).pattern
    return re.compile(rf"[\s\u00a0]*(?:{alternation})", re.IGNORECASE)


def said_before(text: str, mention: DateMention, concept: str) -> bool:
    """Do the words just before the time say ``concept`` (lexicon area ``dates``:
    ``deadline_before``, ``before_before``, ``baseline_before``) in any language?"""
    window = normalise_for_lexicon(text[max(0, mention.start - 60) : mention.start])
    return _before_pattern(concept).search(window) is not None


def said_after(text: str, mention: DateMention, concept: str) -> bool:
    """Do the words just after the time say ``concept`` (``deadline_after``,
    ``before_after``, ``baseline_after``)?"""
    window = normalise_for_lexicon(text[mention.end : mention.end + 40])
    return _after_pattern(concept).match(window) is not None
