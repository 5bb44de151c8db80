"""Evidence marked as data in every judge and reviewer prompt ([#16] "each evidence text is
wrapped in delimiters that change with every call and cannot be forged by the text, with
the instruction that nothing inside them is addressed to the judge").

Each call gets a fresh random token (64 bits from ``secrets``), so a page written before the
call cannot know it. Any text that takes the delimiters' form (``<<DATA ...>>`` or
``<</DATA ...>>``, in any case or spacing) is defanged before wrapping, so a forged closing
delimiter in the evidence stays inside the data; the real closing delimiter is the only one
in the wrapped text, at its end.
"""

from __future__ import annotations

import re
import secrets

from pydantic import BaseModel, ConfigDict

# Any spelling of the delimiter's opening: "<<DATA", "<< /data", "< < / DATA", full-width
# "＜＜DATA" (folded by NFKC before a model reads it) ...
_FORGED = re.compile(r"[<＜﹤]\s*[<＜﹤]\s*(/\s*)?d\s*a\s*t\s*a", re.IGNORECASE)


class DataMark(BaseModel):
    """The delimiters of one call."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    token: str

    @property
    def begin(self) -> str:
        return f"<<DATA {self.token}>>"

    @property
    def end(self) -> str:
        return f"<</DATA {self.token}>>"


def new_data_mark() -> DataMark:
    """A fresh mark for one model call."""
    return DataMark(token=secrets.token_hex(8))


def defang_delimiters(text: str) -> str:
    """Text that imitates a delimiter loses the form (``<<`` becomes ``‹‹``), so it cannot
    open or close a data block; everything else is left as it was."""
    return _FORGED.sub(lambda m: "‹‹" + m.group(0).lstrip("<＜﹤ \t\n").lstrip("<＜﹤ \t\n"), text)


def mark_as_data(text: str, mark: DataMark) -> str:
    """``text`` between the call's delimiters, with any forged delimiter defanged."""
    return f"{mark.begin}\n{defang_delimiters(text)}\n{mark.end}"


def unmark(text: str, mark: DataMark) -> str:
    """The data inside ``mark``'s delimiters (for code that reads a marked input, such as the
    offline rules); text without them is returned unchanged."""
    prefix, suffix = f"{mark.begin}\n", f"\n{mark.end}"
    if text.startswith(prefix) and text.endswith(suffix):
        return text[len(prefix) : -len(suffix)]
    return text


CACHE_TOKEN = "0" * 16  # what a call's token is replaced by in its cache key

_MARK_TOKEN = re.compile(r"<</?DATA ([0-9a-f]{16})>>")


def without_mark_tokens(text: str) -> str:
    """``text`` (a request body) with every per-call data-mark token replaced by
    ``CACHE_TOKEN``, wherever it appears (in the delimiters and in the ``data_mark`` field):
    the same texts under any delimiters are the same request, for anything keyed or seeded
    by the request (the rehearsal's scripted model and servers, the benchmarks' replay)."""
    for token in set(_MARK_TOKEN.findall(text)):
        text = text.replace(token, CACHE_TOKEN)
    return text

