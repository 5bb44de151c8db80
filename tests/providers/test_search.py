from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import httpx
import pytest
import yaml

from reliability_core.clock import FixedClock
from reliability_core.providers.base import SearchQuery
from reliability_core.providers.cache import ResponseCache
from reliability_core.providers.errors import ProviderCallError
from reliability_core.providers.perplexity import PerplexitySearch, perplexity_domain_filter
from reliability_core.providers.recording import RecordingSearch
from reliability_core.providers.retry import RetryPolicy
from reliability_core.stand_in.search import OfflineSearch, fts_query
from reliability_core.wiring import build_search

from .wire import Scripted1

PERPLEXITY_BODY = {
    "results": [
        {
            "title": "Northwind reports 7.4 GW installed",
            "url": "https://wire.example/northwind-2022",
            "snippet": "Northwind reported 7.4 GW of installed offshore capacity.",
            "date": "2023-02-01",
            "last_updated": "2023-02-02",
        },
        {
            "title": "Northwind annual report 2022",
            "url": "https://northwind.example/report-2022",
            "snippet": "In 2022 we installed ...",
            "date": None,
            "last_updated": None,
        },
    ],
    "id": "e38104d5-6bd7-4d82-bc4e-0a21179d1f77",
}


class NoSleep:
    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


async def test_perplexity_request_and_response_follow_the_search_api_wire_format() -> None:
    script = Scripted1(httpx.Response(200, json=PERPLEXITY_BODY))
    search = PerplexitySearch("pplx-key", client=script.client())

    results = await search.search(
        SearchQuery(
            query="Northwind installed capacity 2022",
            max_results=5,
            published_after=date(2023, 1, 1),
            published_before=date(2023, 12, 31),
            include_domains=["wire.example", "northwind.example"],
            exclude_domains=["forum.example"],
        )
    )

    (request,) = script.requests
    assert request.method == "POST" and str(request.url) == "https://api.perplexity.ai/search"
    assert request.headers["authorization"] == "Bearer pplx-key"
    assert json.loads(request.content) == {
        "query": "Northwind installed capacity 2022",
        "max_results": 5,
        # Allowlist and denylist never mixed: the excluded domain is enforced on the results.
        "search_domain_filter": ["wire.example", "northwind.example"],
        "search_after_date_filter": "1/1/2023",
        "search_before_date_filter": "12/31/2023",
    }
    assert [(r.rank, r.url, r.published_date) for r in results] == [
        (1, "https://wire.example/northwind-2022", date(2023, 2, 1)),
        (2, "https://northwind.example/report-2022", None),
    ]
    assert results[0].snippet.startswith("Northwind reported 7.4 GW")


def test_domain_filter_is_never_mixed_and_holds_at_most_20_entries() -> None:
    many = [f"site{i}.example" for i in range(30)]
    allow = perplexity_domain_filter(many, ["forum.example"])
    assert allow == many[:20]
    deny = perplexity_domain_filter([], many)
    assert deny == [f"-{d}" for d in many[:20]]
    assert all(d.startswith("-") for d in deny) and not any(d.startswith("-") for d in allow)


async def test_perplexity_base_url_comes_from_the_environment() -> None:
    script = Scripted1(httpx.Response(200, json={"results": []}))
    search = build_search(
        {"PERPLEXITY_API_KEY": "k", "PERPLEXITY_BASE_URL": "http://127.0.0.1:9/pplx/"},
        Path("data/corpus"),
        http_client=script.client(),
    )
    await search.provider.search(SearchQuery(query="q"))
    assert str(script.requests[0].url) == "http://127.0.0.1:9/pplx/search"


async def test_perplexity_results_outside_the_filters_are_dropped_even_if_returned() -> None:
    body = {
        "results": [
            {"title": "old", "url": "https://wire.example/old", "snippet": "", "date": "2019-01-01"},
            {"title": "forum", "url": "https://forum.example/t/1", "snippet": "", "date": "2023-05-01"},
            {"title": "ok", "url": "https://news.wire.example/ok", "snippet": "", "date": "2023-05-01"},
        ]
    }
    search = PerplexitySearch("k", client=Scripted1(httpx.Response(200, json=body)).client())
    results = await search.search(
        SearchQuery(query="q", published_after=date(2023, 1, 1), exclude_domains=["forum.example"])
    )
    assert [(r.url, r.rank) for r in results] == [("https://news.wire.example/ok", 1)]


async def test_perplexity_rate_limit_is_retried_and_then_gives_up_naming_the_provider() -> None:
    sleep = NoSleep()
    script = Scripted1(
        httpx.Response(429, headers={"Retry-After": "2"}, json={"error": "rate limited"}),
        httpx.ReadTimeout("slow"),
        httpx.Response(200, json=PERPLEXITY_BODY),
    )
    search = PerplexitySearch("k", client=script.client(), retry=RetryPolicy(sleep=sleep))
    assert len(await search.search(SearchQuery(query="q"))) == 2
    assert sleep.waits[0] == 2.0 and len(sleep.waits) == 2

    failing = Scripted1(*(httpx.Response(502, text="bad gateway") for _ in range(2)))
    search = PerplexitySearch(
        "k", client=failing.client(), retry=RetryPolicy(max_attempts=2, sleep=NoSleep())
    )
    with pytest.raises(ProviderCallError, match="perplexity"):
        await search.search(SearchQuery(query="q"))


PAGES = {
    "a.example/wind.html": "<html><head><title>Wind</title></head><body><p>Northwind installed 7.4 GW of "
    "offshore wind capacity.</p><script>var hidden = 'zebra';</script></body></html>",
    "b.example/solar.html": "<html><body><p>Sunco built solar farms; Northwind was not involved.</p></body></html>",
    "c.example/hidden.html": "<html><body><p>Northwind offshore wind secret page.</p></body></html>",
    "d.example/old.html": "<html><body><p>Northwind offshore wind in the early years.</p></body></html>",
    "e.example/undated.html": "<html><body><p>Northwind offshore wind, undated.</p></body></html>",
}


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    for rel, html in PAGES.items():
        path = root / "pages" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, encoding="utf-8")

    def page(url: str, file: str | None, **extra: object) -> dict[str, object]:
        return {"url": url, "file": file, **extra}

    manifest = {
        "pages": [
            page(
                "https://a.example/wind",
                "a.example/wind.html",
                title="Northwind wind build-out",
                published="2023-02-01",
                keywords=["Northwind", "capacity"],
            ),
            page(
                "https://b.example/solar", "b.example/solar.html", title="Sunco solar", published="2023-03-01"
            ),
            page(
                "https://c.example/hidden",
                "c.example/hidden.html",
                title="Hidden",
                published="2023-03-01",
                searchable=False,
            ),
            page("https://d.example/old", "d.example/old.html", title="Old wind", published="2012-01-01"),
            page("https://e.example/undated", "e.example/undated.html", title="Undated wind"),
            page("https://a.example/gone", None, status=404, title="Northwind wind gone"),
            page(
                "https://a.example/moved",
                None,
                status=301,
                redirect_to="https://a.example/wind",
                title="Northwind wind moved",
            ),
        ]
    }
    (root / "manifest.yaml").write_text(yaml.safe_dump(manifest), encoding="utf-8")
    return root


async def test_offline_search_ranks_by_bm25_and_never_returns_unsearchable_or_non_200_pages(
    corpus: Path,
) -> None:
    search = OfflineSearch(corpus)
    results = await search.search(SearchQuery(query="Northwind offshore wind capacity"))
    urls = [r.url for r in results]
    assert urls[0] == "https://a.example/wind"
    assert "https://c.example/hidden" not in urls
    assert "https://a.example/gone" not in urls and "https://a.example/moved" not in urls
    assert [r.rank for r in results] == list(range(1, len(results) + 1))
    assert results[0].published_date == date(2023, 2, 1)
    assert "7.4 GW" in results[0].snippet


async def test_offline_search_reads_visible_text_only(corpus: Path) -> None:
    assert await OfflineSearch(corpus).search(SearchQuery(query="zebra")) == []


async def test_offline_search_honours_date_range_and_domain_filters(corpus: Path) -> None:
    search = OfflineSearch(corpus)
    dated = await search.search(
        SearchQuery(query="Northwind", published_after=date(2020, 1, 1), published_before=date(2023, 12, 31))
    )
    assert {r.url for r in dated} == {"https://a.example/wind", "https://b.example/solar"}
    only_b = await search.search(SearchQuery(query="Northwind", include_domains=["b.example"]))
    assert [r.url for r in only_b] == ["https://b.example/solar"]
    not_a = await search.search(SearchQuery(query="Northwind", exclude_domains=["a.example"]))
    assert "https://a.example/wind" not in {r.url for r in not_a} and not_a
    assert len(await search.search(SearchQuery(query="Northwind", max_results=2))) == 2


def test_search_words_cannot_inject_fts_syntax() -> None:
    assert fts_query('NEAR(" wind" OR *) -solar') == '"near" OR "solar" OR "wind"'
    assert fts_query("the ...") == '"the"'
    assert fts_query("  ") is None


async def test_offline_search_is_deterministic(corpus: Path) -> None:
    query = SearchQuery(query="Northwind wind")
    assert await OfflineSearch(corpus).search(query) == await OfflineSearch(corpus).search(query)


async def test_recorded_result_set_is_stable_and_a_cached_query_makes_no_search_call(
    corpus: Path, tmp_path: Path
) -> None:
    clock = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
    cache_dir = tmp_path / "search-cache"
    first = RecordingSearch(OfflineSearch(corpus), ResponseCache(cache_dir), clock)
    query = SearchQuery(query="Northwind wind", max_results=3)
    one = await first.search("northwind-energy", "candidates", query, "0.1.0+abc")
    assert one.id.startswith("srs_") and one.provider == "offline-search"
    assert one.retrieved_at == clock.now() and one.results

    clock.advance(timedelta(days=1))
    again = RecordingSearch(OfflineSearch(corpus), ResponseCache(cache_dir), clock)
    two = await again.search("northwind-energy", "candidates", query, "0.1.0+abc")
    assert again.calls == 0
    assert two == one

    fresh = RecordingSearch(OfflineSearch(corpus), ResponseCache(cache_dir, bypass=True), clock)
    three = await fresh.search("northwind-energy", "candidates", query, "0.1.0+abc")
    assert fresh.calls == 1 and three.retrieved_at == clock.now() and three.id == one.id
    other = await fresh.search("northwind-energy", "identity", query, "0.1.0+abc")
    assert other.id != one.id


async def test_offline_search_indexes_the_demo_corpus() -> None:
    corpus_dir = Path(__file__).resolve().parents[2] / "data" / "corpus"
    if not (corpus_dir / "manifest.yaml").exists():
        pytest.skip("demo corpus not generated")
    results = await OfflineSearch(corpus_dir).search(SearchQuery(query="Northwind offshore capacity"))
    assert results
    assert all(r.url.startswith("https://") for r in results)
