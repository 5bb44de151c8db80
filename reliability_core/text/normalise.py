"""Normalisation for quote matching, with a map back to the original text.

[M] step 4: "A mechanical check then requires each quote to appear word for word in
the stored page text, after normalising spacing and quotation marks." [V] T1:
"normalise whitespace, quotes, dashes and case." [#3] lists the full set: Unicode
NFKC, whitespace (including non-breaking and zero-width), curly and straight
quotation marks, apostrophes, dashes and hyphens, ellipses, soft hyphens, case.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

_SINGLE_QUOTES: Final = (
    "'`\u2018\u2019\u201a\u201b\u2032\u2035\u00b4\u02bb\u02bc\u02bd\u02b9\u2039\u203a\uff07"
)
_DOUBLE_QUOTES: Final = '"\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb\u02ba\u301d\u301e\u301f\uff02'
_DASHES: Final = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212\u2e3a\u2e3b\ufe58\ufe63\uff0d\u00ad"
# Invisible characters that only affect line breaking or joining: dropped.
_INVISIBLE: Final = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u2061\u2062\u2063\u2064"

_TRANSLATION: Final[dict[int, str]] = {
    **{ord(ch): "'" for ch in _SINGLE_QUOTES},
    **{ord(ch): '"' for ch in _DOUBLE_QUOTES},
    **{ord(ch): "-" for ch in _DASHES},
    **{ord(ch): "" for ch in _INVISIBLE},  # soft hyphen is in _DASHES too: this entry wins
    ord("\u2026"): "...",
    ord("\t"): " ",
    ord("\n"): " ",
    ord("\r"): " ",
    ord("\x0b"): " ",
    ord("\x0c"): " ",
}
# Runs of characters that need no more than ``str.lower`` and the table above.
_ASCII_RUN = re.compile(r"[\x00-\x7f]+")
_SPACE_RUN = re.compile(r" +")


@dataclass(frozen=True, slots=True)
class NormalisedText:
    """Normalised text plus, for each of its characters, the index in the original
    text of the character it came from, so a match can be shown in context."""

    text: str
    offsets: array  # type: ignore[type-arg]  # array("I"): len(text) + 1 entries, last = len(original)
    original: str

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original text that normalised ``text[start:end]`` came from."""
        if not 0 <= start <= end <= len(self.text):
            raise ValueError(f"span {start}:{end} outside normalised text of length {len(self.text)}")
        if start == end:
            position = self.offsets[start]
            return position, position
        last = self.offsets[end - 1]
        # The original span ends where the next original character starts.
        stop = last + 1
        while stop < len(self.original) and unicodedata.combining(self.original[stop]):
            stop += 1
        return self.offsets[start], stop


def _is_space(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch) == "Zs"


@lru_cache(maxsize=65536)
def _normalise_cluster(cluster: str) -> str:
    """NFKC, case folding, then the quote/dash/space/invisible table, for one base
    character with its combining marks."""
    text = unicodedata.normalize("NFKC", cluster)
    text = unicodedata.normalize("NFKC", text.casefold())
    text = "".join(" " if _is_space(ch) else ch for ch in text)
    return text.translate(_TRANSLATION)


def _map_characters(text: str) -> tuple[str, array]:  # type: ignore[type-arg]
    """First pass: per character (or base + combining marks), with offsets."""
    pieces: list[str] = []
    offsets = array("I")
    position = 0
    length = len(text)
    while position < length:
        ascii_match = _ASCII_RUN.match(text, position)
        if ascii_match is not None:
            end = ascii_match.end()
            # A combining mark after the run belongs with the run's last character.
            if end < length and unicodedata.combining(text[end]):
                end -= 1
            if end > position:
                pieces.append(text[position:end].lower().translate(_TRANSLATION))
                offsets.extend(range(position, end))
                position = end
                continue
        cluster_end = position + 1
        while cluster_end < length and unicodedata.combining(text[cluster_end]):
            cluster_end += 1
        mapped = _normalise_cluster(text[position:cluster_end])
        pieces.append(mapped)
        offsets.extend([position] * len(mapped))
        position = cluster_end
    return "".join(pieces), offsets


def normalise_for_match(text: str) -> NormalisedText:
    """Normalise ``text`` for quote comparison, keeping a map to the original.

    Unicode NFKC and case folding; every kind of quotation mark becomes ``'`` or ``"``;
    every dash and hyphen becomes ``-``; ``…`` becomes ``...``; soft hyphens and
    zero-width characters vanish; runs of whitespace (including non-breaking) become one
    space, spaces next to a dash are dropped (``a — b`` matches ``a-b``), and the ends
    are trimmed.
    """
    mapped, offsets = _map_characters(text)
    # Second pass: collapse spaces. Keep a space only between two non-space characters
    # neither of which is a dash.
    keep_chars: list[str] = []
    keep_offsets = array("I")
    cursor = 0
    for match in _SPACE_RUN.finditer(mapped):
        start, end = match.span()
        keep_chars.append(mapped[cursor:start])
        keep_offsets.extend(offsets[cursor:start])
        cursor = end
        if start == 0 or end == len(mapped):
            continue
        if mapped[start - 1] == "-" or mapped[end] == "-":
            continue
        keep_chars.append(" ")
        keep_offsets.append(offsets[start])
    keep_chars.append(mapped[cursor:])
    keep_offsets.extend(offsets[cursor:])
    keep_offsets.append(len(text))
    return NormalisedText(text="".join(keep_chars), offsets=keep_offsets, original=text)


def normalised(text: str) -> str:
    """Just the normalised string (no offset map)."""
    return normalise_for_match(text).text
