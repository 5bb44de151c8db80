"""[M] step 4: extraction, the mechanical quote check, drops and flags, with a
fake gateway standing in for the two model steps."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

from reliability_core.attribution import ClassifyInput, ClassifyOutput, StatementClassification
from reliability_core.clock import FixedClock
from reliability_core.extraction import (
    ExtractedStatement,
    ExtractInput,
    ExtractionResult,
    ExtractOutput,
    build_claim,
    extract_document,
    has_subject_statements,
    is_own_document,
)
from reliability_core.models import Statement
from tests.steps.claim_builders import ENTRY, VERSION, CountingGateway, make_document, make_snapshot, reading

CLOCK = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
PAGE = (
    "Northwind Energy held its results call on Tuesday.\n"
    '"In 2021 we installed 1.2 GW of capacity," said Anna Berg, chief executive.\n'
    '"Prices will fall next year," said Lars Holm, an analyst.\n'
    "Northwind said that it would hire 300 engineers.\n"
    '"My wife was diagnosed with cancer last spring," Berg said.\n'
    '"The Social Democrats will win the next election," Berg added.\n'
    '"We expect EBITDA above DKK 28 billion in 2025," said Berg.\n'
)
CAPACITY = "In 2021 we installed 1.2 GW of capacity"
ANALYST = "Prices will fall next year"
PARAPHRASE = "Northwind said that it would hire 300 engineers."
PRIVATE = "My wife was diagnosed with cancer last spring"
POLITICAL = "The Social Democrats will win the next election"
GUIDANCE = "We expect EBITDA above DKK 28 billion in 2025"


def _extracted(*quotes: tuple[str, str], omitted: int = 0) -> Callable[[ExtractInput], ExtractOutput]:
    def handler(payload: ExtractInput) -> ExtractOutput:
        return ExtractOutput(
            statements=[
                ExtractedStatement(quote=q, context=ctx, form="direct_quote", speaker_hint="")
                for q, ctx in quotes
            ],
            private_life_omitted=omitted,
        )

    return handler


def _classified(readings: dict[str, dict[str, Any]]) -> Callable[[ClassifyInput], ClassifyOutput]:
    def handler(payload: ClassifyInput) -> ClassifyOutput:
        return ClassifyOutput(
            items=[reading(s.index, **readings.get(s.quote, {})) for s in payload.statements],
        )

    return handler


async def _run(gateway: CountingGateway, page: str = PAGE, outcome: str = "ok") -> ExtractionResult:
    return await extract_document(
        document=make_document(),
        snapshot=make_snapshot(page, outcome=outcome),
        entry=ENTRY,
        gateway=gateway,
        clock=CLOCK,
        method_version=VERSION,
    )


def _everything_stored(result: ExtractionResult) -> str:
    return result.model_dump_json()


async def test_private_life_statement_never_reaches_any_record() -> None:
    gateway = CountingGateway(
        {
            "extract_statements": _extracted((CAPACITY, "said Anna Berg"), (PRIVATE, "Berg said")),
            "classify_statements": _classified({}),
        }
    )
    result = await _run(gateway)
    stored = _everything_stored(result)
    assert "diagnosed" not in stored and "wife" not in stored
    assert [d.reason for d in result.dropped] == ["private_life"]
    assert "diagnosed" not in result.dropped[0].note
    # The keyword backstop dropped it before the classifier was even called.
    classify_payload = next(p for step, p in gateway.calls if step == "classify_statements")
    assert "diagnosed" not in classify_payload.model_dump_json()
    assert [s.quote for s in result.statements] == [CAPACITY]


async def test_private_life_flagged_only_by_the_classifier_is_dropped_before_storage() -> None:
    quiet_private = "It was a very hard year for all of us at home"
    page = PAGE + f'"{quiet_private}," Berg said.\n'
    gateway = CountingGateway(
        {
            "extract_statements": _extracted((CAPACITY, ""), (quiet_private, "Berg said")),
            "classify_statements": _classified({quiet_private: {"private_life": True}}),
        }
    )
    result = await _run(gateway, page=page)
    assert "hard year" not in _everything_stored(result)
    assert [d.reason for d in result.dropped] == ["private_life"]


async def test_statements_the_extractor_left_out_for_privacy_are_counted_without_text() -> None:
    gateway = CountingGateway(
        {"extract_statements": _extracted((CAPACITY, ""), omitted=2), "classify_statements": _classified({})}
    )
    result = await _run(gateway)
    assert [d.reason for d in result.dropped] == ["private_life", "private_life"]
    assert len({d.id for d in result.dropped}) == 2


async def test_quote_failing_verification_is_kept_and_marked_unverified() -> None:
    altered = "In 2021 we installed 1.4 GW of capacity"
    gateway = CountingGateway(
        {
            "extract_statements": _extracted((altered, ""), (CAPACITY, "")),
            "classify_statements": _classified({}),
        }
    )
    result = await _run(gateway)
    by_quote = {s.quote: s for s in result.statements}
    assert by_quote[altered].quote_verified is False
    assert by_quote[altered].match_start is None and by_quote[altered].match_end is None
    assert by_quote[CAPACITY].quote_verified is True
    start, end = by_quote[CAPACITY].match_start, by_quote[CAPACITY].match_end
    assert start is not None and end is not None and PAGE[start:end] == CAPACITY
    claim = next(c for c in result.claims if c.quote == altered)
    assert claim.quote_verified is False


async def test_other_speakers_and_reported_paraphrases_are_dropped() -> None:
    gateway = CountingGateway(
        {
            "extract_statements": _extracted((CAPACITY, ""), (ANALYST, "said Lars Holm"), (PARAPHRASE, "")),
            "classify_statements": _classified(
                {ANALYST: {"is_subject": False, "speaker": "Lars Holm"}, PARAPHRASE: {"paraphrase": True}}
            ),
        }
    )
    result = await _run(gateway)
    assert [s.quote for s in result.statements] == [CAPACITY]
    assert sorted(d.reason for d in result.dropped) == ["other_speaker", "paraphrase"]
    assert ANALYST not in _everything_stored(result)


async def test_party_political_claim_is_kept_flagged_and_counted() -> None:
    gateway = CountingGateway(
        {
            "extract_statements": _extracted((POLITICAL, "Berg added")),
            "classify_statements": _classified(
                {POLITICAL: {"claim_type": "prediction", "deadline": date(2026, 9, 1)}}
            ),
        }
    )
    result = await _run(gateway)
    [claim] = result.claims
    assert claim.party_political is True
    assert claim.quote == POLITICAL


async def test_company_guidance_becomes_a_prediction_even_when_the_model_says_promise() -> None:
    gateway = CountingGateway(
        {
            "extract_statements": _extracted((GUIDANCE, "said Berg")),
            "classify_statements": _classified(
                {
                    GUIDANCE: {
                        "claim_type": "promise",
                        "deadline": date(2025, 12, 31),
                        "names_deliverable_or_target": True,
                    }
                }
            ),
        }
    )
    result = await _run(gateway)
    [claim] = result.claims
    assert claim.claim_type == "prediction"
    assert claim.triage == "resolvable_now"


async def test_a_document_whose_fetch_failed_has_no_subject_statements_and_calls_no_model() -> None:
    gateway = CountingGateway({})
    result = await _run(gateway, page="", outcome="refused_robots")
    assert not has_subject_statements(result)
    assert gateway.calls == []
    assert "refused_robots" in result.notes[0]


async def test_a_document_with_only_other_speakers_has_no_subject_statements() -> None:
    gateway = CountingGateway(
        {
            "extract_statements": _extracted((ANALYST, "")),
            "classify_statements": _classified({ANALYST: {"is_subject": False}}),
        }
    )
    assert not has_subject_statements(await _run(gateway))


async def test_a_statement_the_classifier_skipped_is_not_kept() -> None:
    def skip_all(payload: ClassifyInput) -> ClassifyOutput:
        return ClassifyOutput(items=[])

    gateway = CountingGateway(
        {"extract_statements": _extracted((CAPACITY, "")), "classify_statements": skip_all}
    )
    result = await _run(gateway)
    assert result.statements == []
    assert [d.reason for d in result.dropped] == ["not_a_claim"]


def _statement(quote: str) -> Statement:
    return Statement(
        id="stm_1",
        subject_id="northwind",
        document_id="doc1",
        url="https://wire.example/1",
        snapshot_sha256=None,
        quote=quote,
        quote_verified=True,
        extracted_by="fake-model",
        method_version=VERSION,
    )


def _claim_from(quote: str, classification: StatementClassification) -> Any:
    return build_claim(
        _statement(quote), classification, made_on=date(2022, 1, 1), now=date(2026, 11, 30), classified_by="m"
    )


def test_an_intention_without_target_or_date_is_not_checked() -> None:
    claim = _claim_from("We want to be greener.", reading(0, claim_type="promise"))
    assert claim.triage == "never_resolvable"
    assert "intention" in claim.triage_reason


def test_a_dated_target_worded_as_an_aim_is_a_checkable_promise() -> None:
    claim = _claim_from(
        "We aim to cut emissions 50% by 2030.",
        reading(0, claim_type="promise", names_deliverable_or_target=True, deadline=date(2030, 12, 31)),
    )
    assert claim.claim_type == "promise"
    assert claim.triage == "not_yet_due"


def test_a_probability_bound_is_recorded_as_a_bound_on_the_claim() -> None:
    claim = _claim_from(
        "It is more than 10% likely that we sell the unit by 2025.",
        reading(
            0,
            claim_type="prediction",
            deadline=date(2025, 12, 31),
            stated_probability=0.1,
            probability_kind="exact",
        ),
    )
    assert claim.probability_kind == "lower_bound"
    assert claim.stated_probability == 0.1


def test_a_statement_that_is_not_a_claim_makes_no_claim() -> None:
    assert _claim_from("Thank you all for coming.", reading(0, is_claim=False, claim_type=None)) is None


def test_pages_on_the_subjects_own_hosts_are_own_documents() -> None:
    assert is_own_document("https://northwind.example/blog/2024", ["https://northwind.example/"])
    assert not is_own_document("https://wire.example/northwind", ["https://northwind.example/"])
