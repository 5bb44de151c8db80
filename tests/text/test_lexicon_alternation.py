"""The grouped alternation of a concept (text.lexicon.alternation) finds what the plain
alternation of its entries finds: grouping by first letter only decides which entries a
position tries, never what matches."""

from __future__ import annotations

import re

from reliability_core.text.lexicon import alternation, entry_pattern

ENTRIES = [
    "cancer", "treated for", "hospital*", "erkrank*", "*مستشفى", "入院", "병원", "no more than", "more than",
    "mor", "mormor", "søn", "Ärztin", "İzmir", "re:\\d+\\s?%", "a déclaré qu'", "я",
]  # fmt: skip
TEXT = (
    "Mormor was treated for cancer; no more than 3 hospitals, 45 % of patients. Er ist erkrankt. "
    "دخل بالمستشفى. 社長は先月入院した. 병원에 입원했다. Il a déclaré qu’il partirait. Ärztin in İzmir. "
    "Я здесь. Her søn and his mor. Cancerous hospitality humour."
)


def _plain(entries: list[str]) -> re.Pattern[str]:
    return re.compile(
        "|".join(sorted({entry_pattern(e) for e in entries}, key=len, reverse=True)), re.IGNORECASE
    )


def test_grouped_alternation_finds_what_the_plain_alternation_finds() -> None:
    grouped = re.compile(alternation(ENTRIES), re.IGNORECASE)
    text = TEXT.replace("\u2019", "'")
    assert [m.span() for m in grouped.finditer(text)] == [m.span() for m in _plain(ENTRIES).finditer(text)]
    assert grouped.search("the CANCER ward") and not grouped.search("cancerous")


def test_longer_entry_still_wins_at_one_position() -> None:
    grouped = re.compile(alternation(["mor", "mormor", "more than", "no more than"]), re.IGNORECASE)
    assert [m.group(0) for m in grouped.finditer("Mormor: no more than that")] == ["Mormor", "no more than"]


def test_an_empty_concept_matches_nothing() -> None:
    assert re.compile(alternation([])).search("anything") is None
