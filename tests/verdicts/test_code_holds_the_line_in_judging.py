"""[#15] rules 1, 2, 3, 7, 8, 10 and 12 through ``judging.judge_claim`` (the code that governs
live runs) with scripted judge and reviewer outputs that make exactly the mistake each rule
exists for. Not through the offline rules."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from reliability_core.clock import FixedClock
from reliability_core.models.claims import NumericCriteria
from reliability_core.models.verdicts import ClaimVerdict, EvidenceItem
from reliability_core.scores.refresh import awaited_official_figures, recheck_is_due
from reliability_core.verdicts.judge_input import JudgeInput, unmark_judge_input
from reliability_core.verdicts.judging import judge_claim
from tests.verdicts.factories import MV, make_claim, make_criteria, make_item
from tests.verdicts.fakes import ScriptedGateway

NO_PROBLEM: dict[str, Any] = {"major_problems": [], "minor_problems": [], "rationale": "checked"}
GW15 = NumericCriteria(quantity="installed offshore capacity", unit="GW", operator="ge", threshold=15.0)


def answer(verdict: str, observed: float | None = None, cited: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {
        "verdict": verdict,
        "confidence": 0.9,
        "basis": "independent_source",
        "rationale": "cites evidence",
        "cited_evidence_ids": cited or [],
        "observed_value": observed,
        **extra,
    }


def gateway(a: dict[str, Any], b: dict[str, Any] | None = None, review: dict[str, Any] | None = None) -> ScriptedGateway:
    return ScriptedGateway(
        {
            "judge_a": lambda _: a,
            "judge_b": lambda _: b if b is not None else a,
            "review_verdict": lambda _: review if review is not None else NO_PROBLEM,
        }
    )


async def judge(
    gw: ScriptedGateway,
    evidence: list[EvidenceItem],
    *,
    numeric: NumericCriteria | None = GW15,
    clock: FixedClock | None = None,
    **claim: Any,
) -> ClaimVerdict:
    return await judge_claim(
        claim=make_claim(**claim),
        criteria=make_criteria(numeric=numeric),
        evidence=evidence,
        gateway=gw,
        clock=clock or FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC)),
        method_version=MV,
    )


def capacity_quotes(figure: str = "15.2 GW", published: date = date(2025, 2, 3)) -> list[EvidenceItem]:
    return [
        make_item("a", quote=f"The energy agency's register showed {figure} of offshore capacity installed at the end of 2024.",
                  published_date=published),
        make_item("b", source_class="established_newsroom",
                  quote=f"Northwind ended 2024 with {figure} of offshore wind capacity in operation, the agency said.",
                  published_date=published),
    ]  # fmt: skip


# --- rule 1: a number a verdict rests on is in a verified quote -----------------------------


async def test_an_observed_value_no_cited_quote_states_is_discarded_and_never_shown() -> None:
    # Judge A reports 9.0 while both cited quotes say 15.2 GW.
    result = await judge(gateway(answer("false", 9.0, ["a", "b"])), capacity_quotes())
    # Unresolvable is counted, never scored or shown as a verdict.
    assert result.verdict == "unresolvable" and result.judge_a is not None
    assert "not written in a cited verified quote" in result.reason


async def test_a_value_judge_b_does_not_reproduce_is_disputed_and_held() -> None:
    # Judge A's 15.2 is in the quotes, judge B gives no number at all: not verified.
    result = await judge(gateway(answer("true", 15.2, ["a", "b"]), answer("unresolvable", None)), capacity_quotes())
    assert result.numeric_disputed
    assert not result.gate.shown and "numeric_extractions_agree" in result.gate.failed


async def test_a_made_up_value_with_a_silent_judge_b_is_not_false_and_not_shown() -> None:
    result = await judge(gateway(answer("false", 5.0, ["a", "b"]), answer("unresolvable", None)), capacity_quotes())
    assert result.verdict == "unresolvable"


@pytest.mark.parametrize("written", ["15,200 MW", "15.2 GW", "15 200 MW"])
async def test_a_value_in_another_common_written_form_counts(written: str) -> None:
    numeric = NumericCriteria(quantity="installed offshore capacity", unit="MW", operator="ge", threshold=15000)
    result = await judge(gateway(answer("true", 15200, ["a", "b"])), capacity_quotes(written), numeric=numeric)
    # Issue 25: an SI prefix converts ("15.2 GW" is 15,200 MW); the base unit must agree.
    assert result.verdict == "true" and result.gate.shown, result.gate.notes


# --- rule 2: numeric claims use the five levels ---------------------------------------------


@pytest.mark.parametrize(
    ("figure", "observed", "level"),
    [("15.0 GW", 15.0, "true"), ("14.3 GW", 14.3, "mostly_true"), ("13.0 GW", 13.0, "mixed"),
     ("10.0 GW", 10.0, "mostly_false"), ("9.7 GW", 9.7, "false")],
)  # fmt: skip
async def test_the_verified_value_is_mapped_onto_the_five_frozen_levels(figure: str, observed: float, level: str) -> None:
    # The judge says "true" every time; code maps the value onto the frozen bands.
    result = await judge(gateway(answer("true", observed, ["a", "b"])), capacity_quotes(figure))
    assert result.verdict == level


# --- rule 3: "did not happen" needs positive evidence ---------------------------------------


async def test_a_progress_figure_from_before_the_deadline_is_not_proof_it_did_not_happen() -> None:
    # Promise due end of 2024; the quotes give 2023 progress figures.
    progress = capacity_quotes("9.1 GW", published=date(2023, 8, 1))
    result = await judge(gateway(answer("false", 9.1, ["a", "b"])), progress)
    assert result.verdict == "unresolvable"
    assert "positive evidence" in result.reason
    # Short of the target but close: still progress, not "mostly true" or "mixed".
    nearly = capacity_quotes("14.6 GW", published=date(2024, 9, 1))
    assert (await judge(gateway(answer("true", 14.6, ["a", "b"])), nearly)).verdict == "unresolvable"
    # Already past the target before the deadline: kept.
    early = capacity_quotes("15.4 GW", published=date(2024, 9, 1))
    assert (await judge(gateway(answer("true", 15.4, ["a", "b"])), early)).verdict == "true"


async def test_a_dated_report_of_a_delay_is_positive_evidence() -> None:
    delay = [
        make_item("a", quote="Northwind said in June 2024 that the 8 GW goal was delayed to 2027.",
                  published_date=date(2024, 6, 4), stance="contradicts"),
        make_item("b", source_class="established_newsroom", stance="contradicts", published_date=date(2024, 6, 5),
                  quote="The expansion has been postponed by two years, the company confirmed."),
    ]  # fmt: skip
    result = await judge(gateway(answer("false", cited=["a", "b"])), delay, numeric=None)
    assert result.verdict == "false"


async def test_undated_evidence_cannot_decide_a_dated_claim() -> None:
    undated = [make_item("a", published_date=None), make_item("b", published_date=None)]
    result = await judge(gateway(answer("true", cited=["a", "b"])), undated, numeric=None)
    assert result.verdict == "unresolvable" and "undated" in result.reason


# --- rule 7: the reviewer gate --------------------------------------------------------------


async def test_the_reviewer_sees_the_same_blind_input_and_a_major_problem_holds_the_verdict() -> None:
    gw = gateway(answer("true", 15.2, ["a", "b"]), review={"major_problems": ["ev a is about another wind farm"]})
    result = await judge(gw, capacity_quotes())
    assert result.verdict == "true" and not result.gate.shown
    assert result.gate.failed == ["reviewer_found_no_major_problem"]
    (review_input,) = [payload for step, payload in gw.calls if step == "review_verdict"]
    # The same blind input; only each call's data delimiters differ ([#16]).
    judged = gw.calls[0][1]
    assert isinstance(judged, JudgeInput)
    assert unmark_judge_input(review_input.judge_input) == unmark_judge_input(judged)  # type: ignore[attr-defined]
    assert review_input.judge_input.data_mark != judged.data_mark  # type: ignore[attr-defined]
    assert result.review is not None and result.review.reviewer == "fake-review_verdict"


# --- rule 8: independence -------------------------------------------------------------------


async def test_the_subjects_own_filing_is_not_one_of_the_two_independent_publishers() -> None:
    filing = make_item("f", source_class="official_record", subject_own=True, independent=False,
                       publisher="Northwind Energy A/S (annual report)", primary_or_major=True,
                       quote="Installed offshore capacity reached 15.2 GW at the end of 2024.",
                       published_date=date(2025, 2, 3))  # fmt: skip
    local = make_item("l", source_class="established_newsroom", primary_or_major=False, publisher="Local paper",
                      quote="Northwind now runs 15.2 GW of offshore wind, its annual report says.",
                      published_date=date(2025, 2, 4))  # fmt: skip
    result = await judge(gateway(answer("true", 15.2, ["f", "l"])), [filing, local], numeric=None)
    assert result.verdict == "true" and not result.gate.shown
    assert "independent_publishers" in result.gate.failed


# --- rule 10: the named source governs ------------------------------------------------------


async def test_only_the_named_source_decides_a_numeric_outcome() -> None:
    named = GW15.model_copy(update={"named_source": "Danish Energy Agency"})
    items = [
        make_item("a", publisher="Danish Energy Agency", source_class="official_record",
                  quote="The Danish Energy Agency registered 14.3 GW of offshore capacity at the end of 2024.",
                  published_date=date(2025, 2, 3)),
        make_item("b", source_class="established_newsroom", publisher="Daily Wind",
                  quote="Northwind says it ended 2024 with 15.2 GW of offshore capacity.", published_date=date(2025, 2, 3)),
    ]  # fmt: skip
    # The judge takes the newsroom's 15.2; the criteria name the agency, which says 14.3.
    result = await judge(gateway(answer("true", 15.2, ["a", "b"])), items, numeric=named)
    assert result.verdict == "unresolvable"
    result = await judge(gateway(answer("true", 14.3, ["a", "b"])), items, numeric=named)
    assert result.verdict == "mostly_true" and "the named source governs: Danish Energy Agency" in result.reason


async def test_with_no_named_source_the_verdict_says_the_standard_official_measure_was_used() -> None:
    result = await judge(gateway(answer("true", 15.2, ["a", "b"])), capacity_quotes())
    assert "standard official measure" in result.reason


# --- rule 12: "not yet" ---------------------------------------------------------------------


async def test_an_official_figure_not_yet_published_is_not_yet_due_and_rechecked_on_the_cadence() -> None:
    january = FixedClock(datetime(2025, 1, 20, 9, 0, tzinfo=UTC))
    progress = capacity_quotes("13.1 GW", published=date(2024, 10, 1))
    result = await judge(gateway(answer("false", 13.1, ["a", "b"])), progress, clock=january)
    assert result.verdict == "unresolvable" and result.not_yet_due
    assert result.recheck_by == date(2025, 4, 30) and "not yet" in result.reason
    (expected,) = awaited_official_figures([result])
    # 100 days before the figure is due: monthly, as for a deadline.
    assert recheck_is_due(expected, date(2024, 12, 15), date(2025, 1, 20))
    assert not recheck_is_due(expected, date(2025, 1, 10), date(2025, 1, 20))


async def test_once_the_wait_for_the_official_figure_is_over_it_is_unresolvable_not_not_yet() -> None:
    progress = capacity_quotes("13.1 GW", published=date(2024, 10, 1))
    result = await judge(gateway(answer("false", 13.1, ["a", "b"])), progress)  # judged in November 2026
    assert result.verdict == "unresolvable" and not result.not_yet_due
