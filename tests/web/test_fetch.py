from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from reliability_core.clock import FixedClock
from reliability_core.constants import FETCH_MAX_REDIRECTS, USER_AGENT
from reliability_core.ids import sha256_hex, stable_id
from tests.web.conftest import PUBLIC, PUBLIC_2, Handler, html, make_fetcher, no_robots

VERSION = "0.1.0+test"


async def test_every_fetch_returns_a_record_with_status_time_hash_and_texts(
    site_handler: Handler, clock: FixedClock
) -> None:
    fetcher, _, _, _ = make_fetcher(site_handler, {"news.example.com": [PUBLIC]}, clock)
    snap = await fetcher.snapshot("https://news.example.com/story", VERSION)
    body = b"<html><head><title>Article</title></head><body><p>Hello world, this is text.</p></body></html>"
    assert snap.outcome == "ok"
    assert snap.status == 200
    assert snap.fetched_at == clock.now()
    assert snap.sha256 == sha256_hex(body)
    assert snap.byte_count == len(body)
    assert snap.content_type == "text/html; charset=utf-8"
    assert snap.final_url == "https://news.example.com/story"
    assert snap.title == "Article"
    assert "Hello world, this is text." in snap.text
    assert snap.id == stable_id("snap", "https://news.example.com/story", snap.sha256)
    assert snap.method_version == VERSION


@pytest.mark.parametrize(
    "url",
    [
        "http://news.example.com/",
        "https://127.0.0.1/",
        "https://2130706433/",
        "https://0x7f.1/",
        "https://[::1]/",
        "https://user:pw@news.example.com/",
        "https://metadata.google.internal/computeMetadata/v1/",
        "https://news.example.com\\@127.0.0.1/",
    ],
)
async def test_hostile_urls_are_refused_without_any_request(
    url: str, site_handler: Handler, clock: FixedClock
) -> None:
    fetcher, transport, resolver, _ = make_fetcher(site_handler, {"news.example.com": [PUBLIC]}, clock)
    snap = await fetcher.snapshot(url, VERSION)
    assert snap.outcome == "refused_url"
    assert snap.reason
    assert snap.sha256 is None and snap.text == ""
    assert transport.requests == []
    assert resolver.calls == []


@pytest.mark.parametrize(
    "addresses",
    [
        ["127.0.0.1"],
        ["10.0.0.5"],
        ["169.254.169.254"],
        ["100.64.1.1"],
        ["198.18.0.1"],
        ["::1"],
        ["::ffff:127.0.0.1"],
        ["64:ff9b::a9fe:a9fe"],
        ["2002:7f00:1::"],
        ["2001:0:4136:e378:8000:63bf:3fff:fdd2"],
        ["fd00:ec2::254"],
        [PUBLIC, "10.0.0.1"],  # ANY non-public answer refuses the name
        ["fe80::1%eth0"],
        [],
    ],
)
async def test_names_resolving_to_non_public_addresses_are_refused(
    addresses: list[str], site_handler: Handler, clock: FixedClock
) -> None:
    fetcher, transport, _, _ = make_fetcher(
        site_handler, {"inside.example.com": [addresses]}, clock, respect_robots=False
    )
    snap = await fetcher.snapshot("https://inside.example.com/", VERSION)
    assert snap.outcome == "refused_address"
    assert "inside.example.com" in snap.reason
    assert transport.requests == []


async def test_request_goes_to_the_checked_address_with_host_and_sni_kept(
    site_handler: Handler, clock: FixedClock
) -> None:
    fetcher, transport, _, _ = make_fetcher(site_handler, {"news.example.com": [PUBLIC]}, clock)
    await fetcher.snapshot("https://news.example.com/a?b=1", VERSION)
    request = transport.page_requests()[0]
    assert request.url.host == PUBLIC
    assert request.url.raw_path == b"/a?b=1"
    assert request.headers["host"] == "news.example.com"
    assert request.extensions["sni_hostname"] == "news.example.com"
    assert request.headers["user-agent"] == USER_AGENT


async def test_ipv6_checked_address_is_bracketed_in_the_request(
    site_handler: Handler, clock: FixedClock
) -> None:
    fetcher, transport, _, _ = make_fetcher(site_handler, {"v6.example.com": ["2606:4700::1111"]}, clock)
    snap = await fetcher.snapshot("https://v6.example.com/", VERSION)
    assert snap.outcome == "ok"
    assert transport.page_requests()[0].url.host == "2606:4700::1111"


async def test_dns_rebinding_cannot_switch_the_connected_address(
    site_handler: Handler, clock: FixedClock
) -> None:
    """First answer public, every later answer private: the fetch connects only to the
    address it checked, and a later lookup that turns private is refused."""
    fetcher, transport, resolver, _ = make_fetcher(
        site_handler, {"rebind.example.com": [[PUBLIC], ["127.0.0.1"]]}, clock, respect_robots=False
    )
    first = await fetcher.fetch("https://rebind.example.com/")
    assert first.outcome == "ok"
    assert first.connected_to == [PUBLIC]
    assert [r.url.host for r in transport.requests] == [PUBLIC]
    assert resolver.calls == ["rebind.example.com"]  # resolved once per hop, never again before connecting
    second = await fetcher.fetch("https://rebind.example.com/")
    assert second.outcome == "refused_address"
    assert [r.url.host for r in transport.requests] == [PUBLIC]


async def test_private_address_met_while_reading_robots_is_an_address_refusal(
    site_handler: Handler, clock: FixedClock
) -> None:
    """The page's lookup is public, the robots.txt lookup turns private: the page is
    refused for its address (not as a robots refusal), and nothing private is contacted."""
    fetcher, transport, _, _ = make_fetcher(
        site_handler, {"rebind.example.com": [[PUBLIC], ["10.0.0.7"]]}, clock
    )
    snap = await fetcher.snapshot("https://rebind.example.com/page", VERSION)
    assert snap.outcome == "refused_address"
    assert "robots.txt" in snap.reason and "non-public" in snap.reason
    assert all(r.url.host == PUBLIC for r in transport.requests)
    assert transport.page_requests() == []


def redirecting(location_for: dict[str, tuple[int, str]]) -> Handler:
    async def handler(request: httpx.Request) -> httpx.Response:
        robots = no_robots(request)
        if robots is not None:
            return robots
        key = f"{request.headers['host']}{request.url.path}"
        if key in location_for:
            status, location = location_for[key]
            return httpx.Response(status, headers={"location": location})
        return html("<p>Landed safely on the final page.</p>")

    return handler


@pytest.mark.parametrize(
    ("location", "outcome"),
    [
        ("https://127.0.0.1/admin", "refused_url"),
        ("https://inside.example.com/admin", "refused_address"),
        ("https://metadata.google.internal/computeMetadata/v1/", "refused_url"),
        ("http://news.example.com/plain", "refused_url"),
        ("https://[::ffff:169.254.169.254]/", "refused_url"),
    ],
)
async def test_redirects_into_private_space_are_refused(
    location: str, outcome: str, clock: FixedClock
) -> None:
    handler = redirecting({"news.example.com/start": (302, location)})
    table = {"news.example.com": [PUBLIC], "inside.example.com": ["192.168.0.10"]}
    fetcher, transport, _, _ = make_fetcher(handler, table, clock)
    snap = await fetcher.snapshot("https://news.example.com/start", VERSION)
    assert snap.outcome == outcome
    assert snap.redirect_chain == ["https://news.example.com/start"]
    assert snap.final_url == location
    assert all(r.url.host == PUBLIC for r in transport.requests)


async def test_redirect_hops_are_followed_and_recorded(clock: FixedClock) -> None:
    handler = redirecting(
        {
            "a.example.com/1": (301, "https://b.example.com/2"),
            "b.example.com/2": (307, "/3"),
        }
    )
    table = {"a.example.com": [PUBLIC], "b.example.com": [PUBLIC_2]}
    fetcher, transport, _, _ = make_fetcher(handler, table, clock)
    snap = await fetcher.snapshot("https://a.example.com/1", VERSION)
    assert snap.outcome == "ok"
    assert snap.redirect_chain == ["https://a.example.com/1", "https://b.example.com/2"]
    assert snap.final_url == "https://b.example.com/3"
    assert [r.url.host for r in transport.page_requests()] == [PUBLIC, PUBLIC_2, PUBLIC_2]


async def test_more_than_five_redirects_is_an_outcome(clock: FixedClock) -> None:
    hops = {f"loop.example.com/{i}": (302, f"/{i + 1}") for i in range(10)}
    fetcher, transport, _, _ = make_fetcher(redirecting(hops), {"loop.example.com": [PUBLIC]}, clock)
    snap = await fetcher.snapshot("https://loop.example.com/0", VERSION)
    assert snap.outcome == "too_many_redirects"
    assert len(snap.redirect_chain) == FETCH_MAX_REDIRECTS + 1
    assert len(transport.page_requests()) == FETCH_MAX_REDIRECTS + 1


async def test_exactly_five_redirects_are_allowed(clock: FixedClock) -> None:
    hops = {f"loop.example.com/{i}": (302, f"/{i + 1}") for i in range(FETCH_MAX_REDIRECTS)}
    fetcher, _, _, _ = make_fetcher(redirecting(hops), {"loop.example.com": [PUBLIC]}, clock)
    snap = await fetcher.snapshot("https://loop.example.com/0", VERSION)
    assert snap.outcome == "ok"
    assert snap.final_url == f"https://loop.example.com/{FETCH_MAX_REDIRECTS}"


async def _endless(chunk: bytes) -> AsyncIterator[bytes]:
    while True:
        yield chunk


class _Stream(httpx.AsyncByteStream):
    def __init__(self, chunks: AsyncIterator[bytes]) -> None:
        self.chunks = chunks
        self.closed = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.chunks:
            yield chunk

    async def aclose(self) -> None:
        self.closed = True


async def test_oversize_body_stops_reading_at_the_cap(clock: FixedClock) -> None:
    stream = _Stream(_endless(b"x" * 10_000))

    async def handler(request: httpx.Request) -> httpx.Response:
        return no_robots(request) or httpx.Response(200, headers={"content-type": "text/html"}, stream=stream)

    fetcher, _, _, _ = make_fetcher(handler, {"big.example.com": [PUBLIC]}, clock, max_bytes=50_000)
    snap = await fetcher.snapshot("https://big.example.com/", VERSION)
    assert snap.outcome == "too_large"
    assert 50_000 < snap.byte_count <= 60_000
    assert snap.sha256 is None and snap.text == ""
    assert stream.closed


async def test_declared_oversize_body_is_refused_before_reading(clock: FixedClock) -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        return no_robots(request) or httpx.Response(
            200,
            headers={"content-type": "text/html", "content-length": "999999999"},
            stream=_Stream(_endless(b"x")),
        )

    fetcher, _, _, _ = make_fetcher(handler, {"big.example.com": [PUBLIC]}, clock)
    snap = await fetcher.snapshot("https://big.example.com/", VERSION)
    assert snap.outcome == "too_large"
    assert "declared" in snap.reason


async def test_slow_body_times_out(clock: FixedClock) -> None:
    async def trickle() -> AsyncIterator[bytes]:
        while True:
            await asyncio.sleep(0.02)
            yield b"<p>still coming</p>"

    async def handler(request: httpx.Request) -> httpx.Response:
        return no_robots(request) or httpx.Response(
            200, headers={"content-type": "text/html"}, stream=_Stream(trickle())
        )

    fetcher, _, _, _ = make_fetcher(handler, {"slow.example.com": [PUBLIC]}, clock, timeout_seconds=0.2)
    snap = await fetcher.snapshot("https://slow.example.com/", VERSION)
    assert snap.outcome == "timeout"
    assert snap.sha256 is None


async def test_slow_resolver_counts_against_the_timeout(site_handler: Handler, clock: FixedClock) -> None:
    class SlowResolver:
        async def resolve(self, host: str, port: int) -> list[str]:
            await asyncio.sleep(5)
            return [PUBLIC]

    fetcher, _, _, _ = make_fetcher(site_handler, {}, clock, timeout_seconds=0.05, respect_robots=False)
    fetcher._resolver = SlowResolver()
    result = await fetcher.fetch("https://slow.example.com/")
    assert result.outcome == "timeout"


async def test_transport_errors_are_outcomes_not_crashes(clock: FixedClock) -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    fetcher, _, _, _ = make_fetcher(handler, {"down.example.com": [PUBLIC]}, clock, respect_robots=False)
    snap = await fetcher.snapshot("https://down.example.com/", VERSION)
    assert snap.outcome == "network_error"
    assert "ConnectError" in snap.reason


async def test_unresolvable_name_is_a_network_error(site_handler: Handler, clock: FixedClock) -> None:
    fetcher, _, _, _ = make_fetcher(site_handler, {}, clock, respect_robots=False)
    snap = await fetcher.snapshot("https://nowhere.example.com/", VERSION)
    assert snap.outcome == "network_error"
    assert "resolve" in snap.reason


@pytest.mark.parametrize(
    ("content_type", "body", "outcome"),
    [
        ("application/pdf", b"%PDF-1.7 ...", "unverifiable_pdf"),
        ("image/png", b"\x89PNG\r\n", "unsupported_type"),
        ("application/zip", b"PK\x03\x04", "unsupported_type"),
        ("text/plain; charset=utf-8", b"Plain words, read as text.", "ok"),
        ("application/octet-stream", b"%PDF-1.4 sniffed", "unverifiable_pdf"),
        ("text/html", b"\x00\x01\x02\x03\xff\xfe" * 500, "unparseable"),
    ],
)
async def test_content_types_get_their_handling(
    content_type: str, body: bytes, outcome: str, clock: FixedClock
) -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        return no_robots(request) or httpx.Response(200, headers={"content-type": content_type}, content=body)

    fetcher, _, _, _ = make_fetcher(handler, {"files.example.com": [PUBLIC]}, clock)
    snap = await fetcher.snapshot("https://files.example.com/doc", VERSION)
    assert snap.outcome == outcome
    assert snap.reason or outcome == "ok"


async def test_pdf_is_stored_with_hash_and_stays_unverified(clock: FixedClock, tmp_path: Path) -> None:
    pdf = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n"

    async def handler(request: httpx.Request) -> httpx.Response:
        return no_robots(request) or httpx.Response(
            200, headers={"content-type": "application/pdf"}, content=pdf
        )

    fetcher, _, _, _ = make_fetcher(handler, {"files.example.com": [PUBLIC]}, clock, body_store=tmp_path)
    snap = await fetcher.snapshot("https://files.example.com/report.pdf", VERSION)
    assert snap.outcome == "unverifiable_pdf"
    assert snap.sha256 == sha256_hex(pdf)
    assert snap.byte_count == len(pdf)
    assert snap.text == ""
    assert snap.sha256 is not None
    assert (tmp_path / snap.sha256[:2] / snap.sha256).read_bytes() == pdf


async def test_http_errors_are_recorded_with_their_status(clock: FixedClock) -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        return no_robots(request) or html("gone", status=410)

    fetcher, _, _, _ = make_fetcher(handler, {"news.example.com": [PUBLIC]}, clock)
    snap = await fetcher.snapshot("https://news.example.com/old", VERSION)
    assert snap.outcome == "http_error"
    assert snap.status == 410
    assert snap.reason == "HTTP 410"
    assert snap.text == ""


async def test_github_blob_is_read_raw(clock: FixedClock) -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        return no_robots(request) or httpx.Response(
            200, headers={"content-type": "text/plain; charset=utf-8"}, text="# README\nRaw file contents."
        )

    table = {"raw.githubusercontent.com": [PUBLIC]}
    fetcher, transport, _, _ = make_fetcher(handler, table, clock)
    snap = await fetcher.snapshot("https://github.com/org/repo/blob/main/README.md", VERSION)
    assert snap.outcome == "ok"
    assert snap.url == "https://github.com/org/repo/blob/main/README.md"
    assert snap.final_url == "https://raw.githubusercontent.com/org/repo/main/README.md"
    assert transport.page_requests()[0].headers["host"] == "raw.githubusercontent.com"
    assert "Raw file contents." in snap.text


async def test_arxiv_abstract_also_reads_the_html_version(clock: FixedClock) -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/robots.txt":
            return httpx.Response(404)
        if request.url.path.startswith("/abs/"):
            return html("<p>Abstract: we study things.</p>")
        return html("<article><p>Section 4: accuracy reached 72.4% on the test set.</p></article>")

    fetcher, _, _, _ = make_fetcher(handler, {"arxiv.org": [PUBLIC]}, clock)
    snap = await fetcher.snapshot("https://arxiv.org/abs/2401.01234", VERSION)
    assert snap.outcome == "ok"
    assert "Abstract: we study things." in snap.text
    assert "accuracy reached 72.4%" in snap.text
    assert "https://arxiv.org/html/2401.01234" in snap.reason


async def test_arxiv_without_html_version_keeps_the_abstract(clock: FixedClock) -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith("/abs/"):
            return html("<p>Abstract: we study things.</p>")
        return httpx.Response(404)

    fetcher, _, _, _ = make_fetcher(handler, {"arxiv.org": [PUBLIC]}, clock)
    snap = await fetcher.snapshot("https://arxiv.org/abs/2401.01234", VERSION)
    assert snap.outcome == "ok"
    assert snap.text == "Abstract: we study things."
    assert "not read" in snap.reason


async def test_system_resolver_returns_each_address_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    from reliability_core.web.fetch import SystemResolver

    def fake_getaddrinfo(host: str, port: int, *args: object) -> list[tuple[object, ...]]:
        assert host == "news.example.com" and port == 443
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", (PUBLIC, 443)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", (PUBLIC, 443)),
            (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("2606:4700::1111", 443, 0, 0)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", fake_getaddrinfo)
    assert await SystemResolver().resolve("news.example.com", 443) == [PUBLIC, "2606:4700::1111"]


async def test_live_fetcher_uses_the_network_transport_and_system_resolver(clock: FixedClock) -> None:
    from reliability_core.web.fetch import SystemResolver, live_fetcher

    fetcher = live_fetcher(clock)
    assert isinstance(fetcher._transport, httpx.AsyncHTTPTransport)
    assert isinstance(fetcher._resolver, SystemResolver)
    # Hostile URLs are refused before the network is ever touched.
    assert (await fetcher.snapshot("https://127.0.0.1/", VERSION)).outcome == "refused_url"
    await fetcher.aclose()
