"""A compressed body is refused once it inflates past the fetch cap, with memory bounded
by the cap ([V] T1 "3 MB cap"; issue 26 item 8: "a 1 GiB gzip body sent as one chunk was
inflated whole (2.1 GB peak memory, 34 s) before it was refused")."""

from __future__ import annotations

import gzip
import struct
import tracemalloc
import zlib
from collections.abc import AsyncIterator

import httpx
import pytest

from reliability_core.clock import FixedClock
from reliability_core.constants import FETCH_MAX_BYTES
from reliability_core.ids import sha256_hex
from tests.web.conftest import PUBLIC, make_fetcher, no_robots

VERSION = "0.1.0+test"
MIB = 1 << 20
WBITS = {"gzip": zlib.MAX_WBITS | 16, "deflate": zlib.MAX_WBITS, "raw deflate": -zlib.MAX_WBITS}
PAGE = (
    "<html><head><title>Results</title></head><body>"
    + "<p>Revenue rose 12% in 2025.</p>" * 200
    + "</body></html>"
).encode()


def bomb(mebibytes: int, wbits: int) -> bytes:
    """A valid compressed body of ``mebibytes`` MiB of zeros (~1000:1), built without
    compressing them all: after a full flush each MiB of zeros compresses to the same
    independent block, which is repeated; the trailer's checksum and size are then
    computed for the whole."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
    zeros = bytes(MIB)
    head = compressor.compress(zeros) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(zeros) + compressor.flush(zlib.Z_FULL_FLUSH)
    end = compressor.flush()  # the final (empty) block, then the trailer
    if wbits > zlib.MAX_WBITS:  # gzip: CRC-32 and size, little-endian (RFC 1952)
        crc = 0
        for _ in range(mebibytes):
            crc = zlib.crc32(zeros, crc)
        trailer = struct.pack("<II", crc, (mebibytes * MIB) & 0xFFFFFFFF)
    elif wbits > 0:  # zlib: Adler-32, big-endian (RFC 1950)
        adler = 1
        for _ in range(mebibytes):
            adler = zlib.adler32(zeros, adler)
        trailer = struct.pack(">I", adler)
    else:  # raw deflate: no trailer
        trailer = b""
    return head + block * (mebibytes - 1) + end[: len(end) - len(trailer)] + trailer


def compressed(body: bytes, wbits: int) -> bytes:
    compressor = zlib.compressobj(6, zlib.DEFLATED, wbits)
    return compressor.compress(body) + compressor.flush()


def serve(body: bytes, encoding: str) -> httpx.Response:
    """As the live transport answers: a stream not yet read, here in one chunk."""
    headers = {"content-type": "text/html; charset=utf-8", "content-encoding": encoding}
    return httpx.Response(200, headers=headers, stream=httpx.ByteStream(body))


@pytest.mark.parametrize("coding", ["gzip", "deflate"])
async def test_a_compression_bomb_in_one_chunk_is_refused_within_the_cap(
    coding: str, clock: FixedClock
) -> None:
    body = bomb(512, WBITS[coding])  # 512 MiB inflated
    assert len(body) < FETCH_MAX_BYTES  # the raw body alone passes the cap
    assert zlib.decompressobj(WBITS[coding]).decompress(body, MIB) == bytes(MIB)

    async def handler(request: httpx.Request) -> httpx.Response:
        return no_robots(request) or serve(body, coding)

    fetcher, _, _, _ = make_fetcher(handler, {"bomb.example.com": [PUBLIC]}, clock)
    tracemalloc.start()
    try:
        snap = await fetcher.snapshot("https://bomb.example.com/", VERSION)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert snap.outcome == "too_large"
    # No more than the cap plus one byte was inflated, and memory stayed near the cap.
    assert FETCH_MAX_BYTES < snap.byte_count <= FETCH_MAX_BYTES + 1
    assert peak < FETCH_MAX_BYTES + MIB // 2, f"peak {peak} bytes while inflating"
    assert "inflates past the" in snap.reason
    assert snap.sha256 is None and snap.text == ""


async def test_a_bomb_in_many_small_chunks_stops_at_the_cap(clock: FixedClock) -> None:
    body = bomb(64, WBITS["gzip"])
    chunks = [body[start : start + 100] for start in range(0, len(body), 100)]

    async def handler(request: httpx.Request) -> httpx.Response:
        headers = {"content-type": "text/html", "content-encoding": "gzip"}
        return no_robots(request) or httpx.Response(200, headers=headers, stream=_Chunks(chunks))

    fetcher, _, _, _ = make_fetcher(handler, {"bomb.example.com": [PUBLIC]}, clock, max_bytes=MIB)
    snap = await fetcher.snapshot("https://bomb.example.com/", VERSION)
    assert snap.outcome == "too_large"
    assert MIB < snap.byte_count <= MIB + 1


async def test_a_bomb_wrapped_twice_is_bounded_at_each_layer(clock: FixedClock) -> None:
    body = gzip.compress(bomb(512, WBITS["gzip"]))  # gzip inside gzip: 512 MiB inside ~0.5 MB inside ~2 kB

    async def handler(request: httpx.Request) -> httpx.Response:
        return no_robots(request) or serve(body, "gzip, gzip")

    fetcher, _, _, _ = make_fetcher(handler, {"bomb.example.com": [PUBLIC]}, clock)
    tracemalloc.start()
    try:
        snap = await fetcher.snapshot("https://bomb.example.com/", VERSION)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert snap.outcome == "too_large"
    assert peak < 2 * FETCH_MAX_BYTES + MIB // 2, f"peak {peak} bytes while inflating"


@pytest.mark.parametrize("coding", ["gzip", "deflate", "raw deflate", "identity"])
async def test_a_compressed_page_under_the_cap_is_read_whole(coding: str, clock: FixedClock) -> None:
    raw = PAGE if coding == "identity" else compressed(PAGE, WBITS[coding])
    header = "deflate" if coding == "raw deflate" else coding  # servers send raw deflate labelled "deflate"

    async def handler(request: httpx.Request) -> httpx.Response:
        return no_robots(request) or serve(raw, header)

    fetcher, _, _, _ = make_fetcher(handler, {"news.example.com": [PUBLIC]}, clock)
    snap = await fetcher.snapshot("https://news.example.com/", VERSION)
    assert snap.outcome == "ok", snap.reason
    assert snap.sha256 == sha256_hex(PAGE) and snap.byte_count == len(PAGE)
    assert "Revenue rose 12% in 2025." in snap.text


async def test_a_compressed_page_built_from_bytes_by_the_transport_is_decoded_once(clock: FixedClock) -> None:
    # The offline corpus and test fakes answer with ``content=``; httpx reads such a
    # response at once, and the fetcher must still see (and decode) the bytes as sent.
    async def handler(request: httpx.Request) -> httpx.Response:
        headers = {"content-type": "text/html", "content-encoding": "gzip"}
        return no_robots(request) or httpx.Response(200, headers=headers, content=gzip.compress(PAGE))

    fetcher, _, _, _ = make_fetcher(handler, {"news.example.com": [PUBLIC]}, clock)
    snap = await fetcher.snapshot("https://news.example.com/", VERSION)
    assert snap.outcome == "ok" and snap.sha256 == sha256_hex(PAGE)


async def test_a_coding_not_asked_for_is_refused_by_name(clock: FixedClock) -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        assert request.headers["accept-encoding"] == "gzip, deflate"
        return no_robots(request) or serve(b"\x8b\x02\x80binary", "br")

    fetcher, _, _, _ = make_fetcher(handler, {"news.example.com": [PUBLIC]}, clock)
    snap = await fetcher.snapshot("https://news.example.com/", VERSION)
    assert snap.outcome == "unsupported_type"
    assert "'br'" in snap.reason


async def test_a_corrupt_gzip_body_is_a_network_error_not_a_crash(clock: FixedClock) -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        return no_robots(request) or serve(b"\x1f\x8b\x08\x00not gzip at all", "gzip")

    fetcher, _, _, _ = make_fetcher(handler, {"news.example.com": [PUBLIC]}, clock)
    snap = await fetcher.snapshot("https://news.example.com/", VERSION)
    assert snap.outcome == "network_error"
    assert "not valid gzip" in snap.reason


class _Chunks(httpx.AsyncByteStream):
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk
