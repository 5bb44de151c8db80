"""Evidence pages: fetched once per run, a stored snapshot reused inside its lifetime ([#19])."""

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from reliability_core.models import PageSnapshot
from reliability_core.web.snapshots import ReusingFetcher, snapshot_reusable

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
MV = "0.1.0+test"


def page(url: str, *, at: datetime = NOW, outcome: str = "ok", version: str = MV, body: str = "text") -> PageSnapshot:
    return PageSnapshot.model_validate(
        {
            "id": f"snap_{url}_{at.isoformat()}_{body}",
            "url": url,
            "final_url": url,
            "status": 200 if outcome == "ok" else None,
            "fetched_at": at,
            "sha256": f"sha_{body}" if outcome == "ok" else None,
            "byte_count": len(body),
            "content_type": "text/html",
            "outcome": outcome,
            "text": body,
            "main_text": body,
            "method_version": version,
        }
    )


class SlowCountingFetcher:
    """A fetcher that takes a moment per page (so concurrent asks overlap) and counts fetches."""

    def __init__(self) -> None:
        self.fetches: list[str] = []

    async def snapshot(self, url: str, method_version: str) -> PageSnapshot:
        self.fetches.append(url)
        await asyncio.sleep(0.01)
        return page(url, body="fresh")


def test_a_url_returned_to_many_claims_at_once_is_fetched_once_per_run() -> None:
    inner = SlowCountingFetcher()
    fetcher = ReusingFetcher(inner, [], method_version=MV, now=NOW, not_before=None)

    async def claims_researching() -> list[PageSnapshot]:
        asks = [fetcher.snapshot(url, MV) for url in ["https://a.example/x", "https://b.example/y"] * 6]
        return list(await asyncio.gather(*asks))

    got = asyncio.run(claims_researching())
    assert sorted(inner.fetches) == ["https://a.example/x", "https://b.example/y"]
    assert len({s.id for s in got}) == 2 and fetcher.fetched == 2 and fetcher.reused == 10


def test_a_stored_snapshot_inside_its_lifetime_is_reused_and_the_newest_one_wins() -> None:
    inner = SlowCountingFetcher()
    stored = [page("https://a.example/x", at=NOW - timedelta(hours=20), body="older"), page("https://a.example/x", at=NOW - timedelta(hours=2), body="newer")]
    fetcher = ReusingFetcher(inner, stored, method_version=MV, now=NOW, not_before=None)
    got = asyncio.run(fetcher.snapshot("https://a.example/x", MV))
    assert got.text == "newer" and inner.fetches == []


@pytest.mark.parametrize(
    ("why", "stored", "not_before"),
    [
        ("older than a day (the shortest re-check interval)", page("https://a.example/x", at=NOW - timedelta(days=1)), None),
        ("a refused fetch is not a page", page("https://a.example/x", outcome="refused_robots"), None),
        ("read by another method version", page("https://a.example/x", version="0.0.9"), None),
        ("fetched before the newest frozen criteria", page("https://a.example/x", at=NOW - timedelta(hours=1)), NOW - timedelta(minutes=30)),
        ("fetched after now (another clock)", page("https://a.example/x", at=NOW + timedelta(hours=1)), None),
    ],
)
def test_a_stored_snapshot_outside_its_lifetime_is_fetched_again(
    why: str, stored: PageSnapshot, not_before: datetime | None
) -> None:
    assert not snapshot_reusable(stored, method_version=MV, now=NOW, not_before=not_before), why
    inner = SlowCountingFetcher()
    fetcher = ReusingFetcher(inner, [stored], method_version=MV, now=NOW, not_before=not_before)
    assert asyncio.run(fetcher.snapshot("https://a.example/x", MV)).text == "fresh"
    assert inner.fetches == ["https://a.example/x"]


def test_one_asker_cancelled_does_not_cancel_the_page_for_the_others() -> None:
    inner = SlowCountingFetcher()
    fetcher = ReusingFetcher(inner, [], method_version=MV, now=NOW, not_before=None)

    async def scenario() -> PageSnapshot:
        first = asyncio.ensure_future(fetcher.snapshot("https://a.example/x", MV))
        second = asyncio.ensure_future(fetcher.snapshot("https://a.example/x", MV))
        await asyncio.sleep(0)
        first.cancel()
        return await second

    assert asyncio.run(scenario()).text == "fresh" and inner.fetches == ["https://a.example/x"]
