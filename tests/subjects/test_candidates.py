"""Step 2: candidate documents (listing, dedup, forward-looking, reuse, URL provenance)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from reliability_core.clock import FixedClock
from reliability_core.constants import CANDIDATE_REUSE_DAYS, CANDIDATES_MAX
from reliability_core.lifetimes import candidate_list_is_reusable
from reliability_core.models import RegistryEntry, SearchResult
from reliability_core.subjects.candidates import (
    FORWARD_LOOKING_QUERIES,
    CandidateListing,
    UrlNotReturnedBySearch,
    assert_url_returned_by_search,
    candidate_queries,
    check_url_returned_by_search,
    document_year,
    is_forward_looking,
    list_candidates,
    urls_not_returned_by_search,
    urls_returned_by_search,
)
from reliability_core.subjects.registry import load_registry
from tests.search_fakes import FakeSearch, demo_world, result

ENTRY = RegistryEntry(
    id="northwind", name="Northwind Energy", kind="company", urls=["https://northwind.example/"]
)
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def many_results(prefix: str, n: int) -> list[SearchResult]:
    return [
        result(
            f"https://{prefix}.example/a/{i}",
            f"Northwind Energy article {i}",
            published=date(2014 + i % 12, 3, 1),
            rank=i + 1,
        )
        for i in range(n)
    ]


async def test_all_queries_run_and_candidates_are_deduplicated_by_canonical_url() -> None:
    shared = result("https://news.example/story?utm_source=x", "Northwind Energy outlook 2027", rank=1)
    same = result("https://NEWS.example:443/story#comments", "Northwind Energy outlook 2027 (copy)", rank=2)
    search = FakeSearch({}, default=[shared, same])
    listing = await list_candidates(ENTRY, search, FixedClock(NOW), "v1", previous=None)
    assert len(search.calls) == len(candidate_queries(ENTRY))
    assert {purpose for _, purpose, _ in search.calls} == {
        f"candidates:{k}" for k, _ in candidate_queries(ENTRY)
    }
    assert [c.url for c in listing.candidates] == ["https://news.example/story?utm_source=x"]
    assert len(listing.result_sets) == len(search.calls)
    assert listing.candidates[0].search_result_set_id == listing.result_sets[0].id
    assert listing.notes  # fewer than 20 found is said
    assert not listing.reused


async def test_candidates_are_capped_at_forty() -> None:
    search = FakeSearch({}, default=[])
    for label, query in candidate_queries(ENTRY):
        search.results[query.query] = many_results(label.replace("_", "-"), 15)
    listing = await list_candidates(ENTRY, search, FixedClock(NOW), "v1", previous=None)
    assert len(listing.candidates) == CANDIDATES_MAX
    assert listing.notes == []


def test_forward_looking_is_read_from_the_wording() -> None:
    assert is_forward_looking("Northwind sets 2030 targets", [], False)
    assert is_forward_looking(
        "Q4 call", ["Revenue rose.", "We expect EBITDA above DKK 28 billion in 2025"], False
    )
    assert is_forward_looking("Review of our plans", [], False)
    assert not is_forward_looking(
        "Northwind reports first-quarter results", ["Revenue rose 4% in the quarter."], False
    )


def test_a_document_returned_by_a_forward_looking_query_is_forward_looking() -> None:
    assert is_forward_looking("Annual results 2019", ["In 2019 we reached 5.4 GW."], True)


async def test_forward_looking_flag_uses_every_sighting_of_a_document() -> None:
    plain = result(
        "https://northwind.example/results-2019", "Annual results 2019", "In 2019 we reached 5.4 GW."
    )
    search = FakeSearch({}, default=[])
    for label, query in candidate_queries(ENTRY):
        if label in FORWARD_LOOKING_QUERIES:
            search.results[query.query] = [plain]
        elif label == "own_writing":
            search.results[query.query] = [plain, result("https://northwind.example/about", "About", rank=2)]
    listing = await list_candidates(ENTRY, search, FixedClock(NOW), "v1", previous=None)
    flags = {c.url: c.forward_looking for c in listing.candidates}
    assert flags == {"https://northwind.example/results-2019": True, "https://northwind.example/about": False}


async def test_only_results_that_name_the_subject_or_sit_on_its_site_are_candidates() -> None:
    search = FakeSearch(
        {},
        default=[
            result("https://news.example/other", "Southwind Power results", "Southwind said profits rose."),
            result("https://news.example/nw", "Wind news", '"We will build," said Northwind Energy.', rank=2),
            result("https://northwind.example/letter", "Letter to shareholders", "Dear shareholders", rank=3),
        ],
    )
    listing = await list_candidates(ENTRY, search, FixedClock(NOW), "v1", previous=None)
    assert [c.url for c in listing.candidates] == [
        "https://news.example/nw",
        "https://northwind.example/letter",
    ]


def test_own_writing_is_searched_on_the_subjects_own_sites() -> None:
    queries = dict(candidate_queries(ENTRY))
    assert queries["own_writing"].include_domains == ["northwind.example"]
    assert "interview" in queries["interview"].query


def test_year_comes_from_the_published_date_else_the_title() -> None:
    assert (
        document_year(result("https://a.example/x", "Annual report 2019", published=date(2020, 2, 1))) == 2020
    )
    assert document_year(result("https://a.example/x", "Annual report 2019")) == 2019
    assert document_year(result("https://a.example/x", "Annual report")) is None


def test_candidate_list_is_reused_within_ninety_days_only() -> None:
    listed = NOW - timedelta(days=CANDIDATE_REUSE_DAYS)
    assert candidate_list_is_reusable(NOW - timedelta(days=89, hours=23), NOW)
    assert not candidate_list_is_reusable(listed, NOW)
    assert not candidate_list_is_reusable(NOW + timedelta(days=1), NOW)


async def test_a_listing_within_ninety_days_is_reused_without_searching() -> None:
    clock = FixedClock(NOW)
    search = FakeSearch({}, default=many_results("news", 3))
    first = await list_candidates(ENTRY, search, clock, "v1", previous=None)
    calls = len(search.calls)
    clock.advance(timedelta(days=60))
    again = await list_candidates(ENTRY, search, clock, "v1", previous=first)
    assert again.reused
    assert len(search.calls) == calls
    assert again.candidates == first.candidates
    clock.advance(timedelta(days=31))
    fresh = await list_candidates(ENTRY, search, clock, "v1", previous=again)
    assert not fresh.reused
    assert len(search.calls) == 2 * calls
    assert fresh.listed_at == clock.now()


async def test_a_listing_for_another_subject_is_not_reused() -> None:
    search = FakeSearch({}, default=many_results("news", 3))
    other = CandidateListing(
        subject_id="someone-else", listed_at=NOW, method_version="v1", candidates=[], result_sets=[]
    )
    listing = await list_candidates(ENTRY, search, FixedClock(NOW), "v1", previous=other)
    assert not listing.reused
    assert listing.subject_id == "northwind"


async def test_a_url_search_did_not_return_is_refused() -> None:
    search = FakeSearch({}, default=[result("https://news.example/story", "Northwind Energy said")])
    listing = await list_candidates(ENTRY, search, FixedClock(NOW), "v1", previous=None)
    returned = urls_returned_by_search(listing.result_sets)
    assert check_url_returned_by_search(
        "https://News.example/story?utm_source=feed", returned
    ).returned_by_search
    refused = check_url_returned_by_search("https://invented.example/story", returned)
    assert not refused.returned_by_search
    assert "never used" in refused.reason
    with pytest.raises(UrlNotReturnedBySearch):
        assert_url_returned_by_search("https://invented.example/story", returned)
    assert_url_returned_by_search("https://news.example/story", returned)
    assert urls_not_returned_by_search(
        ["https://news.example/story", "https://invented.example/story"], listing.result_sets
    ) == ["https://invented.example/story"]


# --- the demo corpus -------------------------------------------------------------------------------


async def test_demo_candidates_find_the_answer_keys_documents(clock: FixedClock) -> None:
    _, search, key = demo_world(clock)
    covered = [e for e in load_registry() if key[e.id]["expected_coverage"] == "covered"]
    assert covered
    expected_total = found_total = flags_agree = 0
    for entry in covered:
        listing = await list_candidates(entry, search, clock, "test", previous=None)
        expected = set(key[entry.id]["documents"])
        forward = set(key[entry.id]["forward_looking_documents"])
        found = {c.url: c for c in listing.candidates}
        both = expected & set(found)
        expected_total += len(expected)
        found_total += len(both)
        flags_agree += sum(found[u].forward_looking == (u in forward) for u in both)
        assert 20 <= len(listing.candidates) <= CANDIDATES_MAX, entry.id
        assert urls_not_returned_by_search(found, listing.result_sets) == []
    recall = found_total / expected_total
    agreement = flags_agree / found_total
    assert recall >= 0.9, f"recall of the answer key's documents {found_total}/{expected_total}"
    assert agreement >= 0.8, f"forward-looking flag agreement {flags_agree}/{found_total}"
