from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from reliability_core.clock import FixedClock
from reliability_core.constants import FETCH_MAX_BYTES
from reliability_core.stand_in.web import (
    OFFLINE_PUBLIC_ADDRESS,
    OfflineCorpusTransport,
    OfflineResolver,
    offline_fetcher,
)
from reliability_core.text.quotes import verify_quote
from reliability_core.web.robots import VirtualTimer

VERSION = "0.1.0+offline-rules"

ARTICLE = """<html><head><title>Northwind results</title></head><body><article>
<p>&ldquo;We installed 7.4&nbsp;GW of offshore capacity in 2022,&rdquo; said Jane Doe.</p>
</article></body></html>"""


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    pages = tmp_path / "pages" / "wire.example"
    pages.mkdir(parents=True)
    (pages / "results.html").write_text(ARTICLE, encoding="utf-8")
    (tmp_path / "pages" / "slow.example").mkdir()
    (tmp_path / "pages" / "slow.example" / "page.html").write_text("<p>A polite page.</p>", encoding="utf-8")
    (tmp_path / "robots").mkdir()
    (tmp_path / "robots" / "wire.example.txt").write_text(
        "User-agent: *\nDisallow: /private/\n", encoding="utf-8"
    )
    (tmp_path / "robots" / "slow.example.txt").write_text(
        "User-agent: *\nCrawl-delay: 60\n", encoding="utf-8"
    )
    manifest = {
        "pages": [
            {"url": "https://wire.example/2022/results", "file": "wire.example/results.html"},
            {
                "url": "https://wire.example/old",
                "status": 301,
                "redirect_to": "https://wire.example/2022/results",
            },
            {"url": "https://wire.example/gone", "status": 410},
            {"url": "https://wire.example/broken", "status": 503},
            {"url": "https://wire.example/private/memo", "file": "wire.example/results.html"},
            {"url": "https://wire.example/huge", "oversize_bytes": FETCH_MAX_BYTES + 1000},
            {
                "url": "https://wire.example/report.pdf",
                "file": "wire.example/results.html",
                "content_type": "application/pdf",
            },
            {
                "url": "https://wire.example/to-inside",
                "status": 302,
                "redirect_to": "https://127.0.0.1/admin",
            },
            {"url": "https://blog.example/post", "file": "wire.example/results.html"},
            {"url": "https://slow.example/page", "file": "slow.example/page.html"},
        ],
    }
    (tmp_path / "manifest.yaml").write_text(yaml.safe_dump(manifest), encoding="utf-8")
    return tmp_path


async def test_offline_fetcher_serves_corpus_pages_through_the_same_rules(
    corpus: Path, clock: FixedClock
) -> None:
    fetcher = offline_fetcher(corpus, clock)
    snap = await fetcher.snapshot("https://wire.example/2022/results", VERSION)
    assert snap.outcome == "ok"
    assert snap.status == 200
    assert snap.title == "Northwind results"
    assert verify_quote("We installed 7.4 GW of offshore capacity in 2022", snap.text).verified


async def test_offline_transport_receives_requests_for_the_checked_address(
    corpus: Path, clock: FixedClock
) -> None:
    fetcher = offline_fetcher(corpus, clock)
    await fetcher.snapshot("https://wire.example/2022/results", VERSION)
    transport = fetcher._transport
    assert isinstance(transport, OfflineCorpusTransport)
    assert {r.url.host for r in transport.requests} == {OFFLINE_PUBLIC_ADDRESS}
    assert {r.headers["host"] for r in transport.requests} == {"wire.example"}
    assert [r.url.path for r in transport.requests] == ["/robots.txt", "/2022/results"]


@pytest.mark.parametrize(
    ("url", "outcome", "status"),
    [
        ("https://wire.example/old", "ok", 200),
        ("https://wire.example/gone", "http_error", 410),
        ("https://wire.example/broken", "http_error", 503),
        ("https://wire.example/not-in-manifest", "http_error", 404),
        ("https://wire.example/private/memo", "refused_robots", None),
        ("https://wire.example/huge", "too_large", 200),
        ("https://wire.example/report.pdf", "unverifiable_pdf", 200),
        ("https://wire.example/to-inside", "refused_url", 302),
        ("https://slow.example/page", "skipped_crawl_delay", None),
        ("https://unknown.example/", "network_error", None),
    ],
)
async def test_offline_corpus_declares_redirects_errors_and_edge_pages(
    url: str, outcome: str, status: int | None, corpus: Path, clock: FixedClock
) -> None:
    snap = await offline_fetcher(corpus, clock).snapshot(url, VERSION)
    assert snap.outcome == outcome, snap.reason
    assert snap.status == status


async def test_host_without_robots_file_is_allowed(corpus: Path, clock: FixedClock) -> None:
    snap = await offline_fetcher(corpus, clock).snapshot("https://blog.example/post", VERSION)
    assert snap.outcome == "ok"


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/",
        "https://metadata.google.internal/computeMetadata/v1/",
        "https://169.254.169.254/latest/meta-data/",
        "http://wire.example/2022/results",
        "https://[::1]/",
        "https://0x7f.1/",
    ],
)
async def test_hostile_urls_are_refused_offline_too(url: str, corpus: Path, clock: FixedClock) -> None:
    fetcher = offline_fetcher(corpus, clock)
    snap = await fetcher.snapshot(url, VERSION)
    assert snap.outcome == "refused_url"
    transport = fetcher._transport
    assert isinstance(transport, OfflineCorpusTransport)
    assert transport.requests == []


async def test_offline_resolver_overrides_let_a_corpus_name_resolve_inside(
    corpus: Path, clock: FixedClock
) -> None:
    from reliability_core.web.fetch import SafeFetcher

    transport = OfflineCorpusTransport(corpus)
    resolver = OfflineResolver(transport.hosts(), overrides={"wire.example": ["10.0.0.1"]})
    fetcher = SafeFetcher(transport=transport, resolver=resolver, clock=clock, timer=VirtualTimer())
    snap = await fetcher.snapshot("https://wire.example/2022/results", VERSION)
    assert snap.outcome == "refused_address"
    assert transport.requests == []


def test_offline_hosts_come_from_pages_and_robots_files(corpus: Path) -> None:
    assert OfflineCorpusTransport(corpus).hosts() == {"wire.example", "blog.example", "slow.example"}


async def test_manifest_robots_entry_points_at_a_file(corpus: Path, clock: FixedClock) -> None:
    (corpus / "robots" / "custom.txt").write_text("User-agent: *\nDisallow: /\n", encoding="utf-8")
    manifest = yaml.safe_load((corpus / "manifest.yaml").read_text(encoding="utf-8"))
    manifest["robots"] = {"blog.example": "robots/custom.txt"}
    (corpus / "manifest.yaml").write_text(yaml.safe_dump(manifest), encoding="utf-8")
    snap = await offline_fetcher(corpus, clock).snapshot("https://blog.example/post", VERSION)
    assert snap.outcome == "refused_robots"
