"""Issue 26 §3: a search that still fails after its retries stays with its query.

The search provider here fails chosen queries on every attempt, through the real retry
policy and the real recording search, so the step sees exactly the ``ProviderCallError``
live search raises after its retries. The subject goes on with the other queries and the
failure is recorded; only a provider that answered none of the queries fails the step.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from reliability_core.clock import FixedClock
from reliability_core.models import SearchResult
from reliability_core.providers.base import SearchQuery
from reliability_core.providers.errors import ProviderUnreachableError, TransientProviderError
from reliability_core.providers.faults import FaultInjectingSearch
from reliability_core.providers.recording import RecordingSearch
from reliability_core.providers.retry import RetryPolicy
from reliability_core.stand_in.rules.coverage import confirm_identity, decide_coverage
from reliability_core.stand_in.search import OfflineSearch
from reliability_core.subjects.candidates import list_candidates
from reliability_core.subjects.coverage import assess_coverage
from reliability_core.subjects.registry import load_registry
from tests.search_fakes import DEMO_CORPUS, FakeGateway, result
from tests.subjects.test_coverage import NORTHWIND

CLOCK = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))

HITS = [
    result("https://northwind.example/about", "About Northwind Energy", "Northwind Energy is an offshore wind company."),
    result("https://wire.example/nw", "Northwind Energy raises target", "Northwind Energy said it will build more.", rank=2),
]  # fmt: skip


async def no_sleep(_: float) -> None:
    return None


class FailingQueries:
    """A search provider that answers every query with ``HITS`` except those in
    ``failing``, which fail with a 500 on every attempt."""

    name = "scripted-search"

    def __init__(self, failing: set[str]) -> None:
        self.failing = failing
        self.attempts = 0

    async def search(self, query: SearchQuery) -> list[SearchResult]:
        async def attempt() -> list[SearchResult]:
            self.attempts += 1
            if query.query in self.failing:
                raise TransientProviderError("HTTP 500 Internal Server Error", status=500)
            return HITS

        return await RetryPolicy(max_attempts=3, sleep=no_sleep).call(attempt, step="search", provider=self.name)


def recording(provider: object) -> RecordingSearch:
    return RecordingSearch(provider, None, CLOCK)  # type: ignore[arg-type]


def offline_gateway() -> FakeGateway:
    return FakeGateway({"confirm_identity": confirm_identity, "decide_coverage": decide_coverage}, "offline-rules")


async def test_a_failed_identity_query_is_recorded_and_coverage_is_decided_on_the_others() -> None:
    provider = FailingQueries({"Northwind"})
    outcome = await assess_coverage(NORTHWIND, offline_gateway(), recording(provider), CLOCK, "v1")
    assert provider.attempts == 1 + 3, "the failing query was retried as live search retries it"
    assert [rs.query for rs in outcome.result_sets] == ["Northwind Energy"]
    (failure,) = outcome.search_failures
    assert (failure.item_kind, failure.item_id, failure.step) == ("query", "identity: Northwind", "search")
    assert failure.label() == "search provider error" and "after 3 attempts" in failure.detail
    assert outcome.decision.covered, outcome.decision.reasons
    assert any(r.startswith("identity search failed: identity: Northwind") for r in outcome.decision.reasons)


async def test_a_failed_candidate_query_is_recorded_and_the_listing_is_built_from_the_others() -> None:
    provider = FailingQueries({"Northwind Energy said"})
    listing = await list_candidates(NORTHWIND, recording(provider), CLOCK, "v1")
    assert len(listing.result_sets) == 5
    assert {c.url for c in listing.candidates} == {h.url for h in HITS}
    (failure,) = listing.search_failures
    assert failure.item_id == "candidates:news_quoting: Northwind Energy said"
    assert any("candidates:news_quoting" in note and "search provider error" in note for note in listing.notes)


async def test_a_listing_with_a_failed_query_is_not_reused_and_the_next_run_searches_again() -> None:
    first = await list_candidates(NORTHWIND, recording(FailingQueries({"Northwind Energy said"})), CLOCK, "v1")
    healed = FailingQueries(set())
    second = await list_candidates(NORTHWIND, recording(healed), CLOCK, "v1", previous=first)
    assert not second.reused and not second.search_failures and healed.attempts == 6


async def test_a_search_that_answers_no_query_fails_the_step_as_an_unreachable_provider() -> None:
    everything = {q for q in ("Northwind Energy", "Northwind")}
    with pytest.raises(ProviderUnreachableError, match="answered none of the 2 queries"):
        await assess_coverage(NORTHWIND, offline_gateway(), recording(FailingQueries(everything)), CLOCK, "v1")


async def test_at_seventy_percent_search_faults_every_demo_subject_completes_steps_one_and_two() -> None:
    # Unbounded faults: a query fails all five attempts with probability 0.7**5 (about 1 in 6),
    # so over the demo registry's queries several fail for good, and each stays with its query.
    offline = OfflineSearch(DEMO_CORPUS)
    failures = 0
    for entry in load_registry(DEMO_CORPUS.parent / "subjects.yaml"):
        faulty = FaultInjectingSearch(offline, 0.7, seed=11, retry=RetryPolicy(sleep=no_sleep))
        search = recording(faulty)
        coverage = await assess_coverage(entry, offline_gateway(), search, CLOCK, "v1")
        listing = await list_candidates(entry, search, CLOCK, "v1")
        failures += len(coverage.search_failures) + len(listing.search_failures)
        assert len(listing.result_sets) + len(listing.search_failures) == 6
    assert failures > 0
