"""The locale data the number reader needs, taken from CLDR through ``babel`` (issue 25, T1):
scale words and abbreviations (CLDR's compact decimal formats, short and long: "mia.", "Mrd.",
"milliards", "mil millones", "млрд", "億", "억"), currency codes, symbols and names, and month
names (a figure beside a month is a day of a date, not a value).

Read once per process from the locales of ``text.lexicon.WEB_LANGUAGES`` plus a few regional
locales whose forms differ from the language's default (Indian English "lakh"/"crore",
European Portuguese "mil milhões", traditional Chinese "萬"/"億"). Only forms CLDR does not
carry are added by hand, each with the reason beside it.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Final

from babel import Locale
from babel.numbers import get_territory_currencies
from babel.units import format_unit, get_unit_name

from reliability_core.text.compiled_patterns import compile_patterns
from reliability_core.text.lexicon import WEB_LANGUAGES, compiled_store

_REGIONAL_LOCALES: Final = ("en_IN", "pt_PT", "zh_Hant", "fr_CH", "de_CH", "es_MX")

# Scale forms CLDR's compact formats do not carry, though newsrooms and company reports write
# them. Each says why it is here.
_HAND_SCALES: Final[dict[str, int]] = {
    "hundred": 10**2,  # English number words ("3 hundred"): CLDR starts compact forms at 10^3
    "dozen": 12,  # English counting word
    "mn": 10**6,  # English financial press ("$3mn"); CLDR English has only "M"
    "bn": 10**9,  # English financial press ("€1.2bn")
    "tn": 10**12,  # English financial press
    "m": 10**6,  # English "$5m" (glued only: "5 m" is five metres)
    "b": 10**9,  # English "$5b" (glued only)
    "millions": 10**6,  # English plurals ("millions of", "2 millions" in French is CLDR)
    "billions": 10**9,
    "trillions": 10**12,
    "lakhs": 10**5,  # Indian English plural; CLDR en_IN has the singular only
    "crores": 10**7,
    "tsd": 10**3,  # German reports' "Tsd. €" (CLDR German has no short thousand)
    "mds": 10**9,  # French press plural of "Md" ("3 Mds €")
    "millardo": 10**9,  # Spanish (RAE) word for 10^9, absent from CLDR's patterns
    "millardos": 10**9,
    "tỉ": 10**9,  # Vietnamese spelling variant of "tỷ"
    "مليارات": 10**9,  # Arabic plural of "مليار" (CLDR gives the plural for millions only)
    "千": 10**3,  # Chinese and Japanese: CLDR's compact forms start at 万
    "百万": 10**6,
    "千万": 10**7,
    "十亿": 10**9,  # Chinese financial writing ("十亿美元")
    "百亿": 10**10,
    "千亿": 10**11,
    "백만": 10**6,  # Korean: CLDR has 천, 만, 억, 조 only
    "천만": 10**7,
    "십억": 10**9,
}
# CLDR forms that are read as something else when they stand beside a figure: Danish short
# "t" (tusind) is tonnes, Vietnamese short "N" (nghìn) is newtons.
_NOT_SCALES: Final = frozenset({"t", "n", "mm"})  # "mm" (pt-PT "mM", mil milhões) is millimetres
# A single Latin letter scales only when glued to the figure ("5m", "$3B"): "5 m" is five
# metres, "5 T" five tesla. "mi" too (miles).
GLUED_ONLY: Final = frozenset({"k", "m", "b", "t", "l", "mi"})


def _locales() -> list[Locale]:
    return [Locale.parse(code) for code in (*WEB_LANGUAGES, *_REGIONAL_LOCALES)]


def scale_key(token: str) -> str:
    """The form a scale token is looked up in: NFC, case folded, spaces as one space."""
    return " ".join(unicodedata.normalize("NFC", token).casefold().split())


def _compact_token(pattern: str) -> tuple[str, int] | None:
    """The word of a compact pattern ("0\u00a0mia'.'" -> "mia.") and its count of zeros."""
    zeros = pattern.count("0")
    text = pattern.replace("'", "").replace("\u200f", "").replace("\u200e", "").replace("0", " ")
    token = scale_key(text.replace("\u00a0", " ").replace("\u202f", " ").replace("¤", " "))
    return (token, zeros) if token and zeros else None


@functools.cache
def scale_words() -> dict[str, frozenset[int]]:
    """Every scale word or abbreviation (its ``scale_key``) and its multipliers. A form two
    languages read differently keeps the English reading when English has it ("billion" is
    10^9 in English, 10^12 in French and German; the criteria and most quotes are English) and
    all readings otherwise (Czech "mil." is a million, Spanish "mil" a thousand)."""
    found: dict[str, dict[str, int]] = {}
    for locale in _locales():
        for width in ("short", "long"):
            for forms in (locale.compact_decimal_formats.get(width) or {}).values():
                for magnitude, pattern in forms.items():
                    parsed = _compact_token(pattern.pattern)
                    if parsed is None:
                        continue
                    token, zeros = parsed
                    multiplier = int(magnitude) // 10 ** (zeros - 1)
                    if multiplier > 1:
                        found.setdefault(token, {}).setdefault(str(locale.language), multiplier)
    for token, multiplier in _HAND_SCALES.items():
        found.setdefault(scale_key(token), {}).setdefault("hand", multiplier)
    table: dict[str, frozenset[int]] = {}
    for token, by_language in found.items():
        if token.rstrip(".") in _NOT_SCALES:
            continue
        # English CLDR first, then the hand-added forms (English press abbreviations).
        english = by_language.get("en") or by_language.get("hand")
        table[token] = frozenset({english}) if english else frozenset(by_language.values())
    return table


@functools.cache
def scale_pattern() -> re.Pattern[str]:
    """One alternation of every scale word, longest first, for the reader to try right after
    a figure. A word ending in a letter of a spaced script needs a boundary after it."""
    parts = []
    for token in sorted(scale_words(), key=len, reverse=True):
        body = r"[\s\u00a0\u202f]+".join(re.escape(word) for word in token.split())
        last = token[-1]
        needs_boundary = last.isalnum() and not _no_word_gaps(last)
        parts.append(body + (r"(?!\w)" if needs_boundary else ""))
    return re.compile("|".join(parts), re.IGNORECASE)


def _no_word_gaps(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith(("CJK", "HIRAGANA", "KATAKANA", "HANGUL"))


# Currency marks CLDR does not give as a symbol though they are how the currency is written
# beside a figure: the Japanese and Chinese characters, Turkish "TL", the Korean "원", the
# Russian and Ukrainian abbreviations, the Iranian toman.
_HAND_CURRENCIES: Final[dict[str, frozenset[str]]] = {
    "円": frozenset({"JPY"}),
    "元": frozenset({"CNY"}),
    "人民币": frozenset({"CNY"}),
    "美元": frozenset({"USD"}),
    "欧元": frozenset({"EUR"}),
    "ユーロ": frozenset({"EUR"}),
    "ドル": frozenset({"USD"}),
    "원": frozenset({"KRW"}),
    "달러": frozenset({"USD"}),
    "유로": frozenset({"EUR"}),
    "TL": frozenset({"TRY"}),
    "руб": frozenset({"RUB"}),
    "грн": frozenset({"UAH"}),
    "تومان": frozenset({"IRR"}),
    "ریال": frozenset({"IRR"}),
    "kr": frozenset({"DKK", "SEK", "NOK", "ISK"}),
    "$": frozenset({"USD", "CAD", "AUD", "NZD", "MXN", "HKD", "SGD"}),
}


# Languages whose currency names put the noun first ("dólares estadounidenses", "złoty polski",
# "دولار أمريكي"): there the first word alone names the currency; elsewhere it is an adjective.
_NOUN_FIRST: Final = frozenset({"es", "fr", "pt", "it", "pl", "id", "ar", "fa", "he"})


def currency_key(token: str) -> str:
    """The form a currency token is looked up in: NFC, case folded, trailing dots dropped."""
    return " ".join(unicodedata.normalize("NFC", token).casefold().split()).rstrip(".")


@functools.cache
def currency_words() -> dict[str, frozenset[str]]:
    """Every currency symbol and name (its ``currency_key``) and the ISO codes it can stand
    for: "kr." -> DKK, SEK, NOK; "€" and "euros" -> EUR; "zł" -> PLN. The codes themselves are
    read by ``currency_codes``, short Latin symbols by ``short_currency_symbols``. Names are
    the CLDR singular and plural display names, whole and by their noun ("danske kroner",
    "kroner")."""
    return _currency_tables()[0]


@functools.cache
def short_currency_symbols() -> dict[str, frozenset[str]]:
    """Currency symbols of one to three Latin letters ("kr", "Rp", "Rs", "TL"), matched in the
    case CLDR writes them: in any case they are words ("um" is Portuguese for "a")."""
    return _currency_tables()[1]


def _currency_tables() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    table: dict[str, set[str]] = {}
    short: dict[str, set[str]] = {}
    codes = currency_codes()

    def add(token: str, code: str, *, symbol: bool) -> None:
        key = currency_key(token)
        if not key or key.upper() in codes:
            return  # the code itself: read by ``currency_codes`` in capitals
        if key.isascii() and key.isalpha() and len(key) <= 3:
            if symbol and len(key) > 1:  # a lone letter ("R", "K") is a letter more often than money
                short.setdefault(token.strip().rstrip("."), set()).add(code)
            return
        table.setdefault(key, set()).add(code)

    for locale in _locales():
        for code, symbol in locale.currency_symbols.items():
            if code in codes:
                add(symbol, code, symbol=True)
        names = locale._data["currency_names_plural"]
        for code in codes:
            forms = [locale.currencies.get(code, "")]
            plural = names.get(code)
            if plural is not None:
                forms.extend(str(v) for v in plural.values())
            for form in forms:
                if not form or form == code:
                    continue
                add(form, code, symbol=False)
                words = form.split()
                if len(words) > 1:
                    add(words[-1], code, symbol=False)
                    if locale.language in _NOUN_FIRST:
                        add(words[0], code, symbol=False)
    for token, hand_codes in _HAND_CURRENCIES.items():
        for code in hand_codes:
            add(token, code, symbol=True)
    return (
        {key: frozenset(value) for key, value in table.items()},
        {key: frozenset(value) for key, value in short.items()},
    )


@functools.cache
def currency_codes() -> frozenset[str]:
    """The ISO 4217 codes of the currencies in use today (CLDR's territory currencies that are
    legal tender), written in capitals beside a figure: "DKK 28 billion"."""
    codes: set[str] = set()
    for territory in Locale.parse("en").territories:
        try:
            codes.update(get_territory_currencies(str(territory), tender=True))
        except (KeyError, ValueError):  # a region code (001, 150) has no currency of its own
            continue
    return frozenset(code for code in codes if len(code) == 3 and code.isalpha())


# --- SI units written out in each language ---------------------------------------------------------

# The CLDR units the reader compares (prefix multiplier, base symbol as ``text.numbers`` writes
# it): a plant's "900 МВт", "400メガワット", "۳۰۰ مگاوات" is in megawatts whatever the script.
_CLDR_UNITS: Final[dict[str, tuple[int, str]]] = {
    "power-watt": (1, "W"),
    "power-kilowatt": (10**3, "W"),
    "power-megawatt": (10**6, "W"),
    "power-gigawatt": (10**9, "W"),
    "energy-kilowatt-hour": (10**3, "Wh"),
    "mass-gram": (1, "g"),
    "mass-kilogram": (10**3, "g"),
    "mass-tonne": (1, "t"),
}
_NUMBER_IN_FORMAT = re.compile(r"[\d\u0660-\u0669\u06f0-\u06f9][\d\u0660-\u0669\u06f0-\u06f9.,\u066b\u066c\u00a0\u202f]*")


def unit_key(token: str) -> str:
    """The form a written unit is looked up in: NFC, case folded, no spaces or hyphens
    ("ميغا واط" and "ميغاواط", "киловатт-часов" and "киловатт часов" are one)."""
    return re.sub(r"[\s\-\u00a0\u202f\u2011]+", "", unicodedata.normalize("NFC", token).casefold())


@functools.cache
def localized_units() -> dict[str, tuple[int, str]]:
    """Every written name and symbol of the units above in the web languages (CLDR long,
    short and narrow forms, each plural category's form), keyed by ``unit_key``. Latin
    symbols of three letters or fewer ("MW", "kWh", "t") are left to the reader's own SI
    pattern, which knows when "m" or "t" is a unit."""
    names: dict[str, tuple[int, str]] = {}
    for locale in _locales():
        for unit, reading in _CLDR_UNITS.items():
            for length in ("long", "short", "narrow"):
                forms: set[str] = set()
                try:
                    forms.add(get_unit_name(unit, length=length, locale=locale) or "")
                    for count in (1, 2, 3, 5, 11, 21, 100, 1.5):
                        forms.add(_NUMBER_IN_FORMAT.sub("", format_unit(count, unit, length=length, locale=locale)))
                except (KeyError, ValueError):
                    continue
                for form in forms:
                    key = unit_key(form.strip())
                    if not key or (key.isascii() and len(key) <= 3):
                        continue
                    names.setdefault(key, reading)
    return names


@functools.cache
def localized_unit_pattern() -> re.Pattern[str]:
    """The names of ``localized_units`` as one pattern matched right after a figure: spaces and
    hyphens inside a name are optional, and a long name may carry a short case ending
    ("мегаваттами")."""
    alternatives = []
    for key in sorted(localized_units(), key=lambda k: (-len(k), k)):  # one order in every process
        body = r"[\s\-\u00a0\u202f\u2011]*".join(re.escape(ch) for ch in key)
        ending = r"\w{0,3}" if len(key) >= 5 and not _no_word_gaps(key[-1]) else ""
        boundary = "" if _no_word_gaps(key[-1]) else r"(?!\w)"
        alternatives.append(f"{body}{ending}{boundary}")
    # A fifth of a second to compile in every process: kept on disk, checked by hash (the
    # names come from the installed babel's CLDR data, so a new babel compiles anew).
    pattern = "|".join(alternatives)
    return compile_patterns({"units": pattern}, re.IGNORECASE, compiled_store("numbers.units"))["units"]
