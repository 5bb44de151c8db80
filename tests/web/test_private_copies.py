"""Issue 24 §6: a sentence step 4 found private is masked in a copy of its page read later
under another URL (a syndicated report fetched as evidence), by fingerprint, never by
keeping its text; the keyword rule alone would miss it when its words do not say private
life."""

from __future__ import annotations

from reliability_core.stages import known_private_sentences, remember_private_sentences
from reliability_core.text.privacy import PRIVATE_REDACTION
from reliability_core.text.private_sentences import (
    mask_fingerprinted_sentences,
    private_sentence_fingerprints,
    sentence_fingerprint,
)
from reliability_core.warehouse import Ledger
from reliability_core.web.snapshots import MaskingFetcher
from tests.verdicts.builders import FakeFetcher, snapshot

# The classifier found this private; its words hold no private-life keyword.
PRIVATE = "Anna Berg said she will spend the spring at the clinic in Lausanne with Jonas."
PAGE = f"Anna Berg spoke at the results. Revenue rose 8% to DKK 4.2 billion. {PRIVATE} The dividend is unchanged."


def test_fingerprints_hold_no_text_and_match_a_reformatted_copy() -> None:
    prints = private_sentence_fingerprints(PAGE, [PRIVATE])
    assert prints and all(len(p) == 64 and "Anna" not in p for p in prints)
    copy = (
        "WIRE — Revenue rose 8% to DKK 4.2 billion.\n"
        "Anna  Berg said she will spend the spring at the clinic in Lausanne with Jonas.\n"
        "The dividend is unchanged."
    )
    masked = mask_fingerprinted_sentences(copy, prints)
    assert "Lausanne" not in masked and PRIVATE_REDACTION in masked
    assert "Revenue rose 8% to DKK 4.2 billion." in masked and "The dividend is unchanged." in masked


def test_a_sentence_inside_a_line_is_masked_alone() -> None:
    prints = {sentence_fingerprint(PRIVATE)}
    masked = mask_fingerprinted_sentences(f"Shares fell. {PRIVATE} Analysts were calm.", prints)
    assert masked == f"Shares fell. {PRIVATE_REDACTION} Analysts were calm."


async def test_the_evidence_fetcher_masks_copies_before_anything_reads_them(ledger: Ledger) -> None:
    remember_private_sentences(ledger, "anna-berg", private_sentence_fingerprints(PAGE, [PRIVATE]), "v1")
    remember_private_sentences(ledger, "anna-berg", private_sentence_fingerprints(PAGE, [PRIVATE]), "v1")  # again
    known = known_private_sentences(ledger, "anna-berg")
    assert known == private_sentence_fingerprints(PAGE, [PRIVATE])
    copy_url = "https://syndicated.example/wire/anna-berg-results"
    pages = MaskingFetcher(FakeFetcher({copy_url: snapshot(copy_url, PAGE)}), known)
    got = await pages.snapshot(copy_url, "v1")
    assert "Lausanne" not in got.text and "Lausanne" not in got.main_text
    assert got.private_life_masked == 1
    assert "DKK 4.2 billion" in got.text


async def test_no_fingerprints_leave_pages_as_they_are() -> None:
    url = "https://a.example/"
    page = snapshot(url, PAGE)
    assert await MaskingFetcher(FakeFetcher({url: page}), set()).snapshot(url, "v1") is page
