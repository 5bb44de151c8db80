"""Readings of a text that undo common disguises, so the screen reads what a model reads.

A model reads "i g n o r e", "1gn0re", "ignоre" (with a Cyrillic о) and a base64 run as the
words they spell; a character n-gram screen and a rule do not. Each function here gives the
text as a model would read it when, and only when, the text carries that disguise: letters
spaced out or split by punctuation, digits and symbols standing for letters inside words,
Cyrillic or Greek look-alike letters mixed into Latin words, and base64 runs that decode to
readable text. The screen scores these readings as well as the text itself (``steering``):
a reading is only ever an extra chance to find an attempt, never a reason to drop one.
These are classes of disguise, not lists of attack words, so they hold in any language
written in the scripts concerned.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from dataclasses import dataclass

# Four or more single letters, each followed by one separator ("i g n o r e", "I.G.N.O.R.E",
# "i-g-n-o-r-e"), as one run; a word split by one kind of separator reads as the word.
# Not "/": a URL path is letters between slashes.
_SPACED_LETTERS = re.compile(r"(?<![^\W\d_])(?:[^\W\d_][ .\-_*·|]){3,}[^\W\d_](?![^\W\d_])")
_SEPARATORS = re.compile(r"[ .\-_*·|]")

# Digits and symbols that stand for letters inside a word ("1gn0re", "v3r1f13d", "tru$ted").
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i"})
_MIXED_TOKEN = re.compile(r"[\w@$!]+")
_LEET_INTERIOR = re.compile(r"[^\W\d_][013457@$!]+[^\W\d_]")
_LEET_MAX_CHARS = 20

# Cyrillic and Greek letters that look like Latin ones (Unicode's confusables, the common
# ones): in a word that also has Latin letters they are read as the Latin letter.
_CONFUSABLE = str.maketrans(
    {
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j",
        "ѕ": "s", "ԁ": "d", "һ": "h", "ӏ": "l", "к": "k", "м": "m", "т": "t", "в": "b", "н": "h",
        "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
        "Т": "T", "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S",
        "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "τ": "t", "υ": "u", "χ": "x",
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
        "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    }
)  # fmt: skip
_WORD = re.compile(r"\w+")

# A base64 run long enough to carry a sentence (16 characters decode to 12 bytes).
_BASE64_RUN = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/=_-])")
_DECODED_MIN_WORDS = 3
_DECODED_MIN_LETTER_SHARE = 0.7


@dataclass(frozen=True)
class Reading:
    """``text`` read without one disguise; ``span``: where the disguised part is in the
    original (the first such part, for readings of the whole text)."""

    disguise: str
    text: str
    span: tuple[int, int]


def _script(char: str) -> str:
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0] if name else ""


def spaced_letters(text: str) -> Reading | None:
    first = _SPACED_LETTERS.search(text)
    if first is None:
        return None
    joined = _SPACED_LETTERS.sub(lambda m: _SEPARATORS.sub("", m.group(0)), text)
    return Reading("spaced_letters", joined, first.span())


def leetspeak(text: str) -> Reading | None:
    first: tuple[int, int] | None = None

    def undo(match: re.Match[str]) -> str:
        nonlocal first
        token = match.group(0)
        # A word with stand-ins between two of its letters ("1gn0re", "v3r1f13d"), not a
        # number with a unit ("10th", "5G"), a code of capitals and digits ("COVID19",
        # "A4") or an encoded run (base64 has its own reading): those are left as written.
        if not 4 <= len(token) <= _LEET_MAX_CHARS or token.isupper() or not _LEET_INTERIOR.search(token):
            return token
        if first is None:
            first = match.span()
        return token.translate(_LEET)

    read = _MIXED_TOKEN.sub(undo, text)
    return Reading("leetspeak", read, first) if first is not None and read != text else None


def confusable_letters(text: str) -> Reading | None:
    first: tuple[int, int] | None = None

    def undo(match: re.Match[str]) -> str:
        nonlocal first
        word = match.group(0)
        scripts = {_script(c) for c in word if c.isalpha()}
        if "LATIN" in scripts and scripts & {"CYRILLIC", "GREEK"}:
            if first is None:
                first = match.span()
            return word.translate(_CONFUSABLE)
        return word

    read = _WORD.sub(undo, text)
    return Reading("confusable_letters", read, first) if first is not None else None


def base64_runs(text: str) -> list[Reading]:
    """Each base64 run that decodes to readable text of a few words."""
    readings: list[Reading] = []
    for match in _BASE64_RUN.finditer(text):
        run = match.group(0)
        if run.isalpha() or run.isdigit():  # a long word or number, not an encoding
            continue
        try:
            raw = base64.b64decode(run + "=" * (-len(run) % 4), altchars=b"-_" if "-" in run or "_" in run else None)
            decoded = raw.decode("utf-8")
        except (binascii.Error, ValueError):
            continue
        letters = sum(c.isalpha() or c.isspace() for c in decoded)
        if len(decoded.split()) >= _DECODED_MIN_WORDS and letters >= _DECODED_MIN_LETTER_SHARE * len(decoded):
            readings.append(Reading("base64", decoded, match.span()))
    return readings


def disguised_readings(text: str) -> list[Reading]:
    """Every reading of ``text`` without a disguise it carries (none for ordinary text)."""
    readings = [r for r in (spaced_letters(text), leetspeak(text), confusable_letters(text)) if r is not None]
    readings.extend(base64_runs(text))
    return readings
