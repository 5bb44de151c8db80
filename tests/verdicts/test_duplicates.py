"""Own-source copies, repeats of the claim, and the same story counted once."""

from __future__ import annotations

from reliability_core.models.base import SourceClass
from reliability_core.verdicts.duplicates import (
    copies_in_keeping_order,
    group_same_story,
    is_copy_of,
    mark_same_story,
    repeats_claim,
)
from tests.verdicts.factories import make_item

STORY = (
    "Northwind Energy said on Tuesday that its Baltic Three offshore wind farm had been delayed by a year "
    "after a supplier failed to deliver turbine foundations on time. The company now expects the farm to be "
    "completed in 2026 rather than 2025, a spokesperson said, adding that the cost impact would be reported "
    "with the annual results in February."
)
OTHER = (
    "Statistics Office figures published in March showed that national electricity consumption fell by 2.1 "
    "percent in 2024, the third annual decline in a row, driven by milder winters and efficiency gains."
)


def test_copy_of_own_source_at_another_address_is_detected() -> None:
    copy = "Home | News | Energy\n" + STORY + "\nShare this article. Related: markets."
    assert is_copy_of(copy, STORY)


def test_unrelated_page_is_not_a_copy() -> None:
    assert not is_copy_of(OTHER, STORY)


def test_report_that_only_repeats_the_claim_is_detected() -> None:
    claim = "We will have 8 GW of offshore wind installed by the end of 2024."
    quote = 'Northwind said: "We will have 8 GW of offshore wind installed by the end of 2024."'
    assert repeats_claim(quote, [claim])


def test_independent_account_does_not_repeat_the_claim() -> None:
    claim = "We will have 8 GW of offshore wind installed by the end of 2024."
    quote = "The regulator's register listed 7.4 GW of Northwind offshore capacity in operation on 31 December 2024."
    assert not repeats_claim(quote, [claim])


def test_same_story_on_several_sites_is_one_group() -> None:
    syndicated = "Via Example Wire. " + STORY
    groups = group_same_story({"a": STORY, "b": OTHER, "c": syndicated})
    assert groups == [["a", "c"], ["b"]]


def test_the_most_authoritative_copy_of_a_story_counts_then_the_first_found() -> None:
    story = ["blog", "newsroom", "wire", "other_wire"]
    classes: dict[str, SourceClass | None] = {
        "blog": None,
        "newsroom": "established_newsroom",
        "wire": "wire_service",
        "other_wire": "wire_service",
    }
    assert copies_in_keeping_order(story, classes) == ["wire", "other_wire", "newsroom", "blog"]


def test_a_second_copy_of_a_story_is_excluded_naming_the_kept_page() -> None:
    newsroom = make_item("n", snapshot_id="snap_n", source_class="established_newsroom")
    wire = make_item("w", snapshot_id="snap_w", source_class="wire_service")
    marked = mark_same_story([newsroom, wire], {"snap_n": STORY, "snap_w": "Via Example Wire. " + STORY})
    by_id = {item.id: item for item in marked}
    assert not by_id["w"].excluded
    assert by_id["n"].excluded and by_id["n"].same_story_as == "snap_w"


def test_the_lsh_bands_and_rows_are_chosen_once_per_process_and_are_datasketchs_choice(monkeypatch) -> None:
    """Issue 29: datasketch chose the index's bands and rows by numerical integration on every
    ``group_same_story`` call (thousands of ``quad`` calls each); they depend only on the
    threshold and the permutation count, so they are chosen once, and are the same choice."""
    import datasketch.lsh

    from reliability_core.verdicts import duplicates

    expected = datasketch.lsh._optimal_param(duplicates._LSH_THRESHOLD, 128, 0.5, 0.5)
    duplicates.lsh_bands_and_rows.cache_clear()
    searches: list[float] = []
    original = datasketch.lsh._optimal_param

    def counted(threshold: float, *args: float) -> tuple[int, int]:
        searches.append(threshold)
        return original(threshold, *args)

    monkeypatch.setattr(datasketch.lsh, "_optimal_param", counted)
    pages = {"a": STORY, "b": OTHER, "c": "Via Example Wire. " + STORY}
    for _ in range(3):
        assert group_same_story(pages) == [["a", "c"], ["b"]]
    assert len(searches) == 1
    assert duplicates.lsh_bands_and_rows(duplicates._LSH_THRESHOLD) == expected
