"""[M] step 6: criteria written before research, stored with a timestamp, never
rewritten; numeric forms follow the literal reading rules of [R]."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from reliability_core.claims.comparisons import parse_comparison
from reliability_core.claims.criteria import (
    CRITERIA_TABLE,
    CriteriaInput,
    CriteriaOutput,
    criteria_content_hash,
    criteria_id,
    enforce_literal_operator,
    freeze_criteria,
    store_criteria,
)
from reliability_core.claims.numeric_reading import banded_verdict
from reliability_core.clock import FixedClock
from reliability_core.models import CriteriaLevels, NumericCriteria, ResolutionCriteria
from reliability_core.warehouse import Ledger, LedgerConflictError
from tests.claims.claim_builders import VERSION, CountingGateway, make_claim

LEVELS = CriteriaLevels(
    true="The record shows more than 5 GW installed by 2025-12-31.",
    mostly_true="Between 4.75 and 5 GW.",
    mixed="Between 4 and 4.75 GW.",
    mostly_false="Between 2.5 and 4 GW.",
    false="Less than 2.5 GW or the programme was cancelled.",
)


def _writer(operator: str = "ge", judge_at: date = date(2025, 6, 30)) -> CountingGateway:
    def handler(payload: CriteriaInput) -> CriteriaOutput:
        return CriteriaOutput(
            levels=LEVELS,
            judge_at=judge_at,
            numeric=NumericCriteria(
                quantity="installed offshore wind capacity",
                unit="GW",
                operator=operator,  # type: ignore[arg-type]
                threshold=5.0,
                as_of=date(2025, 12, 31),
            ),
        )

    return CountingGateway({"write_criteria": handler})


@pytest.mark.parametrize(
    ("phrase", "operator"),
    [
        ("more than 5 GW", "gt"),
        ("EBITDA above DKK 28 billion", "gt"),
        ("if output exceeds 10 TWh", "gt"),
        ("at least 30% of sales", "ge"),
        ("capacity reaches 5 GW", "ge"),
        ("5 GW or more", "ge"),
        ("less than 2% churn", "lt"),
        ("below 3%", "lt"),
        ("no more than 3 plants", "le"),
        ("at most 4 delays", "le"),
        ("In 2021 we installed 1.2 GW", "eq"),
        ("over the next five years we will build 3 GW", "eq"),
    ],
)
def test_reading_rules_strict_and_inclusive_phrases(phrase: str, operator: str) -> None:
    assert parse_comparison(phrase) == operator


def test_the_claims_own_words_override_the_models_operator() -> None:
    numeric = NumericCriteria(quantity="capacity", unit="GW", operator="ge", threshold=5.0)
    assert enforce_literal_operator(numeric, "We will have more than 5 GW by 2025.").operator == "gt"
    assert enforce_literal_operator(numeric, "We will have 5 GW by 2025.").operator == "ge"
    # A stated probability bound is not the claim's comparison.
    assert enforce_literal_operator(numeric, "It is more than 10% likely we reach 5 GW.").operator == "ge"


async def test_criteria_are_written_once_stamped_by_the_clock_and_stored_in_the_ledger(
    ledger: Ledger,
) -> None:
    clock = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
    claim = make_claim(
        1, claim_type="promise", quote="We will have more than 5 GW by 2025.", deadline=date(2025, 12, 31)
    )
    gateway = _writer()
    [criteria] = await freeze_criteria(
        claims=[claim], gateway=gateway, ledger=ledger, clock=clock, method_version=VERSION
    )
    assert criteria.id == criteria_id(claim.id)
    assert criteria.written_at == clock.now()
    assert criteria.written_by == "fake-model"
    assert criteria.judge_at == date(2025, 12, 31)  # the deadline, not the model's proposal
    assert criteria.numeric is not None and criteria.numeric.operator == "gt"
    assert criteria.content_hash == criteria_content_hash(
        criteria.levels, criteria.judge_at, criteria.numeric
    )
    assert ledger.get(CRITERIA_TABLE, claim.subject_id, criteria.id, ResolutionCriteria) == criteria


async def test_a_rerun_reuses_stored_criteria_without_a_model_call(ledger: Ledger) -> None:
    clock = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
    claim = make_claim(1, quote="We have installed 5 GW of offshore wind.")  # the writer's figure
    first_gateway = _writer()
    [first] = await freeze_criteria(
        claims=[claim], gateway=first_gateway, ledger=ledger, clock=clock, method_version=VERSION
    )
    clock.advance(timedelta(days=3))
    second_gateway = _writer(operator="lt", judge_at=date(2030, 1, 1))
    [second] = await freeze_criteria(
        claims=[claim], gateway=second_gateway, ledger=ledger, clock=clock, method_version="0.1.0+later"
    )
    assert second == first
    assert second_gateway.calls == []


async def test_an_attempt_to_change_frozen_criteria_is_refused(ledger: Ledger) -> None:
    clock = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
    claim = make_claim(1, quote="We have installed 5 GW of offshore wind.")  # the writer's figure
    [criteria] = await freeze_criteria(
        claims=[claim], gateway=_writer(), ledger=ledger, clock=clock, method_version=VERSION
    )
    changed = criteria.model_copy(
        update={"levels": LEVELS.model_copy(update={"true": "Any amount of capacity."})}
    )
    with pytest.raises(LedgerConflictError):
        store_criteria(ledger, changed)
    store_criteria(ledger, criteria)  # the identical body again is a no-op


def test_content_hash_changes_with_any_part() -> None:
    numeric = NumericCriteria(quantity="capacity", unit="GW", operator="gt", threshold=5.0)
    base = criteria_content_hash(LEVELS, date(2025, 12, 31), numeric)
    assert base != criteria_content_hash(LEVELS, date(2026, 1, 1), numeric)
    assert base != criteria_content_hash(
        LEVELS, date(2025, 12, 31), numeric.model_copy(update={"operator": "ge"})
    )
    assert base != criteria_content_hash(LEVELS, date(2025, 12, 31), None)


# --- The offline rules for write_criteria ------------------------------------------------


def _criteria_input(
    quote: str, claim_type: str, deadline: date | None, made_on: date = date(2022, 2, 2)
) -> CriteriaInput:
    return CriteriaInput(
        claim_id="clm_1",
        subject_name="Northwind Energy",
        claim_type=claim_type,  # type: ignore[arg-type]
        quote=quote,
        restatement=quote,
        made_on=made_on,
        deadline=deadline,
        stated_probability=None,
        probability_kind=None,
    )


def test_offline_criteria_read_guidance_literally_and_keep_the_figure_as_written() -> None:
    from reliability_core.stand_in.rules.criteria import write_criteria_offline

    out = write_criteria_offline(
        _criteria_input("We expect EBITDA above DKK 28 billion in 2025", "prediction", date(2025, 12, 31))
    )
    assert isinstance(out, CriteriaOutput)
    assert out.judge_at == date(2025, 12, 31)
    assert out.numeric == NumericCriteria(
        quantity="EBITDA", unit="DKK billion", operator="gt", threshold=28.0, as_of=date(2025, 12, 31)
    )
    assert "strictly" in out.levels.true


def test_offline_criteria_treat_a_promised_target_as_a_floor_and_a_range_as_not_numeric() -> None:
    from reliability_core.stand_in.rules.criteria import write_criteria_offline

    promise = write_criteria_offline(
        _criteria_input(
            "We will install 15 GW of offshore wind capacity by 2025", "promise", date(2025, 12, 31)
        )
    )
    assert isinstance(promise, CriteriaOutput) and promise.numeric is not None
    assert (promise.numeric.operator, promise.numeric.threshold, promise.numeric.unit) == ("ge", 15.0, "GW")
    ranged = write_criteria_offline(
        _criteria_input("We expect EBITDA of DKK 16-18 billion in 2015", "prediction", date(2015, 12, 31))
    )
    assert isinstance(ranged, CriteriaOutput) and ranged.numeric is None


def test_offline_criteria_judge_a_factual_claim_at_the_end_of_the_year_it_names() -> None:
    from reliability_core.stand_in.rules.criteria import write_criteria_offline

    out = write_criteria_offline(
        _criteria_input("In 2021 we installed 1.2 GW of new offshore wind capacity", "factual", None)
    )
    assert isinstance(out, CriteriaOutput) and out.numeric is not None
    assert out.judge_at == date(2021, 12, 31)
    assert (out.numeric.operator, out.numeric.threshold) == ("eq", 1.2)
    probability = write_criteria_offline(
        _criteria_input(
            "It is more than 10% likely that we will have to delay Sea Lynx by a year", "prediction", None
        )
    )
    assert isinstance(probability, CriteriaOutput) and probability.numeric is None


async def test_criteria_freeze_through_the_offline_gateway(ledger: Ledger) -> None:
    from reliability_core.wiring import build_gateway

    gateway = build_gateway({"RELIABILITY_OFFLINE": "1"}, None)
    clock = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
    claim = make_claim(
        1,
        claim_type="prediction",
        quote="We expect EBITDA above DKK 28 billion in 2025",
        deadline=date(2025, 12, 31),
    )
    [criteria] = await freeze_criteria(
        claims=[claim], gateway=gateway, ledger=ledger, clock=clock, method_version=VERSION
    )
    assert criteria.written_by == "offline-rules"
    assert criteria.numeric is not None and criteria.numeric.operator == "gt"


async def test_criteria_run_through_the_live_openai_interface_with_a_strict_schema(ledger: Ledger) -> None:
    import json

    from reliability_core.providers.assignment import StepAssignment
    from reliability_core.providers.gateway import DEFAULT_PROMPTS_DIR, StepGateway
    from reliability_core.providers.openai_provider import OpenAIProvider
    from tests.providers.wire import Scripted2, openai_response_reply

    reply = {
        "levels": LEVELS.model_dump(mode="json"),
        "judge_at": "2025-12-31",
        "numeric": {
            "quantity": "EBITDA",
            "unit": "DKK billion",
            "operator": "ge",
            "threshold": 28,
            "as_of": "2025-12-31",
            "named_source": None,
        },
    }
    script = Scripted2(openai_response_reply(json.dumps(reply)))
    provider = OpenAIProvider("sk-test", http_client=script.client())
    gateway = StepGateway(
        {"write_criteria": StepAssignment(provider="openai", model="gpt-6.1-sol")},
        {"write_criteria": provider},
        prompts_dir=DEFAULT_PROMPTS_DIR,
    )
    claim = make_claim(
        1,
        claim_type="prediction",
        quote="We expect EBITDA above DKK 28 billion in 2025",
        deadline=date(2025, 12, 31),
    )
    clock = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
    [criteria] = await freeze_criteria(
        claims=[claim], gateway=gateway, ledger=ledger, clock=clock, method_version=VERSION
    )

    (body,) = script.bodies()
    assert body["text"]["format"]["strict"] is True
    assert body["instructions"] == (DEFAULT_PROMPTS_DIR / "write_criteria.md").read_text(encoding="utf-8")
    assert criteria.written_by == "gpt-6.1-sol"
    # The model wrote "ge" for "above"; the reading rules make it strict.
    assert criteria.numeric is not None and criteria.numeric.operator == "gt"


def _writer_with_bands(bands: list[dict[str, object]]) -> CountingGateway:
    def handler(payload: CriteriaInput) -> CriteriaOutput:
        return CriteriaOutput.model_validate(
            {
                "levels": LEVELS.model_dump(),
                "judge_at": "2025-12-31",
                "numeric": {"quantity": "installed offshore wind capacity", "unit": "GW", "operator": "gt",
                            "threshold": 5.0, "as_of": "2025-12-31", "bands": bands},
            }
        )  # fmt: skip

    return CountingGateway({"write_criteria": handler})


async def test_the_five_numeric_bands_are_frozen_with_the_criteria_and_read_literally(ledger: Ledger) -> None:
    """[#15] rule 2: the bands are set when the criteria are written, before research. A writer
    whose "true" band includes the threshold of "more than 5 GW" (a tie made a yes) is not kept:
    the default bands of the literal reading are frozen instead."""
    claim = make_claim(
        1, claim_type="promise", quote="We will have more than 5 GW by 2025.", deadline=date(2025, 12, 31)
    )
    loose = [
        {"verdict": "true", "low": 5.0, "low_inclusive": True, "high": None},
        {"verdict": "mostly_true", "low": 4.75, "low_inclusive": True, "high": 5.0, "high_inclusive": False},
        {"verdict": "false", "low": None, "high": 4.75, "high_inclusive": False},
    ]
    clock = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
    [criteria] = await freeze_criteria(
        claims=[claim], gateway=_writer_with_bands(loose), ledger=ledger, clock=clock, method_version=VERSION
    )
    assert criteria.numeric is not None
    levels = {band.verdict for band in criteria.numeric.bands}
    assert levels == {"true", "mostly_true", "mixed", "mostly_false", "false"}
    assert banded_verdict(criteria.numeric, 5.0) == "mostly_true"  # a tie on "more than" is not true
    assert banded_verdict(criteria.numeric, 5.01) == "true"
    stored = ledger.get(CRITERIA_TABLE, claim.subject_id, criteria.id, ResolutionCriteria)
    assert stored is not None and stored.numeric == criteria.numeric  # frozen before any research


async def test_usable_bands_from_the_writer_are_kept(ledger: Ledger) -> None:
    bands = [
        {"verdict": "true", "low": 5.0, "low_inclusive": False, "high": None},
        {"verdict": "mostly_true", "low": 4.5, "low_inclusive": True, "high": 5.0, "high_inclusive": True},
        {"verdict": "mixed", "low": 4.0, "low_inclusive": True, "high": 4.5, "high_inclusive": False},
        {"verdict": "mostly_false", "low": 3.0, "low_inclusive": True, "high": 4.0, "high_inclusive": False},
        {"verdict": "false", "low": None, "high": 3.0, "high_inclusive": False},
    ]
    claim = make_claim(
        2, claim_type="promise", quote="We will have more than 5 GW by 2025.", deadline=date(2025, 12, 31)
    )
    clock = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
    [criteria] = await freeze_criteria(
        claims=[claim], gateway=_writer_with_bands(bands), ledger=ledger, clock=clock, method_version=VERSION
    )
    assert criteria.numeric is not None and banded_verdict(criteria.numeric, 4.6) == "mostly_true"
