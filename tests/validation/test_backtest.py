"""Backtest over a gold set with a fake judge: known metrics, gates, offline labelling."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from reliability_core.clock import FixedClock
from reliability_core.models import Claim, ClaimVerdict, EvidenceItem, ResolutionCriteria
from reliability_core.validation.backtest import (
    NOT_YET_MEASURED,
    BacktestMetrics,
    backtest_partition_key,
    backtest_results_for,
    evaluate_gates,
    gold_claim,
    gold_evidence,
    run_backtest,
    store_backtest_result,
)
from reliability_core.warehouse import Ledger
from tests.validation.fakes import LiveGateway, OfflineGateway, TableJudge, gold_item

ITEMS = [
    gold_item("g1", "true", claim="c1"),
    gold_item("g2", "false", claim="c2"),
    gold_item("g3", "true", claim="c3", trap_tags=["steering_attempt"]),
    gold_item("g4", "unresolvable", claim="c4"),
    gold_item("g5", "true", claim="c5", claim_type="prediction", stated_probability=0.7),
]
ANSWERS: dict[str, dict[str, object]] = {
    "c1": {"verdict": "true", "judge_b": "true", "confidence": 0.9},
    "c2": {"verdict": "true", "judge_b": "false", "confidence": 0.9},  # wrong and shown
    "c3": {"verdict": "unresolvable", "shown": False, "steering": True, "confidence": 0.6},
    "c4": {"verdict": "unresolvable", "judge_b": "unresolvable", "shown": False, "confidence": 0.9},
    "c5": {"verdict": "true", "judge_b": "true", "confidence": 0.9},
}


async def test_backtest_with_fake_judge_produces_known_metrics(clock: FixedClock) -> None:
    judge = TableJudge(ANSWERS)
    result = await run_backtest(
        ITEMS, gateway=OfflineGateway(), clock=clock, method_version="0.1.0+x", judge=judge
    )
    m = result.metrics
    assert m.items == 5 and m.shown == 3
    assert m.accuracy_all == pytest.approx(3 / 5)  # c1, c4, c5 right
    assert m.accuracy_on_shown == pytest.approx(2 / 3)
    assert m.wrong_verdicts_shown == 1
    assert m.settled_without_help == pytest.approx(3 / 5)
    assert m.abstention_rate == pytest.approx(2 / 5)
    assert m.judges_compared == 4 and m.judge_agreement_percent == pytest.approx(75.0)  # percent (issue 27; was the share 3 / 4)
    assert (m.steering.present, m.steering.caught, m.steering.shown_despite_steering) == (1, 1, 0)
    # Row "false" (label), column "true" (verdict) holds c2.
    assert m.confusion_matrix[m.confusion_labels.index("false")][m.confusion_labels.index("true")] == 1
    # Bin [0.9, 1.0): c1, c2, c4, c5 at 0.9 with 3 correct; bin [0.6, 0.7): c3 at 0.6, wrong.
    assert m.calibration_error == pytest.approx((4 / 5) * abs(0.75 - 0.9) + (1 / 5) * 0.6)
    assert m.brier_predictions == pytest.approx((0.7 - 1.0) ** 2) and m.brier_n == 1
    assert m.brier_predictions_gold == pytest.approx((0.7 - 1.0) ** 2)
    assert len(judge.seen) == 5


async def test_figures_on_few_items_carry_intervals_and_each_verdict_its_precision_and_recall(
    clock: FixedClock,
) -> None:
    result = await run_backtest(
        ITEMS, gateway=OfflineGateway(), clock=clock, method_version="0.1.0+x", judge=TableJudge(ANSWERS)
    )
    m = result.metrics
    accuracy = m.accuracy_all_interval
    assert accuracy is not None and (accuracy.successes, accuracy.n) == (3, 5)
    assert accuracy.low < 0.6 < accuracy.high and accuracy.high - accuracy.low > 0.5, "5 items: a wide interval"
    assert m.accuracy_on_shown_interval is not None and m.accuracy_on_shown_interval.n == 3
    assert m.settled_without_help_interval is not None and m.settled_without_help_interval.n == 5
    assert m.confusion_axes == "rows: human label; columns: method verdict"
    labels = [item.label for item in ITEMS]
    assert {s.label: s.support for s in m.per_label} == {c: labels.count(c) for c in m.confusion_labels}
    assert sum(s.correct for s in m.per_label) == 3


async def test_offline_backtest_says_error_rates_are_not_yet_measured(clock: FixedClock) -> None:
    result = await run_backtest(
        ITEMS, gateway=OfflineGateway(), clock=clock, method_version="0.1.0+x", judge=TableJudge(ANSWERS)
    )
    assert result.offline
    assert result.error_rates == NOT_YET_MEASURED
    assert "not a measured error rate" in result.label
    assert result.judge_configuration == {"judge_a": "offline-rules", "judge_b": "offline-rules"}


async def test_live_backtest_reports_measured_results_and_cost_per_item(clock: FixedClock) -> None:
    gateway = LiveGateway()
    gateway.spend(1.0)  # spent before the backtest: not counted

    class SpendingJudge(TableJudge):
        async def __call__(
            self, claim: Claim, criteria: ResolutionCriteria, evidence: Sequence[EvidenceItem]
        ) -> ClaimVerdict:
            gateway.spend(0.02)
            return await super().__call__(claim, criteria, evidence)

    result = await run_backtest(
        ITEMS, gateway=gateway, clock=clock, method_version="0.1.0+x", judge=SpendingJudge(ANSWERS)
    )
    assert not result.offline and result.error_rates == "measured"
    assert result.metrics.cost_usd == pytest.approx(0.10)
    assert result.metrics.cost_per_item == pytest.approx(0.02)


async def test_gold_evidence_reaches_the_judge_verified_against_its_own_page_text(clock: FixedClock) -> None:
    items = [
        gold_item("g1", "true", claim="c1"),
        gold_item("g2", "false", claim="c2", quote="a sentence that is not on the page at all"),
    ]
    judge = TableJudge(ANSWERS)
    await run_backtest(items, gateway=OfflineGateway(), clock=clock, method_version="v", judge=judge)
    verified = {claim.restatement: [e.quote_verified for e in evidence] for claim, _, evidence in judge.seen}
    assert verified == {"c1": [True], "c2": [False]}
    criteria = judge.seen[0][1]
    assert criteria.levels == items[0].criteria and criteria.judge_at == items[0].judge_at


def test_gold_claim_carries_the_stated_probability_of_a_prediction() -> None:
    claim = gold_claim(ITEMS[4], method_version="v")
    assert claim.claim_type == "prediction" and claim.stated_probability == 0.7
    assert claim.triage == "resolvable_now"
    assert len(gold_evidence(ITEMS[4], claim, method_version="v")) == 1


def _metrics(**changes: object) -> BacktestMetrics:
    base = {
        "items": 100,
        "shown": 90,
        "accuracy_all": 0.9,
        "accuracy_on_shown": 0.97,
        "confusion_labels": [],
        "confusion_matrix": [],
        "wrong_verdicts_shown": 0,
        "settled_without_help": 0.9,
        "judges_compared": 100,
        "judge_agreement_percent": 90.0,
        "judge_agreement_kappa": 0.8,
        "judge_a_vs_humans_percent": 90.0,
        "judge_a_vs_humans_kappa": 0.7,
        "calibration_error": 0.04,
        "calibration_bins": [],
        "brier_predictions": None,
        "brier_predictions_gold": None,
        "brier_n": 0,
        "abstention_rate": 0.1,
        "steering": {"present": 0, "caught": 0, "false_alarms": 0},
        "cost_usd": 0.0,
        "cost_per_item": 0.0,
    }
    base.update(changes)
    return BacktestMetrics.model_validate(base)


def test_all_gates_pass_when_every_figure_meets_its_gate() -> None:
    assert all(g.passed for g in evaluate_gates(_metrics()))


@pytest.mark.parametrize(
    ("change", "gate"),
    [
        ({"accuracy_on_shown": 0.94}, "accuracy_on_shown"),
        ({"wrong_verdicts_shown": 1}, "wrong_verdicts_shown"),
        ({"settled_without_help": 0.84}, "settled_without_help"),
        ({"calibration_error": 0.051}, "calibration_error"),
        ({"judge_a_vs_humans_kappa": 0.59}, "kappa_with_humans"),
        ({"judge_a_vs_humans_kappa": None}, "kappa_with_humans"),
    ],
)
def test_each_gate_fails_on_its_own_figure(change: dict[str, object], gate: str) -> None:
    failed = [g.gate for g in evaluate_gates(_metrics(**change)) if not g.passed]
    assert failed == [gate]


def test_gate_thresholds_are_inclusive() -> None:
    gates = evaluate_gates(
        _metrics(accuracy_on_shown=0.95, settled_without_help=0.85, calibration_error=0.05)
    )
    assert all(g.passed for g in gates)


async def test_backtest_results_are_stored_per_method_version(clock: FixedClock, ledger: Ledger) -> None:
    result = await run_backtest(
        ITEMS, gateway=OfflineGateway(), clock=clock, method_version="0.1.0+ab", judge=TableJudge(ANSWERS)
    )
    store_backtest_result(ledger, result)
    store_backtest_result(ledger, result)  # identical: a no-op
    assert backtest_results_for(ledger, "0.1.0+ab") == [result]
    assert backtest_results_for(ledger, "0.1.0+cd") == []


def test_partition_key_differs_by_judge_configuration() -> None:
    a = backtest_partition_key("starter", {"judge_a": "offline-rules"})
    b = backtest_partition_key("starter", {"judge_a": "anthropic:opus"})
    assert a != b and a.startswith("starter--")


async def test_wrong_verdict_held_by_the_gate_is_not_a_wrong_verdict_shown(clock: FixedClock) -> None:
    items = [gold_item("g1", "false", claim="c1")]
    judge = TableJudge({"c1": {"verdict": "true", "shown": False}})
    result = await run_backtest(items, gateway=OfflineGateway(), clock=clock, method_version="v", judge=judge)
    assert result.metrics.wrong_verdicts_shown == 0
    assert result.metrics.accuracy_all == 0.0
    assert result.metrics.accuracy_on_shown is None
    assert not result.all_gates_pass


def test_gold_evidence_carries_stance_and_source_standing() -> None:
    item = gold_item("g1", "true")
    against = item.evidence[0].model_copy(update={"side": "against", "independent": False})
    item = item.model_copy(update={"evidence": [item.evidence[0], against]})
    claim = gold_claim(item, method_version="v")
    supports, contradicts = gold_evidence(item, claim, method_version="v")
    assert (supports.stance, supports.primary_or_major, supports.subject_own) == ("supports", True, False)
    assert (contradicts.stance, contradicts.subject_own) == ("contradicts", True)


async def test_offline_backtest_over_the_starter_set_runs_end_to_end(clock: FixedClock) -> None:
    from pathlib import Path

    from reliability_core.validation.backtest import method_judge
    from reliability_core.validation.gold import load_gold
    from reliability_core.wiring import build_gateway

    items = load_gold(Path(__file__).resolve().parents[2] / "data" / "gold" / "starter.jsonl")
    gateway = build_gateway({"RELIABILITY_OFFLINE": "1"}, None)
    judge = method_judge(
        gateway=gateway, clock=clock, method_version="0.1.0+t.offline-rules", gold_items=items
    )
    result = await run_backtest(
        items,
        gateway=gateway,
        clock=clock,
        method_version="0.1.0+t.offline-rules",
        judge=judge,
        gold_set="starter",
    )
    assert result.offline and result.error_rates == NOT_YET_MEASURED
    assert result.metrics.items == len(items)
    assert result.metrics.steering.present == sum(1 for i in items if "steering_attempt" in i.trap_tags)
    assert len(result.gates) == 5
    assert sum(sum(row) for row in result.metrics.confusion_matrix) == len(items)
