"""Own-source copies, repeats of the claim, and the same story counted once."""

from __future__ import annotations

from reliability_core.verdicts.duplicates import group_same_story, is_copy_of, repeats_claim

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
