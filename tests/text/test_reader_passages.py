"""[#14] section 4: the evidence reader is sent the passages of a page that bear on the claim."""

from __future__ import annotations

from reliability_core.verdicts.passages import PASSAGE_GAP, passages_for_claim

CLAIM = "Northwind Energy will commission the Sea Lynx offshore wind farm in 2024."
FILLER = "The weather in the harbour town was mild and the ferries ran on time all week long."


def _page(*middle: str, filler: int = 40) -> str:
    lead = "COPENHAGEN, 2025-01-10. Northwind Energy published its annual report today."
    return "\n".join([lead, *([FILLER] * filler), *middle, *([FILLER] * filler)])


def test_reader_gets_only_the_passages_sharing_the_claims_terms_and_the_lead() -> None:
    key = "The Sea Lynx offshore wind farm was commissioned in March 2024, on schedule."
    page = _page(key)
    passages = passages_for_claim(page, CLAIM, ["Northwind Energy"])
    assert passages.bears_on_claim
    assert key in passages.text
    assert passages.text.startswith("COPENHAGEN, 2025-01-10.")  # the lead: dateline and subject
    assert PASSAGE_GAP in passages.text  # a cut between passages is marked, not hidden
    assert passages.sent_chars < passages.page_chars / 5


def test_a_page_naming_only_the_subject_bears_on_nothing() -> None:
    # Every page about the subject shares its name: that alone is no reason to read the page.
    page = _page("Northwind Energy appointed a new chief financial officer in 2023.")
    passages = passages_for_claim(page, CLAIM, ["Northwind Energy"])
    assert not passages.bears_on_claim
    assert passages.text == ""


def test_passages_stay_within_the_bound_on_a_huge_page() -> None:
    key = "Sea Lynx offshore wind farm commissioning slipped to 2025."
    page = "\n".join([key, FILLER] * 5_000)  # ~500 kB, the key sentence repeated everywhere
    passages = passages_for_claim(page, CLAIM, ["Northwind Energy"], max_chars=3_000)
    assert passages.bears_on_claim
    assert passages.sent_chars <= 3_000
    assert f"of {len(page)} characters" in passages.note("https://example.org/p")
