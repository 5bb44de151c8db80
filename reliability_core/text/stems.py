"""The one stemmer: a crude suffix cut so that "installed", "installs" and "install" meet.

Used where words of a claim are compared with words of a page without a model: the passages
a reader is sent (``verdicts.passages``) and the stand-in's readers. Deliberately crude and
English-only: it decides what may be looked at (looser is safer), never what counts as
evidence. Here, below the phases, because a phase and the stand-in both need it.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """``word`` (already lower-cased) without one of the suffixes "ing", "ed", "es", "s",
    when at least four characters remain; a figure ("1990s", "2030s") is left as written."""
    if word[:1].isdigit():
        return word
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word
