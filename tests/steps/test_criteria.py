"""[M] step 6: criteria written before research, stored with a timestamp, never
rewritten; numeric forms follow the literal reading rules of [R]."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from reliability_core.clock import FixedClock
from reliability_core.criteria import (
    CRITERIA_TABLE,
    CriteriaInput,
    CriteriaOutput,
    criteria_content_hash,
    criteria_id,
    enforce_literal_operator,
    freeze_criteria,
    parse_comparison,
    store_criteria,
)
from reliability_core.models import CriteriaLevels, NumericCriteria, ResolutionCriteria
from reliability_core.warehouse import Ledger, LedgerConflictError
from tests.steps.claim_builders import VERSION, CountingGateway, make_claim

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
    claim = make_claim(1)
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
    [criteria] = await freeze_criteria(
        claims=[make_claim(1)], gateway=_writer(), ledger=ledger, clock=clock, method_version=VERSION
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
