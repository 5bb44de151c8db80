"""[#15] rules 4, 5, 6 and 11 at step 4, through ``extraction.extract_document`` (the code that
governs live runs) with scripted extractor and classifier outputs that make exactly the mistake
each rule exists for. Not through the offline rules."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

import pytest

from reliability_core.claims.classification import ClassifyInput, ClassifyOutput
from reliability_core.claims.extraction import (
    ExtractedStatement,
    ExtractInput,
    ExtractionResult,
    ExtractOutput,
    extract_document,
)
from reliability_core.claims.sampling import sample_claims
from reliability_core.claims.stated_probability import parse_stated_probability
from reliability_core.clock import FixedClock
from reliability_core.models import RegistryEntry
from reliability_core.scores.refresh import retriage_as_due
from tests.claims.claim_builders import ENTRY, VERSION, CountingGateway, make_document, make_snapshot, reading

CLOCK = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))


def _gateway(
    page_quotes: list[tuple[str, str, str]], readings: dict[str, dict[str, Any]]
) -> CountingGateway:
    def extract(_: ExtractInput) -> ExtractOutput:
        return ExtractOutput(
            statements=[
                ExtractedStatement(quote=q, context=ctx, form=form, speaker_hint="")  # type: ignore[arg-type]
                for q, ctx, form in page_quotes
            ]
        )

    def classify(payload: ClassifyInput) -> ClassifyOutput:
        return ClassifyOutput(items=[reading(s.index, **readings.get(s.quote, {})) for s in payload.statements])

    handlers: dict[str, Callable[[Any], Any]] = {"extract_statements": extract, "classify_statements": classify}
    return CountingGateway(handlers)


async def _run(
    page: str, gateway: CountingGateway, entry: RegistryEntry = ENTRY, clock: FixedClock = CLOCK
) -> ExtractionResult:
    return await extract_document(
        document=make_document(),
        snapshot=make_snapshot(page),
        entry=entry,
        gateway=gateway,
        clock=clock,
        method_version=VERSION,
    )


# --- rule 4: the restatement is anchored to the quote ---------------------------------------

ENGINEERS = "We will hire 300 engineers in Esbjerg by 2025."


async def test_restatement_with_a_figure_the_quote_does_not_say_is_unverified_kept_and_not_sampled() -> None:
    gw = _gateway(
        [(ENGINEERS, "", "direct_quote")],
        {ENGINEERS: {"restatement": "Northwind Energy will hire 3,000 engineers in Esbjerg by 2025."}},
    )
    result = await _run(f"Northwind Energy, 1 March 2022. {ENGINEERS} The plan was announced.", gw)
    (claim,) = result.claims
    assert not claim.restatement_verified
    assert "3,000" in claim.restatement_note
    (membership,) = sample_claims(result.claims, seed=1)
    assert not membership.sampled and "restatement unverified" in membership.reason


@pytest.mark.parametrize(
    ("restatement", "missing"),
    [
        ("Northwind Energy will hire 300 engineers in Aarhus by 2025.", "Aarhus"),  # another entity
        ("Northwind Energy will hire more than 300 engineers in Esbjerg by 2025.", "comparison"),
        ("Northwind Energy will hire 300 engineers in Esbjerg by March 2026.", "2026"),
        ("Northwind Energy will cut its dividend payout and sell the trading division.", "topic"),
    ],
)
async def test_restatement_about_more_than_the_quote_is_unverified(restatement: str, missing: str) -> None:
    gw = _gateway([(ENGINEERS, "", "direct_quote")], {ENGINEERS: {"restatement": restatement}})
    (claim,) = (await _run(ENGINEERS, gw)).claims
    assert not claim.restatement_verified and missing in claim.restatement_note


# The same rule in scripts other than Latin-without-accents: another place, another topic.
OTHER_SCRIPTS = [
    (
        "2027年までに福岡に新工場を開設します。",
        "Northwind Energyは2027年までに福岡に新工場を開設する。",
        "Northwind Energyは配当を削減し、取引部門を売却する。",
        "topic",
    ),
    (
        "Мы откроем завод в Казани к 2027 году.",
        "Northwind Energy откроет завод в Казани к 2027 году.",
        "Northwind Energy откроет завод в Самаре к 2027 году.",
        "Самаре",
    ),
    (
        "Мы откроем завод в Казани к 2027 году.",
        "Northwind Energy откроет завод в Казани к 2027 году.",
        "Northwind Energy сократит дивиденды и продаст торговое подразделение.",
        "topic",
    ),
    (
        "Nous ouvrirons une usine à Lyon en 2027.",
        "Northwind Energy ouvrira une usine à Lyon en 2027.",
        "Northwind Energy ouvrira une usine à Orléans en 2027.",
        "Orléans",
    ),
]


@pytest.mark.parametrize(("quote", "anchored", "unanchored", "missing"), OTHER_SCRIPTS)
async def test_restatement_anchoring_holds_in_other_scripts(
    quote: str, anchored: str, unanchored: str, missing: str
) -> None:
    good = _gateway([(quote, "", "direct_quote")], {quote: {"restatement": anchored}})
    (claim,) = (await _run(quote, good)).claims
    assert claim.restatement_verified, claim.restatement_note
    bad = _gateway([(quote, "", "direct_quote")], {quote: {"restatement": unanchored}})
    (claim,) = (await _run(quote, bad)).claims
    assert not claim.restatement_verified and missing in claim.restatement_note


async def test_restatement_in_other_words_with_the_same_facts_is_verified() -> None:
    gw = _gateway(
        [(ENGINEERS, "", "direct_quote")],
        {ENGINEERS: {"restatement": "Northwind Energy will hire three hundred engineers in Esbjerg by 2025."}},
    )
    (claim,) = (await _run(ENGINEERS, gw)).claims
    assert claim.restatement_verified, claim.restatement_note


# --- rule 5: reported speech and other speakers caught by code ------------------------------

REPORTED = "Northwind said that it would hire 300 engineers."
ANALYST = "Offshore wind prices will fall by a fifth next year."


async def test_reported_speech_the_classifier_kept_is_dropped_by_code() -> None:
    # The classifier calls it the subject's own words (paraphrase=False); the wording reports speech.
    gw = _gateway([(REPORTED, "", "direct_quote")], {})
    result = await _run(f"Esbjerg, 2022. {REPORTED} The hiring starts soon.", gw)
    assert result.claims == [] and result.statements == []
    assert [d.reason for d in result.dropped] == ["paraphrase"]


async def test_the_extractors_reported_form_drops_the_statement() -> None:
    quote = "hire 300 engineers in Esbjerg by 2025"
    gw = _gateway([(quote, "", "reported")], {})
    result = await _run(f"The company plans to {quote}.", gw)
    assert [d.reason for d in result.dropped] == ["paraphrase"]


async def test_a_speaker_named_in_the_sentence_who_is_not_the_subject_is_dropped() -> None:
    # The classifier says the subject speaks; the sentence names an analyst as the speaker.
    page = f'At the briefing, "{ANALYST}" said Lars Holm, an analyst at Nordic Bank.'
    gw = _gateway([(ANALYST, "", "direct_quote")], {ANALYST: {"is_subject": True}})
    result = await _run(page, gw)
    assert result.claims == []
    assert [d.reason for d in result.dropped] == ["other_speaker"]


async def test_a_quote_attributed_to_the_subjects_own_spokesperson_is_kept() -> None:
    page = f'"{ANALYST}" said Anna Berg, chief executive.'
    gw = _gateway([(ANALYST, "", "direct_quote")], {ANALYST: {"restatement": "Northwind says " + ANALYST}})
    assert len((await _run(page, gw)).claims) == 1


# --- rule 6: a stated probability is one the words state ------------------------------------

LIKELY = "We think approval of the Sea Lynx permit is likely before the end of 2025."


async def test_a_probability_inferred_from_likely_is_not_recorded() -> None:
    gw = _gateway(
        [(LIKELY, "", "direct_quote")],
        {
            LIKELY: {
                "claim_type": "prediction",
                "deadline": date(2025, 12, 31),
                "stated_probability": 0.7,
                "probability_kind": "exact",
            }
        },
    )
    (claim,) = (await _run(LIKELY, gw)).claims
    assert claim.stated_probability is None and claim.probability_kind is None


@pytest.mark.parametrize(
    ("words", "value", "kind"),
    [
        ("There is a one-in-three chance that Sea Lynx is delayed.", 1 / 3, "exact"),
        ("We see a 1 in 4 chance of a delay.", 0.25, "exact"),
        ("It is more than 10% likely that Sea Lynx is delayed.", 0.10, "lower_bound"),
    ],
)
async def test_the_words_decide_the_probability_and_bounds_stay_bounds(words: str, value: float, kind: str) -> None:
    gw = _gateway(
        [(words, "", "direct_quote")],
        {words: {"claim_type": "prediction", "deadline": date(2025, 12, 31), "stated_probability": 0.9,
                 "probability_kind": "exact", "restatement": words}},
    )  # fmt: skip
    (claim,) = (await _run(words, gw)).claims
    assert claim.stated_probability == pytest.approx(value) and claim.probability_kind == kind


def test_expected_is_no_probability() -> None:
    assert parse_stated_probability("We expect the permit to be granted.") is None


# --- rule 11: each claim has a time zone; dates are compared in it --------------------------

NEW_YEAR = "We will open the Esbjerg service hub by 1 January 2027."


async def test_a_claim_is_dated_in_its_registry_time_zone_and_falls_due_by_its_local_date() -> None:
    entry = ENTRY.model_copy(update={"time_zone": "Europe/Copenhagen"})
    # 23:30 UTC on 31 December is already 1 January in Copenhagen: the deadline day has come.
    late = FixedClock(datetime(2026, 12, 31, 23, 30, tzinfo=UTC))
    gw = _gateway(
        [(NEW_YEAR, "", "direct_quote")],
        {NEW_YEAR: {"claim_type": "promise", "deadline": date(2027, 1, 1), "names_deliverable_or_target": True,
                    "restatement": "Northwind Energy will open the Esbjerg service hub by 1 January 2027."}},
    )  # fmt: skip
    (claim,) = (await _run(NEW_YEAR, gw, entry=entry, clock=late)).claims
    assert (claim.time_zone, claim.time_zone_source) == ("Europe/Copenhagen", "registry")
    assert claim.triage == "resolvable_now"
    # In UTC it is still 31 December: the same claim without a zone is not yet due.
    utc_claim = claim.model_copy(update={"time_zone": "UTC", "triage": "not_yet_due"})
    assert retriage_as_due(utc_claim, late.now()).triage == "not_yet_due"
    assert retriage_as_due(claim.model_copy(update={"triage": "not_yet_due"}), late.now()).triage == "resolvable_now"


async def test_a_time_zone_named_in_the_claims_context_is_used_and_an_invalid_one_is_not() -> None:
    gw = _gateway([(NEW_YEAR, "", "direct_quote")], {NEW_YEAR: {"time_zone": "America/New_York"}})
    (claim,) = (await _run(NEW_YEAR, gw)).claims
    assert (claim.time_zone, claim.time_zone_source) == ("America/New_York", "claim context")
    gw = _gateway([(NEW_YEAR, "", "direct_quote")], {NEW_YEAR: {"time_zone": "Mars/Olympus"}})
    (claim,) = (await _run(NEW_YEAR, gw)).claims
    assert (claim.time_zone, claim.time_zone_source) == ("UTC", "default")
