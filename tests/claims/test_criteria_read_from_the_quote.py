"""[R] "Nothing is rounded" and [M] step 6 "the date to judge at", through
``criteria.freeze_criteria`` with the real Anthropic provider class: the criteria writer's
answer is scripted at the SDK's HTTP transport, making exactly the mistake each rule is for."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from reliability_core.claims.criteria import freeze_criteria
from reliability_core.claims.criteria_reading import decide_period, named_period_end, threshold_figures
from reliability_core.clock import FixedClock
from reliability_core.models import ResolutionCriteria
from reliability_core.providers.failures import ModelFailure
from reliability_core.warehouse import Ledger
from reliability_core.wiring import build_gateway
from tests.providers.wire import Scripted2, anthropic_json_reply
from tests.verdicts.factories import MV, make_claim

CLOCK = FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
LEVELS = {
    "true": "The figure is reached.",
    "mostly_true": "Nearly reached.",
    "mixed": "Partly reached.",
    "mostly_false": "Mostly missed.",
    "false": "Missed.",
}


def criteria_reply(threshold: float, unit: str, *, judge_at: str = "2024-12-31", as_of: str | None = "2024-12-31",
                   operator: str = "ge") -> dict[str, Any]:  # fmt: skip
    numeric = {"quantity": "installed offshore capacity", "unit": unit, "operator": operator,
               "threshold": threshold, "as_of": as_of, "named_source": None, "bands": []}  # fmt: skip
    return {"levels": LEVELS, "judge_at": judge_at, "numeric": numeric}


async def freeze(
    ledger: Ledger, reply: dict[str, Any], **claim: Any
) -> tuple[list[ResolutionCriteria], list[ModelFailure]]:
    scripted = Scripted2(anthropic_json_reply(reply))
    gateway = build_gateway(
        {"ANTHROPIC_API_KEY": "sk-ant-test", "OPENAI_API_KEY": "sk-test"}, None, http_client=scripted.client()
    )
    failures: list[ModelFailure] = []
    frozen = await freeze_criteria(
        claims=[make_claim(**claim)], gateway=gateway, ledger=ledger, clock=CLOCK, method_version=MV,
        failures=failures,
    )  # fmt: skip
    assert len(scripted.requests) == 1
    return frozen, failures


# --- item 5: nothing is rounded -----------------------------------------------------------


async def test_a_threshold_rounded_below_the_quoted_figure_is_refused_and_recorded_on_the_claim(
    ledger: Ledger,
) -> None:
    # The quote says 2.5 GW; the writer froze 2 GW, so 2.3 GW would have read as "true".
    quote = "We will have at least 2.5 GW of offshore wind installed by the end of 2024."
    frozen, failures = await freeze(ledger, criteria_reply(2.0, "GW"), quote=quote)
    assert frozen == []
    (failure,) = failures
    assert failure.item_id == "clm_1" and failure.step == "write_criteria"
    assert failure.reason == "threshold not written in the quote"
    assert "2 GW" in failure.detail and "nothing is rounded" in failure.detail
    assert ledger.read_all("criteria", "northwind", ResolutionCriteria) == []


@pytest.mark.parametrize(
    ("quote", "threshold", "unit"),
    [
        ("We will have at least 2.5 GW of offshore wind installed by the end of 2024.", 2.5, "GW"),
        ("Wir werden bis Ende 2024 mindestens 2,5 GW Offshore-Wind installiert haben.", 2.5, "GW"),
        ("We aim for revenue of at least DKK 28,000 million by the end of 2024.", 28, "DKK billion"),
        ("We will reach a 72.4% share of renewables by the end of 2024.", 0.724, "share"),
    ],
)
async def test_a_threshold_written_in_the_quote_in_another_common_form_is_frozen(
    ledger: Ledger, quote: str, threshold: float, unit: str
) -> None:
    frozen, failures = await freeze(ledger, criteria_reply(threshold, unit), quote=quote)
    assert failures == []
    (criteria,) = frozen
    assert criteria.numeric is not None and criteria.numeric.threshold == threshold


# --- the figure and the period the criteria ask for ----------------------------------------


async def test_a_year_taken_as_the_threshold_gives_way_to_the_quotes_figure_and_is_recorded(
    ledger: Ledger,
) -> None:
    quote = "We will have 8 GW of offshore wind installed by the end of 2024."
    frozen, failures = await freeze(ledger, criteria_reply(2024, "GW"), quote=quote)
    assert failures == []
    (criteria,) = frozen
    assert criteria.numeric is not None
    assert (criteria.numeric.threshold, criteria.numeric.unit) == (8.0, "GW")
    assert any("2024" in note and "8" in note for note in criteria.reading_notes)


async def test_a_factual_claim_is_judged_at_the_end_of_the_period_it_names_not_the_writers_date(
    ledger: Ledger,
) -> None:
    quote = "Our offshore fleet produced 3.2 TWh in 2019, the most in our history."
    reply = criteria_reply(3.2, "TWh", judge_at="2020-02-04", as_of="2020-02-04")
    frozen, failures = await freeze(
        ledger, reply, quote=quote, claim_type="factual", deadline=None, made_on=date(2020, 2, 4)
    )
    assert failures == []
    (criteria,) = frozen
    assert criteria.judge_at == date(2019, 12, 31)
    assert criteria.numeric is not None and criteria.numeric.as_of == date(2019, 12, 31)
    assert any("2020-02-04" in note and "2019-12-31" in note for note in criteria.reading_notes)


async def test_a_promise_is_judged_at_its_deadline_whatever_date_the_writer_proposes(ledger: Ledger) -> None:
    quote = "We will have 8 GW of offshore wind installed by the end of 2024."
    frozen, _ = await freeze(ledger, criteria_reply(8, "GW", judge_at="2025-06-30", as_of="2025-06-30"), quote=quote)
    (criteria,) = frozen
    assert criteria.judge_at == date(2024, 12, 31) and criteria.numeric is not None
    assert criteria.numeric.as_of == date(2024, 12, 31)
    assert len(criteria.reading_notes) == 2


@pytest.mark.parametrize(
    ("quote", "end"),
    [
        ("Revenue rose to 412 million euros in 2019.", date(2019, 12, 31)),
        ("We have cut emissions by 40% since 2015.", None),
        ("Emissions were 30% below 2019 levels in 2023.", date(2023, 12, 31)),
        ("Der Umsatz stieg im dritten Quartal, Q3 2024, auf 3 Mrd. Euro.", date(2024, 9, 30)),
        ("Les émissions ont baissé de 12 % depuis 2018.", None),
        ("En 2022 la producción alcanzó 5 GW.", date(2022, 12, 31)),
        ("Revenue doubled from 2018 to 2022.", date(2022, 12, 31)),
    ],
)
def test_the_period_a_factual_quote_names_is_read_from_its_words(quote: str, end: date | None) -> None:
    assert named_period_end(quote) == end


def test_years_dates_and_stated_probabilities_are_never_a_threshold() -> None:
    quote = "There is a 70% chance we will have 8 GW installed by 31 December 2024."
    assert [f.written.strip() for f in threshold_figures(quote)] == ["8"]
    assert decide_period("prediction", quote, date(2024, 12, 31), date(2025, 1, 1))[0] == date(2024, 12, 31)
