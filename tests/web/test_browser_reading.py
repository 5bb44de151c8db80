"""The web layer reads pages as browsers and RFC 9309 do (issue 17, part 3):
WHATWG encoding labels, unknown robots.txt lines, the robots user agent, address
refusals met while reading robots.txt, and "would you fetch this URL, and why not?"."""

from __future__ import annotations

import httpx
import pytest

from reliability_core.clock import FixedClock
from reliability_core.text.quotes import verify_quote
from reliability_core.web.fetch import fetch_permission
from reliability_core.web.page_text import decode_body, extract_page_texts
from reliability_core.web.robots import RobotsRules, known_records_only, product_token
from tests.web.conftest import PUBLIC, Handler, html, make_fetcher

VERSION = "0.1.0+test"

# A real-looking legacy news page: windows-1252 bytes (curly quotes 0x93/0x94, an en
# dash 0x96, a right single quote 0x92) under a label that names ISO-8859-1.
LEGACY_PAGE = (
    "<!DOCTYPE html>\n<html><head>{meta}<title>Harbour council \x96 minutes</title></head>\n"
    "<body><article><h1>Council sets 2027 target</h1>\n"
    "<p>The mayor said: \x93We will open the new ferry terminal by June 2027.\x94</p>\n"
    "<p>It\x92s the council\x92s third attempt \x96 the 2019 and 2023 plans both slipped.</p>\n"
    "</article></body></html>\n"
)
QUOTE = "We will open the new ferry terminal by June 2027."


def legacy_bytes(meta: str = "") -> bytes:
    return LEGACY_PAGE.format(meta=meta).encode("latin-1")  # the bytes as a 1252 server sends them


@pytest.mark.parametrize(
    ("content_type", "meta"),
    [
        ("text/html; charset=iso-8859-1", ""),
        ("text/html; charset=ISO-8859-1", ""),
        ("text/html; charset=latin1", ""),
        ("text/html; charset=us-ascii", ""),
        ("text/html", '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">'),
        ("text/html", '<meta charset="us-ascii">'),
        ("text/html; charset=latin-1", ""),  # not a WHATWG label: ignored, UTF-8 fails, windows-1252
    ],
)
def test_pages_labelled_latin1_or_ascii_are_decoded_as_windows_1252(content_type: str, meta: str) -> None:
    texts = extract_page_texts(legacy_bytes(meta), content_type)
    assert texts.ok
    assert "\u201cWe will open the new ferry terminal by June 2027.\u201d" in texts.text
    assert "It\u2019s the council\u2019s third attempt \u2013 the 2019" in texts.text
    assert texts.title == "Harbour council \u2013 minutes"
    assert not any("\x80" <= ch <= "\x9f" for ch in texts.text), "no C1 control characters"
    assert verify_quote(QUOTE, texts.text).verified


def test_a_byte_order_mark_wins_over_the_declared_label() -> None:
    body = "\ufeff<p>caf\u00e9 \u201cquoted\u201d</p>".encode()
    assert decode_body(body, "text/html; charset=iso-8859-1") == "<p>caf\u00e9 \u201cquoted\u201d</p>"


def test_the_header_label_wins_over_the_meta_label() -> None:
    body = '<meta charset="utf-8"><p>\u0391\u03b8\u03ae\u03bd\u03b1</p>'.encode("iso-8859-7")
    assert "\u0391\u03b8\u03ae\u03bd\u03b1" in decode_body(body, "text/html; charset=iso-8859-7")


def test_a_meta_that_says_utf_16_means_utf_8() -> None:
    body = '<meta charset="utf-16"><p>caf\u00e9</p>'.encode()
    assert decode_body(body, "text/html") == '<meta charset="utf-16"><p>caf\u00e9</p>'


# --- robots.txt ---------------------------------------------------------------------


def rules(body: str, clock: FixedClock) -> RobotsRules:
    return RobotsRules.from_response("site.example.com", 200, body.encode(), clock.now())


def test_unknown_line_between_user_agent_lines_does_not_end_the_group(clock: FixedClock) -> None:
    body = "User-agent: reliability-bot\nNoindex: /drafts/\nUser-agent: otherbot\nDisallow: /\n"
    r = rules(body, clock)
    assert not r.allows("https://site.example.com/page", "reliability-bot")
    assert not r.allows("https://site.example.com/page", "otherbot")
    assert r.allows("https://site.example.com/page", "thirdbot")


def test_unknown_line_inside_a_group_does_not_end_it(clock: FixedClock) -> None:
    body = (
        "# robots.txt for site.example.com\n"
        "User-agent: reliability-bot\n"
        "Allow: /public/\n"
        "Clean-param: ref /articles/\n"
        "Disallow: /\n"
        "\n"
        "User-agent: otherbot\n"
        "Noarchive: /\n"
        "User-agent: thirdbot\n"
        "Disallow: /private/\n"
        "Sitemap: https://site.example.com/sitemap.xml\n"
    )
    r = rules(body, clock)
    assert r.allows("https://site.example.com/public/x", "reliability-bot")
    assert not r.allows("https://site.example.com/anything", "reliability-bot")
    # otherbot and thirdbot share one group: the unknown line between them is skipped.
    for agent in ("otherbot", "thirdbot"):
        assert r.allows("https://site.example.com/anything", agent)
        assert not r.allows("https://site.example.com/private/x", agent), agent
    assert r.allows("https://site.example.com/private/x", "somebot")


def test_known_records_pass_through_and_unknown_ones_are_blanked() -> None:
    body = "User-agent: a\nFoo: bar\nuser agent: b\nDisallow /x\nCrawl-delay: 2 # polite\nHost: h\n"
    assert known_records_only(body).split("\n") == [
        "User-agent: a",
        "",
        "user agent: b",
        "Disallow /x",
        "Crawl-delay: 2 # polite",
        "Host: h",
    ]


async def test_robots_groups_are_matched_by_the_user_agent_the_fetcher_sends(clock: FixedClock) -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/robots.txt":
            return httpx.Response(200, text="User-agent: archivebot\nDisallow: /\n")
        return html("<p>An ordinary page with ordinary words.</p>")

    assert product_token("archivebot/2.0 (+https://archive.example)") == "archivebot"
    fetcher, transport, _, _ = make_fetcher(
        handler, {"s.example.com": [PUBLIC]}, clock, user_agent="archivebot/2.0 (+https://archive.example)"
    )
    snap = await fetcher.snapshot("https://s.example.com/page", VERSION)
    assert snap.outcome == "refused_robots" and "archivebot" in snap.reason
    assert all(r.headers["user-agent"].startswith("archivebot/2.0") for r in transport.requests)


async def test_private_address_behind_a_robots_redirect_is_an_address_refusal(clock: FixedClock) -> None:
    async def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/robots.txt":
            return httpx.Response(302, headers={"location": "https://internal.example.com/robots.txt"})
        return html("<p>An ordinary page with ordinary words.</p>")

    fetcher, transport, _, _ = make_fetcher(
        handler, {"s.example.com": [PUBLIC], "internal.example.com": ["192.168.1.20"]}, clock
    )
    snap = await fetcher.snapshot("https://s.example.com/page", VERSION)
    assert snap.outcome == "refused_address"
    assert "robots.txt" in snap.reason
    assert transport.page_requests() == []
    assert all(r.url.host == PUBLIC for r in transport.requests)


# --- "would you fetch this URL, and why not?" -------------------------------------------


def permission_site() -> Handler:
    async def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/robots.txt":
            return httpx.Response(200, text="User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n")
        raise AssertionError("the page itself is never requested")

    return handler


@pytest.mark.parametrize(
    ("url", "allowed", "outcome", "says"),
    [
        ("https://s.example.com/news/1", True, "ok", "allows it for reliability-bot"),
        ("https://s.example.com/private/1", False, "refused_robots", "disallows this path"),
        ("http://s.example.com/news/1", False, "refused_url", "only https"),
        ("https://inside.example.com/", False, "refused_address", "non-public"),
        ("https://nowhere.example.com/", False, "network_error", "could not resolve"),
    ],
)
async def test_would_you_fetch_this_url_and_why_not(
    url: str, allowed: bool, outcome: str, says: str, clock: FixedClock
) -> None:
    fetcher, transport, _, _ = make_fetcher(
        permission_site(), {"s.example.com": [PUBLIC], "inside.example.com": ["10.1.2.3"]}, clock
    )
    answer = await fetch_permission(url, fetcher)
    assert (answer.allowed, answer.outcome) == (allowed, outcome)
    assert says.lower() in answer.reason.lower()
    assert transport.page_requests() == []
