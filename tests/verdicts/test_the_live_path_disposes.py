"""Issue 24, items 1, 3, 4 and 7: the model proposes, a named function disposes. Each test
scripts exactly the mistake a live model made (the evidence reader's label, the judges'
verdict) at the SDK transports of the real Anthropic and OpenAI provider classes
(``tests.verdicts.live_models``), and drives the code that governs live runs: the research
step (``evidence.gather_evidence``) and the judging step (``judging.judge_claim``)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from reliability_core.clock import FixedClock
from reliability_core.models.claims import CriteriaLevels, NumericCriteria
from reliability_core.models.verdicts import ClaimVerdict, EvidenceItem
from reliability_core.verdicts.evidence import EvidenceResult
from reliability_core.verdicts.evidence_rules import ReadItem, evidence_item
from reliability_core.verdicts.judging import judge_claim
from reliability_core.verdicts.sources import classify_source, default_source_policy
from tests.verdicts.builders import NORTHWIND, FakeFetcher, gather_and_judge, search_returning, snapshot
from tests.verdicts.factories import MV, make_claim, make_criteria
from tests.verdicts.live_models import LiveModels, judge_answer, mentions

WIRE_URL = "https://wire.example/northwind-sea-lynx"
LEDGER_URL = "https://dailyledger.example/northwind-sea-lynx"
DANISH_URL = "https://nordiskenergi.example/northwind-brint"


def stored_item(item_id: str, url: str, quote: str, *, claim: Any, published_at: datetime | None = None,
                published_date: date | None = None, stance: str = "contradicts") -> EvidenceItem:
    """A quote as the live research step stores it: verified against the page, dated by
    ``evidence_rules.evidence_date`` (in the claim's time zone when the reader gave a time)."""
    page = snapshot(url, f"Updated coverage. {quote} More to follow.")
    item = evidence_item(
        claim=claim, snapshot=page, url=url, side="against", search_date=None,
        source=classify_source(url, title="", text=page.text, own_domains=[], subject_names=[],
                               policy=default_source_policy()),
        proposed=ReadItem(quote=quote, published_date=published_date, published_at=published_at,
                          observed_value=None, stance=stance, kind="outcome"),  # type: ignore[arg-type]
        method_version=MV,
    )  # fmt: skip
    return item.model_copy(update={"id": item_id})


async def judged(claim: Any, criteria: Any, evidence: list[EvidenceItem], verdict: dict[str, Any],
                 now: datetime) -> ClaimVerdict:
    models = LiveModels({"judge_a": lambda _: verdict, "judge_b": lambda _: verdict})
    return await judge_claim(claim=claim, criteria=criteria, evidence=evidence, gateway=models.gateway(),
                             clock=FixedClock(now), method_version=MV)  # fmt: skip


# --- item 1: a "no" on the deadline day while the event is still open -------------------------

LAUNCH = make_claim(
    quote="We will open the Sea Lynx auction by 31 December 2024.",
    restatement="Northwind Energy will open the Sea Lynx capacity auction by 31 December 2024.",
    deadline=date(2024, 12, 31), made_on=date(2024, 3, 1), time_zone="America/New_York",
)  # fmt: skip
# 10 pm on 31 December in New York, already 1 January in UTC.
DEADLINE_EVENING = datetime(2025, 1, 1, 3, 0, tzinfo=UTC)


def still_open_accounts() -> list[EvidenceItem]:
    return [
        stored_item("a", WIRE_URL, "As of Tuesday evening the Sea Lynx auction had not opened, Northwind confirmed.",
                    claim=LAUNCH, published_at=datetime(2025, 1, 1, 1, 30, tzinfo=UTC)),
        stored_item("b", LEDGER_URL, "No bids could be placed in the Sea Lynx auction on Tuesday afternoon.",
                    claim=LAUNCH, published_at=datetime(2024, 12, 31, 22, 0, tzinfo=UTC)),
    ]  # fmt: skip


async def test_a_no_on_the_deadline_day_needs_the_event_to_be_over() -> None:
    accounts = still_open_accounts()
    assert {item.published_date for item in accounts} == {date(2024, 12, 31)}  # the deadline day, in New York
    # Both judges read "not opened yet" on the deadline day as "did not happen".
    result = await judged(LAUNCH, make_criteria(), accounts, judge_answer("false", ["a", "b"]), DEADLINE_EVENING)
    assert result.verdict == "unresolvable"
    assert result.judge_a is not None and result.judge_a.proposed_verdict == "false"
    # Still open: not yet, checked again when the day is over.
    assert result.not_yet_due and result.recheck_by == date(2025, 1, 1)
    assert "deadline day" in result.reason


async def test_a_no_after_the_deadline_day_has_ended_stands() -> None:
    after = stored_item("c", WIRE_URL, "The Sea Lynx auction had still not opened when the year ended, Northwind confirmed.",
                        claim=LAUNCH, published_at=datetime(2025, 1, 1, 15, 0, tzinfo=UTC))  # fmt: skip
    assert after.published_date == date(2025, 1, 1)
    result = await judged(LAUNCH, make_criteria(), [after], judge_answer("false", ["c"]),
                          datetime(2025, 1, 2, 12, 0, tzinfo=UTC))  # fmt: skip
    assert result.verdict == "false"


async def test_a_yes_at_11_30_pm_on_the_deadline_day_counts() -> None:
    late = stored_item("d", WIRE_URL, "Northwind opened the Sea Lynx auction at 11:30 pm on Tuesday, its last day.",
                       claim=LAUNCH, published_at=datetime(2025, 1, 1, 4, 35, tzinfo=UTC), stance="supports")  # fmt: skip
    assert late.published_date == date(2024, 12, 31)
    result = await judged(LAUNCH, make_criteria(), [late], judge_answer("true", ["d"]), DEADLINE_EVENING)
    assert result.verdict == "true" and not result.not_yet_due


# --- item 3: forecasts, polls and analyst expectations are never outcomes -------------------

FORECAST_PAGES = {
    WIRE_URL: "Analysts expect Northwind to have 8.1 GW of offshore wind capacity installed by the end of 2024.",
    DANISH_URL: "Analytikerne forventer, at Northwind Energy har 8,1 GW offshore wind-kapacitet installeret ved udgangen af 2024.",
    LEDGER_URL: "Northwind Energy offshore wind capacity installed at the end of 2024: 8.1 GW.",
}


async def read_as_outcomes(pages: dict[str, str], published: str) -> tuple[EvidenceResult, ClaimVerdict, LiveModels]:
    """The Northwind promise researched on ``pages`` and judged, with the reader's mistake: every
    page's sentence proposed as an "outcome" that supports the claim, dated ``published``; both
    judges then say "true"."""

    def read(body: dict[str, Any]) -> dict[str, Any]:
        url = next(u for u in pages if mentions(body, u))
        return {"items": [{"quote": pages[url], "published_date": published, "published_at": None,
                           "observed_value": None, "stance": "supports", "kind": "outcome"}]}  # fmt: skip

    models = LiveModels({
        "plan_research": lambda _: {"queries_for": ["northwind 8 gw 2024"], "queries_against": []},
        "read_evidence": read,
        "judge_a": lambda _: judge_answer("true", []),
        "judge_b": lambda _: judge_answer("true", []),
    })  # fmt: skip
    found, verdict = await gather_and_judge(
        gateway=models.gateway(),
        search=search_returning({"northwind 8 gw 2024": list(pages)}),
        fetcher=FakeFetcher({url: snapshot(url, text) for url, text in pages.items()}),
        clock=FixedClock(datetime(2025, 3, 1, 12, 0, tzinfo=UTC)),
        subject=NORTHWIND,
    )
    return found, verdict, models


async def test_forecasts_polls_and_analyst_expectations_are_never_outcomes_whatever_the_reader_says() -> None:
    # The reader's mistake: expectations written before the event, labelled "outcome".
    found, verdict, models = await read_as_outcomes(FORECAST_PAGES, "2024-10-02")
    assert models.steps.count("read_evidence") == 3
    by_url = {item.url: item for item in found.items}
    assert all(item.excluded and "never outcomes" in item.exclusion_reason for item in found.items)
    assert by_url[WIRE_URL].evidence_kind == by_url[DANISH_URL].evidence_kind == "analyst_expectation"
    assert by_url[LEDGER_URL].evidence_kind == "forecast"  # dated before the time it speaks of
    # The disagreement is recorded on the item.
    assert all(item.reader_kind == "outcome" and "the reader labelled it outcome" in item.kind_note
               for item in found.items)  # fmt: skip
    assert verdict.verdict == "unresolvable"


# --- item 4: reports that only repeat the claim are never evidence --------------------------

REPEAT_PAGES = {
    WIRE_URL: "Northwind Energy said on Tuesday it will have 8 GW of offshore wind installed by the end of 2024.",
    DANISH_URL: "Northwind Energy sagde tirsdag, at selskabet vil have 8 GW offshore wind installeret inden udgangen af 2024.",
}


async def test_reports_that_only_repeat_the_claim_are_never_evidence() -> None:
    # The reader's mistake: wire reports of the promise, from the year it was made, as outcomes.
    found, verdict, _ = await read_as_outcomes(REPEAT_PAGES, "2022-05-10")
    assert len(found.items) == 2
    assert all(item.excluded and "only repeats the claim" in item.exclusion_reason for item in found.items)
    assert verdict.verdict == "unresolvable"


async def test_evidence_that_decides_a_promise_is_dated_after_the_claim_was_made() -> None:
    claim = make_claim()  # made on 1 March 2022
    same_day = [
        stored_item("a", WIRE_URL, "Northwind Energy presented its 8 GW offshore wind programme in Copenhagen on Tuesday.",
                    claim=claim, published_date=date(2022, 3, 1), stance="supports"),
        stored_item("b", LEDGER_URL, "Northwind Energy put 8 GW of offshore wind at the centre of its strategy on Tuesday.",
                    claim=claim, published_date=date(2022, 3, 1), stance="supports"),
    ]  # fmt: skip
    assert not any(item.excluded for item in same_day)
    result = await judged(claim, make_criteria(), same_day, judge_answer("true", ["a", "b"]),
                          datetime(2025, 3, 1, 12, 0, tzinfo=UTC))  # fmt: skip
    assert result.verdict == "unresolvable"
    assert "dated after" in result.reason


# --- item 7: cancelled events ----------------------------------------------------------------

PLANT = make_claim(
    quote="We will open the Aarhus hydrogen plant by the end of 2024.",
    restatement="Northwind Energy will open its Aarhus hydrogen plant by the end of 2024.",
)


async def test_a_dated_report_of_cancellation_settles_a_claim_that_something_will_happen_as_did_not_happen() -> None:
    # A Danish trade paper reports the cancellation in May, before the deadline.
    report = stored_item("a", DANISH_URL, "Northwind har aflyst byggeriet af brintfabrikken i Aarhus.",
                         claim=PLANT, published_date=date(2024, 5, 14))  # fmt: skip
    result = await judged(PLANT, make_criteria(), [report], judge_answer("false", ["a"]),
                          datetime(2025, 3, 1, 12, 0, tzinfo=UTC))  # fmt: skip
    assert result.verdict == "false"


AUCTION = make_claim(
    claim_type="prediction",
    quote="The 2024 offshore lease auction will raise at least DKK 5 billion.",
    restatement="Northwind Energy predicted that the 2024 offshore lease auction would raise at least DKK 5 billion.",
)
AUCTION_RAISES = NumericCriteria(quantity="proceeds of the 2024 offshore lease auction", unit="DKK billion",
                                 operator="ge", threshold=5.0)  # fmt: skip
REGATTA = make_claim(
    claim_type="prediction",
    quote="Team Northwind will win the 2024 Baltic Offshore Regatta.",
    restatement="Northwind Energy predicted that Team Northwind would win the 2024 Baltic Offshore Regatta.",
)
REGATTA_LEVELS = CriteriaLevels(
    true="Team Northwind wins the 2024 Baltic Offshore Regatta.",
    mostly_true="Team Northwind finishes second.",
    mixed="Team Northwind finishes third to fifth.",
    mostly_false="Team Northwind finishes sixth to tenth.",
    false="Team Northwind finishes below tenth or does not finish.",
)


async def test_a_claim_about_an_outcome_of_a_cancelled_event_cannot_be_settled() -> None:
    auction = [
        stored_item("a", WIRE_URL, "The Danish Energy Agency cancelled the 2024 offshore lease auction after no bids arrived.",
                    claim=AUCTION, published_date=date(2024, 11, 5)),
    ]  # fmt: skip
    result = await judged(AUCTION, make_criteria(numeric=AUCTION_RAISES), auction, judge_answer("false", ["a"]),
                          datetime(2025, 1, 20, 12, 0, tzinfo=UTC))  # fmt: skip
    # Not "not yet: the official figure has not been published": there will be none.
    assert result.verdict == "unresolvable" and not result.not_yet_due
    assert "cancelled" in result.reason and "can't be settled" in result.reason

    regatta = [
        stored_item("b", LEDGER_URL, "The 2024 Baltic Offshore Regatta was called off because of the storm.",
                    claim=REGATTA, published_date=date(2024, 8, 2)),
    ]  # fmt: skip
    result = await judged(REGATTA, make_criteria(levels=REGATTA_LEVELS), regatta, judge_answer("false", ["b"]),
                          datetime(2025, 1, 20, 12, 0, tzinfo=UTC))  # fmt: skip
    assert result.verdict == "unresolvable"
    assert result.judge_a is not None and result.judge_a.proposed_verdict == "false"
    assert "cancelled" in result.reason and "can't be settled" in result.reason
