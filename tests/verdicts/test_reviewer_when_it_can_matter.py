"""The reviewer is asked only when its answer can change what is shown ([R] "A yes or a no is
shown only when all of these hold"; [#15] rule 7). A verdict another gate already holds stays
held whatever a review says, so no reviewer call is paid for it (it was about a quarter of the
reviewer's calls in the rehearsal); a verdict every other gate passes is reviewed, and shown
only when the reviewer finds no major problem. Both through the live provider classes."""

from __future__ import annotations

from datetime import UTC, date, datetime

from reliability_core.clock import FixedClock
from reliability_core.verdicts.gates import GATE_PUBLISHERS, GATE_REVIEWER
from reliability_core.verdicts.judging import judge_claim
from tests.verdicts.factories import MV, make_claim, make_criteria
from tests.verdicts.live_models import LiveModels, judge_answer
from tests.verdicts.test_the_live_path_disposes import stored_item

OPENED = make_claim(
    quote="We will open the Sea Lynx auction by 31 December 2024.",
    restatement="Northwind Energy will open the Sea Lynx capacity auction by 31 December 2024.",
    deadline=date(2024, 12, 31), made_on=date(2024, 3, 1),
)  # fmt: skip
NOW = datetime(2025, 2, 1, 12, 0, tzinfo=UTC)
REPORT = "Northwind Energy opened the Sea Lynx capacity auction on 12 December 2024, the regulator confirmed."


def supporting(item_id: str, url: str) -> object:
    return stored_item(item_id, url, REPORT, claim=OPENED, published_date=date(2024, 12, 13), stance="supports")


async def test_a_verdict_another_gate_holds_is_not_sent_to_the_reviewer() -> None:
    # One publisher only: the independent-publishers gate holds the verdict whatever a review says.
    evidence = [supporting("e1", "https://www.reuters.com/northwind-sea-lynx")]
    models = LiveModels({"judge_a": lambda _: judge_answer("true", ["e1"]), "judge_b": lambda _: judge_answer("true", ["e1"])})
    verdict = await judge_claim(claim=OPENED, criteria=make_criteria(), evidence=evidence,
                                gateway=models.gateway(), clock=FixedClock(NOW), method_version=MV)  # fmt: skip
    assert "review_verdict" not in models.steps
    assert verdict.review is None and not verdict.gate.shown
    assert GATE_PUBLISHERS in verdict.gate.failed and GATE_REVIEWER in verdict.gate.failed
    assert "not reviewed: already held by" in verdict.reason


async def test_a_verdict_every_other_gate_passes_is_reviewed_before_it_is_shown() -> None:
    evidence = [
        supporting("e1", "https://www.reuters.com/northwind-sea-lynx"),
        supporting("e2", "https://www.ft.com/content/northwind-sea-lynx"),
    ]
    models = LiveModels({"judge_a": lambda _: judge_answer("true", ["e1", "e2"]),
                         "judge_b": lambda _: judge_answer("true", ["e1", "e2"])})  # fmt: skip
    verdict = await judge_claim(claim=OPENED, criteria=make_criteria(), evidence=evidence,
                                gateway=models.gateway(), clock=FixedClock(NOW), method_version=MV)  # fmt: skip
    assert verdict.gate.failed == [], verdict.gate.notes
    assert models.steps.count("review_verdict") == 1
    assert verdict.review is not None and verdict.gate.shown
