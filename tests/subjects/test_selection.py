"""Step 3: selection by rule (spread order, seeded choice, reserved slots, replacement)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import pytest

from reliability_core.clock import FixedClock
from reliability_core.constants import QUICK_REPORT_DOCUMENTS, QUICK_REPORT_FORWARD_LOOKING
from reliability_core.models import CandidateDocument
from reliability_core.subjects.candidates import list_candidates, urls_not_returned_by_search
from reliability_core.subjects.registry import load_registry
from reliability_core.subjects.selection import (
    derive_seed,
    finalise_sample,
    next_documents_to_check,
    rank_documents,
    reserved_forward_looking_slots,
    spread_year_order,
)
from tests.search_fakes import demo_world

LISTED = datetime(2026, 11, 1, tzinfo=UTC)


def doc(doc_id: str, year: int | None, forward_looking: bool = False) -> CandidateDocument:
    return CandidateDocument(
        method_version="test",
        id=doc_id,
        subject_id="northwind",
        url=f"https://news.example/{doc_id}",
        title=doc_id,
        year=year,
        forward_looking=forward_looking,
        search_result_set_id="srs_1",
        rank=1,
        listed_at=LISTED,
    )


def pool(n_general: int, n_forward: int, first_year: int = 2013) -> list[CandidateDocument]:
    docs = [doc(f"g{i:02d}", first_year + i % 13) for i in range(n_general)]
    docs += [doc(f"f{i:02d}", first_year + (i * 5) % 13, forward_looking=True) for i in range(n_forward)]
    return docs


# --- spread order ---------------------------------------------------------------------


def test_spread_order_takes_newest_then_oldest_then_middle_of_largest_gap() -> None:
    assert spread_year_order([2013, 2019, 2025, 2014, 2024]) == [2025, 2013, 2019, 2024, 2014]


def test_spread_order_splits_the_largest_remaining_gap_first() -> None:
    # After 2025 and 2000, the gap 2000-2025 is split at 2012 (closest to 2012.5);
    # then 2012-2025 (13 years) goes before 2000-2012 (12 years).
    assert spread_year_order([2000, 2002, 2012, 2020, 2025]) == [2025, 2000, 2012, 2020, 2002]


def test_spread_order_on_equal_gaps_splits_the_newer_gap_first() -> None:
    years = list(range(2013, 2026))
    order = spread_year_order(years)
    assert order[:4] == [2025, 2013, 2019, 2022]
    assert sorted(order) == years


def test_spread_order_on_equidistant_years_takes_the_newer() -> None:
    # Middle of 2010-2020 is 2015; 2014 and 2016 are equally close.
    assert spread_year_order([2010, 2014, 2016, 2020]) == [2020, 2010, 2016, 2014]


def test_spread_order_handles_duplicates_one_and_no_years() -> None:
    assert spread_year_order([2020, 2020, 2020]) == [2020]
    assert spread_year_order([]) == []
    assert spread_year_order([2021, 2019]) == [2021, 2019]


# --- seed -----------------------------------------------------------------------------


def test_seed_is_stable_for_the_same_subject_and_method_version() -> None:
    expected = int.from_bytes(hashlib.sha256(b"northwind\n0.1.0+abc").digest()[:8], "big") & (2**63 - 1)
    assert derive_seed("northwind", "0.1.0+abc") == expected
    assert derive_seed("northwind", "0.1.0+abc") == derive_seed("northwind", "0.1.0+abc")


def test_seed_fits_the_signed_64_bit_column_it_is_stored_in() -> None:
    seeds = [derive_seed(f"subject-{n}", "0.1.0+abc") for n in range(200)]
    assert all(0 <= s < 2**63 for s in seeds)


def test_seed_changes_with_subject_or_method_version() -> None:
    base = derive_seed("northwind", "0.1.0+abc")
    assert derive_seed("southwind", "0.1.0+abc") != base
    assert derive_seed("northwind", "0.1.0+abd") != base


def test_same_inputs_give_the_same_ranking_whatever_the_input_order() -> None:
    docs = pool(24, 6)
    seed = derive_seed("northwind", "0.1.0+abc")
    first = [s.document_id for s in rank_documents(docs, seed)]
    again = [s.document_id for s in rank_documents(list(reversed(docs)), seed)]
    assert first == again


def test_a_different_seed_gives_a_different_sample() -> None:
    docs = pool(30, 8)
    samples = {
        tuple(s.document_id for s in rank_documents(docs, derive_seed("northwind", f"v{i}"))[:8])
        for i in range(5)
    }
    assert len(samples) > 1


# --- ranking -------------------------------------------------------------------------


def test_quick_report_reserves_three_forward_looking_slots_of_eight() -> None:
    docs = pool(20, 6)
    ranking = rank_documents(docs, seed=7)
    sample = ranking[:QUICK_REPORT_DOCUMENTS]
    assert len(ranking) == len(docs)
    assert [s.position for s in ranking] == list(range(1, len(docs) + 1))
    assert [s.slot for s in sample].count("forward_looking") == QUICK_REPORT_FORWARD_LOOKING
    assert all(s.forward_looking for s in sample if s.slot == "forward_looking")
    assert all(s.reason for s in ranking)


def test_general_slots_follow_the_year_spread() -> None:
    docs = [doc(f"d{y}", y) for y in (2013, 2015, 2017, 2019, 2021, 2023, 2025)]
    ranking = rank_documents(docs, seed=1, total=5, forward_looking=0)
    assert [s.year for s in ranking] == spread_year_order([d.year for d in docs if d.year is not None])


def test_choice_within_a_year_is_seeded_random() -> None:
    docs = [doc(f"d{i}", 2020) for i in range(10)]
    firsts = {rank_documents(docs, seed=s, total=1, forward_looking=0)[0].document_id for s in range(20)}
    assert len(firsts) > 1
    assert rank_documents(docs, seed=3)[0].document_id == rank_documents(docs, seed=3)[0].document_id


def test_unused_forward_looking_slots_go_to_the_general_pool() -> None:
    docs = pool(20, 1)
    assert reserved_forward_looking_slots(1, QUICK_REPORT_FORWARD_LOOKING) == 1
    sample = rank_documents(docs, seed=11)[:QUICK_REPORT_DOCUMENTS]
    assert len(sample) == QUICK_REPORT_DOCUMENTS
    assert [s.slot for s in sample].count("forward_looking") == 1
    assert [s.slot for s in sample].count("spread") == QUICK_REPORT_DOCUMENTS - 1
    assert "went to the general pool" in sample[1].reason


def test_no_forward_looking_documents_gives_eight_general_slots() -> None:
    sample = rank_documents(pool(12, 0), seed=2)[:QUICK_REPORT_DOCUMENTS]
    assert {s.slot for s in sample} == {"spread"}
    assert len(sample) == QUICK_REPORT_DOCUMENTS


def test_undated_documents_come_after_dated_ones() -> None:
    docs = [doc("undated", None), doc("d1", 2020), doc("d2", 2010)]
    assert [s.document_id for s in rank_documents(docs, seed=5, total=3, forward_looking=0)][-1] == "undated"


# --- replacement ---------------------------------------------------------------------


def test_document_without_statements_is_replaced_by_the_next_by_the_same_rule() -> None:
    ranking = rank_documents(pool(20, 5), seed=9)
    dropped = ranking[QUICK_REPORT_FORWARD_LOOKING]  # a general slot
    checked = {s.document_id: True for s in ranking}
    checked[dropped.document_id] = False
    sample = finalise_sample(ranking, checked)
    ids = [s.document_id for s in sample]
    assert dropped.document_id not in ids
    assert len(sample) == QUICK_REPORT_DOCUMENTS
    replacement = next(s for s in sample if s.slot == "replacement")
    assert replacement.document_id == ranking[QUICK_REPORT_DOCUMENTS].document_id
    assert dropped.document_id in replacement.reason
    assert [s.position for s in sample] == list(range(1, QUICK_REPORT_DOCUMENTS + 1))
    assert all(s.has_subject_statements for s in sample)


def test_forward_looking_slot_prefers_the_next_forward_looking_document() -> None:
    ranking = rank_documents(pool(20, 6), seed=4)
    dropped = ranking[0]
    assert dropped.slot == "forward_looking"
    checked = {s.document_id: True for s in ranking}
    checked[dropped.document_id] = False
    sample = finalise_sample(ranking, checked)
    replacement = next(s for s in sample if s.slot == "replacement")
    expected = next(s for s in ranking[QUICK_REPORT_DOCUMENTS:] if s.forward_looking)
    assert replacement.document_id == expected.document_id
    assert replacement.forward_looking


def test_forward_looking_slot_falls_back_to_any_document_when_none_left() -> None:
    ranking = rank_documents(pool(20, 3), seed=4)
    dropped = ranking[0]
    checked = {s.document_id: True for s in ranking}
    checked[dropped.document_id] = False
    sample = finalise_sample(ranking, checked)
    replacement = next(s for s in sample if s.slot == "replacement")
    assert replacement.document_id == ranking[QUICK_REPORT_DOCUMENTS].document_id


def test_replacements_without_statements_are_skipped_and_the_sample_shrinks_when_none_left() -> None:
    ranking = rank_documents(pool(9, 0), seed=1)
    checked = {s.document_id: False for s in ranking}
    for s in ranking[:6]:
        checked[s.document_id] = True
    sample = finalise_sample(ranking, checked)
    assert len(sample) == 6


def test_sample_cannot_be_finalised_before_the_needed_documents_are_checked() -> None:
    ranking = rank_documents(pool(20, 5), seed=9)
    checked = {s.document_id: True for s in ranking[:QUICK_REPORT_DOCUMENTS]}
    checked[ranking[2].document_id] = False
    needed = next_documents_to_check(ranking, checked)
    assert [s.document_id for s in needed]
    assert all(s.document_id not in checked for s in needed)
    with pytest.raises(ValueError, match="not yet checked"):
        finalise_sample(ranking, checked)
    checked.update({s.document_id: True for s in needed})
    assert next_documents_to_check(ranking, checked) == []
    assert len(finalise_sample(ranking, checked)) == QUICK_REPORT_DOCUMENTS


# --- the demo corpus -------------------------------------------------------------------------------


async def test_demo_sample_is_eight_documents_three_forward_looking_and_reproducible(
    clock: FixedClock,
) -> None:
    _, search, key = demo_world(clock)
    covered = [e for e in load_registry() if key[e.id]["expected_coverage"] == "covered"]
    assert covered
    for entry in covered:
        listing = await list_candidates(entry, search, clock, "test", previous=None)
        seed = derive_seed(entry.id, "test")
        ranking = rank_documents(listing.candidates, seed)
        sample = ranking[:QUICK_REPORT_DOCUMENTS]
        assert [s.slot for s in sample].count("forward_looking") == QUICK_REPORT_FORWARD_LOOKING, entry.id
        spread_years = [s.year for s in sample if s.slot == "spread"]
        assert len(set(spread_years)) == len(spread_years), entry.id  # one per year while years remain
        assert urls_not_returned_by_search([s.url for s in ranking], listing.result_sets) == []
        again = rank_documents(list(reversed(listing.candidates)), seed)
        assert [s.document_id for s in again] == [s.document_id for s in ranking]
