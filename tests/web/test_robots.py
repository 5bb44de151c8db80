from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import httpx
import pytest
from protego import Protego

from reliability_core.clock import FixedClock
from reliability_core.constants import FETCH_MAX_BYTES, ROBOTS_MAX_PARSE_BYTES
from reliability_core.web.robots import (
    ROBOTS_PRODUCT_TOKEN,
    HostThrottle,
    RobotsRules,
    VirtualTimer,
    crawl_delay_too_long,
    robots_mode_for_status,
)
from tests.web.conftest import PUBLIC, Handler, html, make_fetcher

VERSION = "0.1.0+test"


def rules(body: str, clock: FixedClock) -> RobotsRules:
    return RobotsRules.from_response("site.example.com", 200, body.encode(), clock.now())


def allowed(r: RobotsRules, path: str) -> bool:
    return r.allows(f"https://site.example.com{path}")


@pytest.mark.parametrize(
    ("status", "mode"),
    [(200, "parse"), (204, "parse"), (401, "allow_all"), (403, "allow_all"), (404, "allow_all"), (429, "allow_all"),
     (500, "disallow_all"), (503, "disallow_all"), (None, "disallow_all")],
)  # fmt: skip
def test_robots_status_rules_follow_rfc_9309(status: int | None, mode: str) -> None:
    assert robots_mode_for_status(status) == mode


def test_wildcards_and_end_anchor(clock: FixedClock) -> None:
    r = rules("User-agent: *\nDisallow: /*.pdf$\nDisallow: /private*/secret\n", clock)
    assert not allowed(r, "/files/report.pdf")
    assert allowed(r, "/files/report.pdf?download=1")
    assert allowed(r, "/files/report.pdfx")
    assert not allowed(r, "/private-area/secret")
    assert allowed(r, "/public/secret")


def test_longest_match_wins_and_allow_wins_ties(clock: FixedClock) -> None:
    r = rules("User-agent: *\nDisallow: /news\nAllow: /news/public\nAllow: /page\nDisallow: /page\n", clock)
    assert not allowed(r, "/news/2024")
    assert allowed(r, "/news/public/story")
    assert allowed(r, "/page")


def test_our_agent_group_overrides_the_star_group(clock: FixedClock) -> None:
    body = (
        "User-agent: *\nDisallow: /\n\n"
        f"User-agent: {ROBOTS_PRODUCT_TOKEN}\nDisallow: /drafts/\nCrawl-delay: 1.5\n\n"
        "User-agent: otherbot\nDisallow: /\n"
    )
    r = rules(body, clock)
    assert allowed(r, "/articles/1")
    assert not allowed(r, "/drafts/1")
    assert r.crawl_delay() == 1.5


def test_star_group_applies_when_no_group_names_us(clock: FixedClock) -> None:
    r = rules("User-agent: otherbot\nAllow: /\n\nUser-agent: *\nDisallow: /private\nCrawl-delay: 2\n", clock)
    assert not allowed(r, "/private/x")
    assert allowed(r, "/x")
    assert r.crawl_delay() == 2.0


def test_fractional_crawl_delay_is_kept(clock: FixedClock) -> None:
    assert rules("User-agent: *\nCrawl-delay: 0.25\n", clock).crawl_delay() == 0.25


def test_request_rate_counts_as_a_delay(clock: FixedClock) -> None:
    assert rules("User-agent: *\nRequest-rate: 1/10\n", clock).crawl_delay() == 10.0


def test_empty_or_garbage_robots_allows_everything(clock: FixedClock) -> None:
    assert allowed(rules("", clock), "/anything")
    assert allowed(rules("\x00\xff garbage ::: lines\n<html>", clock), "/anything")


@pytest.mark.parametrize(
    ("delay", "skip"), [(None, False), (0.5, False), (30.0, False), (30.01, True), (120, True)]
)
def test_crawl_delay_over_30_seconds_is_skipped(delay: float | None, skip: bool) -> None:
    assert crawl_delay_too_long(delay) is skip


def robots_site(robots_status: int, robots_body: str = "") -> Handler:
    async def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/robots.txt":
            return httpx.Response(robots_status, text=robots_body, headers={"content-type": "text/plain"})
        return html("<p>An ordinary page with ordinary words.</p>")

    return handler


async def test_robots_disallow_refuses_the_page_without_fetching_it(clock: FixedClock) -> None:
    fetcher, transport, _, _ = make_fetcher(
        robots_site(200, "User-agent: *\nDisallow: /private/\n"), {"s.example.com": [PUBLIC]}, clock
    )
    snap = await fetcher.snapshot("https://s.example.com/private/page", VERSION)
    assert snap.outcome == "refused_robots"
    assert "disallows" in snap.reason
    assert transport.page_requests() == []
    assert (await fetcher.snapshot("https://s.example.com/public/page", VERSION)).outcome == "ok"


@pytest.mark.parametrize(
    ("status", "outcome"),
    [(404, "ok"), (410, "ok"), (403, "ok"), (500, "refused_robots"), (503, "refused_robots")],
)
async def test_robots_error_statuses(status: int, outcome: str, clock: FixedClock) -> None:
    fetcher, _, _, _ = make_fetcher(robots_site(status), {"s.example.com": [PUBLIC]}, clock)
    snap = await fetcher.snapshot("https://s.example.com/page", VERSION)
    assert snap.outcome == outcome


async def test_unreachable_robots_disallows_for_now(clock: FixedClock) -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/robots.txt":
            raise httpx.ConnectError("reset", request=request)
        return html("<p>page</p>")

    fetcher, transport, _, _ = make_fetcher(handler, {"s.example.com": [PUBLIC]}, clock)
    snap = await fetcher.snapshot("https://s.example.com/page", VERSION)
    assert snap.outcome == "refused_robots"
    assert "unreachable" in snap.reason
    assert transport.page_requests() == []


async def test_robots_redirect_is_followed(clock: FixedClock) -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/robots.txt":
            return httpx.Response(301, headers={"location": "https://s.example.com/real-robots.txt"})
        if request.url.path == "/real-robots.txt":
            return httpx.Response(
                200, text="User-agent: *\nDisallow: /\n", headers={"content-type": "text/plain"}
            )
        return html("<p>page</p>")

    fetcher, _, _, _ = make_fetcher(handler, {"s.example.com": [PUBLIC]}, clock)
    assert (await fetcher.snapshot("https://s.example.com/page", VERSION)).outcome == "refused_robots"


async def test_site_asking_over_30_seconds_is_skipped_with_the_reason(clock: FixedClock) -> None:
    fetcher, transport, _, timer = make_fetcher(
        robots_site(200, "User-agent: *\nCrawl-delay: 45\n"), {"s.example.com": [PUBLIC]}, clock
    )
    snap = await fetcher.snapshot("https://s.example.com/page", VERSION)
    assert snap.outcome == "skipped_crawl_delay"
    assert "45" in snap.reason and "30" in snap.reason
    assert transport.page_requests() == []
    assert timer.sleeps == []


async def test_crawl_delay_is_honoured_per_host_across_concurrent_fetches(clock: FixedClock) -> None:
    fetcher, transport, _, timer = make_fetcher(
        robots_site(200, "User-agent: *\nCrawl-delay: 2.5\n"),
        {"s.example.com": [PUBLIC], "t.example.com": [PUBLIC]},
        clock,
    )
    urls = [f"https://s.example.com/p{i}" for i in range(4)] + ["https://t.example.com/other"]
    snaps = await asyncio.gather(*(fetcher.snapshot(url, VERSION) for url in urls))
    assert [s.outcome for s in snaps] == ["ok"] * 5
    # Four pages on one host: three waits of 2.5 s; the other host never waits.
    assert sorted(timer.sleeps) == [2.5, 2.5, 2.5]
    assert timer.now == 7.5
    robots_requests = [r for r in transport.requests if r.url.path == "/robots.txt"]
    assert sorted(r.headers["host"] for r in robots_requests) == ["s.example.com", "t.example.com"]


async def test_robots_is_cached_per_host_until_it_expires(clock: FixedClock) -> None:
    fetcher, transport, _, _ = make_fetcher(robots_site(404), {"s.example.com": [PUBLIC]}, clock)

    def robots_fetches() -> int:
        return len([r for r in transport.requests if r.url.path == "/robots.txt"])

    await fetcher.snapshot("https://s.example.com/a", VERSION)
    await fetcher.snapshot("https://s.example.com/b", VERSION)
    assert robots_fetches() == 1
    clock.advance(timedelta(hours=23))
    await fetcher.snapshot("https://s.example.com/c", VERSION)
    assert robots_fetches() == 1
    clock.advance(timedelta(hours=2))
    await fetcher.snapshot("https://s.example.com/d", VERSION)
    assert robots_fetches() == 2


async def test_host_throttle_books_slots_in_order() -> None:
    timer = VirtualTimer()
    throttle = HostThrottle(timer)
    waits = [await throttle.wait_turn("h", 1.0) for _ in range(3)]
    assert waits == [0.0, 1.0, 1.0]
    assert await throttle.wait_turn("other", 1.0) == 0.0


# --- a large robots.txt (issue 26 item 9) ----------------------------------------------

BIG_ROBOTS_HEADER = "User-agent: *\n"


def big_robots() -> bytes:
    """100,000 rules, about 3 MB: under the fetch cap, six times RFC 9309's parsing limit."""
    return (BIG_ROBOTS_HEADER + "".join(f"Disallow: /archive/p{i:06d}/x/\n" for i in range(100_000))).encode()


def last_rule_within_the_limit() -> int:
    line = len(b"Disallow: /archive/p000000/x/\n")
    return (ROBOTS_MAX_PARSE_BYTES - len(BIG_ROBOTS_HEADER)) // line - 1


def test_only_the_first_500_kib_of_a_robots_txt_is_parsed(clock: FixedClock) -> None:
    body = big_robots()
    assert 3_000_000 < len(body) < FETCH_MAX_BYTES
    r = RobotsRules.from_response("site.example.com", 200, body, clock.now())
    last = last_rule_within_the_limit()
    assert not allowed(r, "/archive/p000000/x/page")
    assert not allowed(r, f"/archive/p{last:06d}/x/page")
    assert allowed(r, f"/archive/p{last + 1:06d}/x/page")  # the line the limit cuts is not read
    assert allowed(r, "/archive/p099999/x/page")  # a rule beyond 500 KiB is not applied


def test_a_line_cut_by_the_limit_never_becomes_a_broader_rule(clock: FixedClock) -> None:
    head, cut = "User-agent: *\n", "Disallow: /pri"
    filler = "#" + "." * (ROBOTS_MAX_PARSE_BYTES - len(head) - len(cut) - 2) + "\n"
    body = f"{head}{filler}Disallow: /private-archive/\n".encode()
    assert body[:ROBOTS_MAX_PARSE_BYTES].endswith(cut.encode())  # the limit falls inside the rule
    r = RobotsRules.from_response("site.example.com", 200, body, clock.now())
    assert allowed(r, "/pricing")
    assert allowed(r, "/private-archive/file")


async def test_a_large_robots_txt_is_parsed_off_the_event_loop(
    clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = big_robots()
    parsed_on: list[bool] = []

    class RecordingParser:
        """Protego, noting which thread parses."""

        @staticmethod
        def parse(content: str) -> Protego:
            parsed_on.append(threading.current_thread() is threading.main_thread())
            return Protego.parse(content)

    monkeypatch.setattr("reliability_core.web.robots.Protego", RecordingParser)

    async def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/robots.txt":
            return httpx.Response(200, content=body, headers={"content-type": "text/plain"})
        return html("<p>An archived page with enough words to read.</p>")

    fetcher, _, _, _ = make_fetcher(handler, {"site.example.com": [PUBLIC]}, clock)
    inside = await fetcher.snapshot("https://site.example.com/archive/p000001/x/page", VERSION)
    beyond = await fetcher.snapshot("https://site.example.com/archive/p099999/x/page", VERSION)
    assert inside.outcome == "refused_robots"
    assert beyond.outcome == "ok"
    assert parsed_on == [False], "parsed once, in a worker thread"
