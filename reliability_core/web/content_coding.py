"""Content codings undone under the fetch cap ([V] T1 "3 MB cap").

The cap is on what a page yields, so it has to bound inflation itself, not be counted
after it: a gzip body of a few megabytes can inflate to gigabytes in one call (issue 26
measured a 1 GiB body sent as one chunk inflated whole, 2.1 GB of memory, before the cap
refused it). Here every call to zlib is told how much it may produce (``max_length``),
so a body is refused after at most the cap plus one byte of output, whatever the size
of the chunk it arrived in, and memory stays within the cap. The raw bytes are capped
too: bytes after the end of a gzip stream produce nothing and would otherwise pile up.

Only the codings the fetcher asks for are undone (RFC 9110 §12.5.3 ``Accept-Encoding``);
a body in any other coding is refused by name rather than read as if it were text.
"""

from __future__ import annotations

import zlib
from typing import Final

from reliability_core.models.documents import FetchOutcome

# What the fetcher sends as ``Accept-Encoding``: the codings zlib undoes with a bound.
ACCEPTED_CODINGS: Final = "gzip, deflate"
# RFC 9110 §8.4.1.3: "x-gzip" is an alias of gzip; "identity" means no coding.
# Input is given to zlib, and output taken from it, in slices of this size, so memory
# stays near the cap (not twice it, nor the cap plus copies of a large chunk).
_SLICE_BYTES: Final = 64 * 1024
_ZLIB_WBITS: Final = {"gzip": zlib.MAX_WBITS | 16, "x-gzip": zlib.MAX_WBITS | 16, "deflate": zlib.MAX_WBITS}


class CodingRefusal(Exception):
    """A body that is not read: too large once inflated, in a coding not asked for, or
    not valid in its coding. Carries the fetch outcome it ends in."""

    def __init__(self, outcome: FetchOutcome, reason: str) -> None:
        super().__init__(reason)
        self.outcome: FetchOutcome = outcome
        self.reason = reason


def content_codings(content_encoding: str | None) -> list[str]:
    """The codings a ``Content-Encoding`` header lists, in the order they were applied
    (RFC 9110 §8.4: "listed in the order in which they were applied"), without
    ``identity``."""
    codings = [part.strip().lower() for part in (content_encoding or "").split(",")]
    return [coding for coding in codings if coding and coding != "identity"]


class _Inflater:
    """One zlib stream, inflated at most ``limit`` bytes per call. HTTP's "deflate" is
    the zlib format (RFC 9110 §8.4.1.2), but some servers send raw deflate; as httpx
    and browsers do, raw deflate is tried when the first bytes are not a zlib header."""

    def __init__(self, coding: str) -> None:
        self._coding = coding
        self._zlib = zlib.decompressobj(_ZLIB_WBITS[coding])
        self._first = True

    def inflate(self, data: bytes, limit: int) -> list[bytes]:
        """At most ``limit`` (at least 1) bytes of output. Input goes to zlib in slices
        and output comes back in pieces, so neither a large chunk nor a large output is
        ever copied whole (zlib copies the input it has not consumed on every call).
        When the limit is reached the rest of ``data`` is left, which is fine: the
        caller then refuses the body."""
        pieces: list[bytes] = []
        produced = 0
        view = memoryview(data)
        for start in range(0, len(view), _SLICE_BYTES):
            pending: bytes | memoryview = view[start : start + _SLICE_BYTES]
            while pending and produced < limit:
                piece = self._decompress(pending, min(_SLICE_BYTES, limit - produced))
                pieces += [piece] if piece else []
                produced += len(piece)
                # zlib stops short of all its input only at the output limit it was given.
                pending = self._zlib.unconsumed_tail
            if produced >= limit:
                break
        return pieces

    def finish(self) -> bytes:
        # Every call so far consumed all of its input (or the body was refused), so no
        # output is pending. A stream cut short is read as far as it goes, as httpx and
        # browsers do; zlib raises only for data that is not in the format.
        try:
            return self._zlib.flush()
        except zlib.error as error:
            raise CodingRefusal("network_error", f"body is not valid {self._coding}: {error}") from error

    def _decompress(self, data: bytes | memoryview, max_length: int) -> bytes:
        first, self._first = self._first, False
        try:
            return self._zlib.decompress(data, max_length)
        except zlib.error as error:
            if first and self._coding == "deflate":
                self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)
                return self._decompress(data, max_length)
            raise CodingRefusal("network_error", f"body is not valid {self._coding}: {error}") from error


class BoundedBodyDecoder:
    """Undoes a body's content codings chunk by chunk, refusing it as soon as the raw
    bytes or any stage's output pass ``max_bytes``."""

    def __init__(self, content_encoding: str | None, max_bytes: int) -> None:
        codings = content_codings(content_encoding)
        refused = [coding for coding in codings if coding not in _ZLIB_WBITS]
        if refused:
            raise CodingRefusal(
                "unsupported_type",
                f"content coding {', '.join(refused)!r} was not asked for ({ACCEPTED_CODINGS}) and is not read",
            )
        self._max_bytes = max_bytes
        # Undone in the reverse of the order applied; each stage counts what it produced.
        self._stages = [_Inflater(coding) for coding in reversed(codings)]
        self._produced = [0] * len(self._stages)
        self.raw_bytes = 0

    @property
    def body_bytes(self) -> int:
        """Bytes of body produced so far, every coding undone."""
        return self._produced[-1] if self._stages else self.raw_bytes

    def feed(self, raw: bytes) -> list[bytes]:
        """The decoded pieces ``raw`` yields (together at most the room left under the cap)."""
        self.raw_bytes += len(raw)
        if self.raw_bytes > self._max_bytes:
            raise CodingRefusal("too_large", f"body exceeds the {self._max_bytes} byte cap; reading stopped")
        return self._through_stages([raw], final=False)

    def finish(self) -> list[bytes]:
        """What is left once the last raw byte has been fed."""
        return self._through_stages([], final=True)

    def _through_stages(self, pieces: list[bytes], *, final: bool) -> list[bytes]:
        for index, stage in enumerate(self._stages):
            out: list[bytes] = []
            for piece in pieces:
                # One byte over the room is enough to know the cap is passed.
                out += self._counted(index, stage.inflate(piece, self._max_bytes - self._produced[index] + 1))
            if final:
                out += self._counted(index, [stage.finish()])
            pieces = out
        return pieces

    def _counted(self, index: int, pieces: list[bytes]) -> list[bytes]:
        self._produced[index] += sum(len(piece) for piece in pieces)
        if self._produced[index] > self._max_bytes:
            raise CodingRefusal(
                "too_large", f"body inflates past the {self._max_bytes} byte cap; inflating stopped"
            )
        return pieces
