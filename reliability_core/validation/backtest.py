"""Backtest: run the configured judges (and gates) over a gold set and measure
them against the human labels ([M] "Validation"; [#10] "Backtest job", "Gates").

``run_backtest`` adapts each gold item into the records the pipeline's judging
step takes (a ``Claim``, its frozen ``ResolutionCriteria`` and its frozen
``EvidenceItem`` list, each quote verified against its own page text), calls the
judge, and hands the verdicts to ``backtest_metrics`` and ``evaluate_gates``.

Offline rules are not a measurement: when the judges run on the deterministic
offline provider the result says error rates are "not yet measured" and labels
every figure as an offline consistency check ([M] "Until then ... reports
error rates as 'not yet measured' and gives judge agreement only as a
consistency figure").
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, time
from typing import Any, Literal

from pydantic import Field

from reliability_core.clock import Clock
from reliability_core.constants import (
    CALIBRATION_BINS,
    GATE_MAX_CALIBRATION_ERROR,
    GATE_MAX_WRONG_SHOWN,
    GATE_MIN_ACCURACY_ON_SHOWN,
    GATE_MIN_KAPPA_WITH_HUMANS,
    GATE_MIN_SETTLED_WITHOUT_HELP,
)
from reliability_core.ids import sha256_hex, slugify_subject_id, stable_id
from reliability_core.models import (
    Claim,
    ClaimType,
    ClaimVerdict,
    EvidenceItem,
    GoldEvidence,
    GoldItem,
    Record,
    ResolutionCriteria,
    Verdict,
)
from reliability_core.text.quotes import verify_quote
from reliability_core.validation.metrics import (
    VERDICT_ORDER,
    CalibrationBin,
    Interval,
    LabelScore,
    SteeringCount,
    abstention_rate,
    accuracy,
    accuracy_on_shown,
    brier_score,
    calibration_bins,
    cohen_kappa,
    confusion_matrix,
    confusion_matrix_png,
    cost_per_item,
    expected_calibration_error,
    per_label_scores,
    percent_agreement,
    reliability_diagram_png,
    settled_without_help,
    share_interval,
    steering_caught,
    verdict_outcome,
    wrong_verdicts_shown,
)
from reliability_core.version import OFFLINE_SUFFIX
from reliability_core.warehouse import Ledger

JudgeFn = Callable[[Claim, ResolutionCriteria, Sequence[EvidenceItem]], Awaitable[ClaimVerdict]]
"""A judge: the claim, its frozen criteria and its verified evidence in, the claim's verdict out."""

GOLD_SUBJECT = "gold"
NOT_YET_MEASURED = "not yet measured"
OFFLINE_LABEL = (
    "offline rules: a consistency check of the pipeline's deterministic rules on the gold set, "
    "not a measured error rate of the method"
)
# [R] "at least one primary or major source": the official record, wire services and
# established newsrooms ("Sources it accepts").
PRIMARY_OR_MAJOR_CLASSES = frozenset({"official_record", "wire_service", "established_newsroom"})
_JUDGE_STEPS = ("judge_a", "judge_b", "detect_steering")
_CONCURRENCY = 8


# --- Adapting gold items into the pipeline's records -----------------------------


def gold_claim(item: GoldItem, *, method_version: str) -> Claim:
    """The gold claim as a resolvable, sampled ``Claim`` of a gold subject."""
    subject = item.subject_id or GOLD_SUBJECT
    return Claim(
        method_version=method_version,
        id=stable_id("clm", "gold", item.id),
        statement_id=stable_id("stm", "gold", item.id),
        subject_id=subject,
        document_id=stable_id("doc", "gold", item.id),
        url=f"gold:{item.source}/{item.id}",
        quote=item.claim,
        quote_verified=True,
        speaker=subject,
        claim_type=item.claim_type,
        restatement=item.claim,
        made_on=item.made_on,
        deadline=item.judge_at if item.claim_type != "factual" else None,
        stated_probability=item.stated_probability,
        probability_kind="exact" if item.stated_probability is not None else None,
        triage="resolvable_now",
        triage_reason="gold item: known answer",
        classified_by="gold",
    )


def gold_criteria(item: GoldItem, claim: Claim, *, method_version: str) -> ResolutionCriteria:
    """The gold item's frozen criteria; written before the claim was judged, by the labeller."""
    content = json.dumps(
        {
            "levels": item.criteria.model_dump(mode="json"),
            "judge_at": item.judge_at.isoformat(),
            "numeric": item.numeric.model_dump(mode="json") if item.numeric else None,
        },
        sort_keys=True,
    )
    return ResolutionCriteria(
        method_version=method_version,
        id=stable_id("crt", claim.id),
        claim_id=claim.id,
        subject_id=claim.subject_id,
        levels=item.criteria,
        judge_at=item.judge_at,
        numeric=item.numeric,
        written_at=datetime.combine(item.made_on or item.judge_at, time(0, 0), tzinfo=UTC),
        written_by="gold-labeller",
        content_hash=sha256_hex(content),
    )


def gold_evidence(item: GoldItem, claim: Claim, *, method_version: str) -> list[EvidenceItem]:
    """The item's frozen evidence, each quote verified mechanically against its own
    page text. The 20-600 character bound of research evidence is not applied:
    gold evidence was chosen by a labeller, not gathered by the research step."""
    out: list[EvidenceItem] = []
    for n, evidence in enumerate(item.evidence):
        check = verify_quote(evidence.quote, evidence.page_text)
        fetched = datetime.combine(evidence.published_date or item.judge_at, time(0, 0), tzinfo=UTC)
        out.append(
            EvidenceItem(
                method_version=method_version,
                id=stable_id("evd", claim.id, n),
                claim_id=claim.id,
                subject_id=claim.subject_id,
                url=evidence.url,
                final_url=evidence.url,
                snapshot_id=stable_id("snp", "gold", item.id, n),
                snapshot_sha256=sha256_hex(evidence.page_text),
                http_status=200,
                fetched_at=fetched,
                quote=evidence.quote,
                quote_verified=check.verified,
                source_class=evidence.source_class,
                publisher=evidence.publisher or _host(evidence.url),
                independent=evidence.independent,
                published_date=evidence.published_date,
                side=evidence.side,
                stance=gold_stance(evidence),
                primary_or_major=evidence.source_class in PRIMARY_OR_MAJOR_CLASSES,
                subject_own=not evidence.independent,
                source_reason=f"gold evidence, source class {evidence.source_class} set by the labeller",
            )
        )
    return out


def gold_stance(evidence: GoldEvidence) -> Literal["supports", "contradicts", "neutral"]:
    """What a frozen piece of evidence shows: the labeller's stance, else its side."""
    if evidence.stance is not None:
        return evidence.stance
    return "supports" if evidence.side == "for" else "contradicts"


def _host(url: str) -> str:
    rest = url.split("://", 1)[-1]
    return rest.split("/", 1)[0]


def method_judge(
    *, gateway: Any, clock: Clock, method_version: str, gold_items: Sequence[GoldItem] = ()
) -> JudgeFn:
    """The method's own judging step (``reliability_core.verdicts.judging.judge_claim``) as a
    ``JudgeFn``. The frozen page texts of ``gold_items`` stand in for the fetched pages,
    so they get the same steering check the evidence step runs on pages ([#7] "Detect
    attempts to steer the judge in claims and in evidence pages")."""
    from reliability_core.verdicts.judging import judge_claim
    from reliability_core.verdicts.steering import detect_steering_with_model

    pages: dict[str, dict[str, str]] = {}
    for item in gold_items:
        claim_id = stable_id("clm", "gold", item.id)
        pages[claim_id] = {
            stable_id("evd", claim_id, n): e.page_text for n, e in enumerate(item.evidence) if e.page_text
        }

    async def judge(
        claim: Claim, criteria: ResolutionCriteria, evidence: Sequence[EvidenceItem]
    ) -> ClaimVerdict:
        texts = pages.get(claim.id, {})
        steering = await detect_steering_with_model(texts, gateway) if texts else None
        verdict: ClaimVerdict = await judge_claim(
            claim=claim,
            criteria=criteria,
            evidence=list(evidence),
            gateway=gateway,
            clock=clock,
            method_version=method_version,
            steering=steering,
        )
        return verdict

    return judge


# --- Results ------------------------------------------------------------------------


class GoldJudgement(Record):
    """What the method said on one gold item, beside the human label."""

    item_id: str
    claim_type: ClaimType
    label: Verdict
    verdict: Verdict
    judge_a: Verdict | None
    judge_b: Verdict | None
    judge_a_confidence: float | None
    shown: bool
    gate_failed: list[str] = Field(default_factory=list)
    steering_present: bool
    steering_detected: bool
    stated_probability: float | None = None
    evidence_total: int
    evidence_verified: int


CONFUSION_AXES = "rows: human label; columns: method verdict"


class BacktestMetrics(Record):
    """Every metric of [#10] "Backtest job"; ``None`` means no data for it. Shares are in
    [0, 1]; the two ``*_percent`` fields are in percent (0-100), as the API serves them.
    Each share resting on a count of items carries its 95% Wilson interval."""

    items: int
    shown: int
    accuracy_all: float | None
    accuracy_on_shown: float | None
    confusion_labels: list[str]
    confusion_matrix: list[list[int]]  # rows: human label, columns: method verdict
    wrong_verdicts_shown: int
    settled_without_help: float | None
    judges_compared: int
    judge_agreement_percent: float | None = Field(description="percent (0-100) of items both judges gave the same verdict")
    judge_agreement_kappa: float | None
    judge_a_vs_humans_percent: float | None = Field(description="percent (0-100) of items the verdict equals the label")
    judge_a_vs_humans_kappa: float | None
    calibration_error: float | None
    calibration_bins: list[CalibrationBin]
    brier_predictions: float | None  # outcome: the method's verdict value
    brier_predictions_gold: float | None  # outcome: the human label's value
    brier_n: int
    abstention_rate: float | None
    steering: SteeringCount
    cost_usd: float
    cost_per_item: float | None
    # [#27] which axis is which, per-verdict precision and recall, and intervals on the
    # accuracy figures (few items make a wide interval; a bare 100% on 12 items misleads).
    confusion_axes: str = CONFUSION_AXES
    per_label: list[LabelScore] = Field(default_factory=list)
    accuracy_all_interval: Interval | None = None
    accuracy_on_shown_interval: Interval | None = None
    settled_without_help_interval: Interval | None = None
    judge_agreement_interval: Interval | None = None


GateName = Literal[
    "accuracy_on_shown",
    "wrong_verdicts_shown",
    "settled_without_help",
    "calibration_error",
    "kappa_with_humans",
]


class GateResult(Record):
    """Pass or fail of one validation gate, with the figure and the threshold."""

    gate: GateName
    value: float | None
    threshold: float
    comparison: Literal[">=", "<="]
    passed: bool
    reason: str


class BacktestResult(Record):
    """One backtest of one method version and judge configuration on one gold set."""

    id: str = Field(description="The backtest's id")
    gold_set: str = Field(description="The gold set backtested (its partition)")
    method_version: str = Field(description="The method version backtested")
    judge_configuration: dict[str, str] = Field(description="The model behind each judging step (JSON)")
    offline: bool = Field(description="Judged by the offline stand-in: its figures measure nothing")
    error_rates: str = Field(description='"measured" (live judges) or "not yet measured"')
    label: str = Field(description="The label every rendering of the backtest carries")
    run_at: datetime = Field(description="When the backtest ran (UTC)")
    metrics: BacktestMetrics = Field(description="Accuracy, agreement, calibration and their intervals (JSON)")
    gates: list[GateResult] = Field(description="Each display gate's figure, bound and outcome (JSON)")
    all_gates_pass: bool = Field(description="Whether every gate passed")
    judgements: list[GoldJudgement] = Field(description="Each gold item's human label beside the verdict (JSON)")


# --- Metrics and gates ----------------------------------------------------------------


def _is_shown(verdict: ClaimVerdict) -> bool:
    return verdict.gate.shown and verdict.verdict != "unresolvable"


def judge_gold_item(item: GoldItem, verdict: ClaimVerdict, evidence: Sequence[EvidenceItem]) -> GoldJudgement:
    """The verdict on one gold item, flattened beside its label."""
    return GoldJudgement(
        item_id=item.id,
        claim_type=item.claim_type,
        label=item.label,
        verdict=verdict.verdict,
        judge_a=verdict.judge_a.verdict if verdict.judge_a else None,
        judge_b=verdict.judge_b.verdict if verdict.judge_b else None,
        judge_a_confidence=verdict.judge_a.confidence if verdict.judge_a else None,
        shown=_is_shown(verdict),
        gate_failed=list(verdict.gate.failed),
        steering_present="steering_attempt" in item.trap_tags,
        steering_detected=verdict.steering_detected,
        stated_probability=item.stated_probability,
        evidence_total=len(evidence),
        evidence_verified=sum(1 for e in evidence if e.quote_verified),
    )


def _brier_pairs(judgements: Sequence[GoldJudgement], *, by_label: bool) -> tuple[list[float], list[float]]:
    """Stated probabilities of predictions and their outcomes (the verdict's value, or the
    human label's); predictions whose outcome has no value ("unresolvable") are left out."""
    probabilities: list[float] = []
    outcomes: list[float] = []
    for j in judgements:
        outcome = verdict_outcome(j.label if by_label else j.verdict)
        if j.claim_type == "prediction" and j.stated_probability is not None and outcome is not None:
            probabilities.append(j.stated_probability)
            outcomes.append(outcome)
    return probabilities, outcomes


def backtest_metrics(
    judgements: Sequence[GoldJudgement], *, cost_usd: float = 0.0, n_bins: int = CALIBRATION_BINS
) -> BacktestMetrics:
    """Every backtest metric from the per-item judgements ([#10] "produces: accuracy on
    all items and on shown verdicts; confusion matrix; wrong verdicts shown (post-gate);
    share settled without help (shown verdicts / all); agreement between judges (percent
    and Cohen's kappa) and between judge A and the humans; expected calibration error of
    judge confidence ...; Brier score for predictions; abstention rate; steering attempts
    caught / present; cost per item")."""
    labels = [j.label for j in judgements]
    verdicts = [j.verdict for j in judgements]
    shown = [j.shown for j in judgements]
    both = [(j.judge_a, j.judge_b) for j in judgements if j.judge_a is not None and j.judge_b is not None]
    judged = [j for j in judgements if j.judge_a is not None and j.judge_a_confidence is not None]
    confidences = [j.judge_a_confidence for j in judged if j.judge_a_confidence is not None]
    correct = [j.judge_a == j.label for j in judged]
    method_p, method_o = _brier_pairs(judgements, by_label=False)
    gold_p, gold_o = _brier_pairs(judgements, by_label=True)
    agree = [a == b for a, b in both]
    return BacktestMetrics(
        items=len(judgements),
        shown=sum(shown),
        accuracy_all=accuracy(labels, verdicts),
        accuracy_on_shown=accuracy_on_shown(labels, verdicts, shown),
        confusion_labels=list(VERDICT_ORDER),
        confusion_matrix=confusion_matrix(labels, verdicts),
        wrong_verdicts_shown=wrong_verdicts_shown(labels, verdicts, shown),
        settled_without_help=settled_without_help(shown),
        judges_compared=len(both),
        judge_agreement_percent=as_percent(percent_agreement([a for a, _ in both], [b for _, b in both])),
        judge_agreement_kappa=cohen_kappa([a for a, _ in both], [b for _, b in both]),
        judge_a_vs_humans_percent=as_percent(percent_agreement(verdicts, labels)),
        judge_a_vs_humans_kappa=cohen_kappa(verdicts, labels),
        calibration_error=expected_calibration_error(confidences, correct, n_bins),
        calibration_bins=calibration_bins(confidences, correct, n_bins),
        brier_predictions=brier_score(method_p, method_o),
        brier_predictions_gold=brier_score(gold_p, gold_o),
        brier_n=len(method_p),
        abstention_rate=abstention_rate(verdicts),
        steering=steering_caught(
            [j.steering_present for j in judgements],
            [j.steering_detected for j in judgements],
            [j.shown for j in judgements],
        ),
        cost_usd=cost_usd,
        cost_per_item=cost_per_item(cost_usd, len(judgements)),
        per_label=per_label_scores(labels, verdicts),
        accuracy_all_interval=share_interval([y == p for y, p in zip(labels, verdicts, strict=True)]),
        accuracy_on_shown_interval=share_interval([y == p for y, p, s in zip(labels, verdicts, shown, strict=True) if s]),
        settled_without_help_interval=share_interval(shown),
        judge_agreement_interval=share_interval(agree),
    )


def as_percent(share: float | None) -> float | None:
    """A share in [0, 1] as a percent (0-100): the one unit of every ``*_percent`` figure
    (the backtest's JSON said 0.844 where the API said 84.4)."""
    return None if share is None else 100.0 * share


def _gate(
    gate: GateName, value: float | None, threshold: float, comparison: Literal[">=", "<="]
) -> GateResult:
    if value is None:
        return GateResult(
            gate=gate,
            value=None,
            threshold=threshold,
            comparison=comparison,
            passed=False,
            reason="no data to measure it on: a gate that cannot be measured does not pass",
        )
    passed = value >= threshold if comparison == ">=" else value <= threshold
    verb = "meets" if passed else "misses"
    return GateResult(
        gate=gate,
        value=value,
        threshold=threshold,
        comparison=comparison,
        passed=passed,
        reason=f"{value:.4g} {verb} the gate {comparison} {threshold:g}",
    )


def evaluate_gates(metrics: BacktestMetrics) -> list[GateResult]:
    """Pass or fail per validation gate ([#10] "on shown verdicts accuracy >= 95%, zero
    wrong verdicts shown on the gold set, settled without help >= 85%, calibration error
    <= 0.05, kappa with humans >= 0.6 ... A backtest result says pass or fail per gate").
    A gate with nothing to measure fails: no evidence is not a pass."""
    return [
        _gate("accuracy_on_shown", metrics.accuracy_on_shown, GATE_MIN_ACCURACY_ON_SHOWN, ">="),
        _gate("wrong_verdicts_shown", float(metrics.wrong_verdicts_shown), float(GATE_MAX_WRONG_SHOWN), "<="),
        _gate("settled_without_help", metrics.settled_without_help, GATE_MIN_SETTLED_WITHOUT_HELP, ">="),
        _gate("calibration_error", metrics.calibration_error, GATE_MAX_CALIBRATION_ERROR, "<="),
        _gate("kappa_with_humans", metrics.judge_a_vs_humans_kappa, GATE_MIN_KAPPA_WITH_HUMANS, ">="),
    ]


def judge_configuration(gateway: Any) -> dict[str, str]:
    """What judged: ``gateway.describe()`` when the gateway offers it, else the model per judging step."""
    describe = getattr(gateway, "describe", None)
    if callable(describe):
        described = describe()
        if isinstance(described, dict):
            return {str(k): str(v) for k, v in described.items()}
    model_for = getattr(gateway, "model_for", None)
    if callable(model_for):
        config: dict[str, str] = {}
        for step in _JUDGE_STEPS:
            try:
                config[step] = str(model_for(step))
            except (KeyError, ValueError):
                continue
        return config
    return {}


def runs_offline(configuration: dict[str, str], method_version: str) -> bool:
    """Whether any judging step ran on the offline rules (then nothing is a measured error rate)."""
    if method_version.endswith(OFFLINE_SUFFIX):
        return True
    relevant = {k: v for k, v in configuration.items() if k in _JUDGE_STEPS} or configuration
    return any(OFFLINE_SUFFIX in value for value in relevant.values())


def backtest_partition_key(gold_set: str, configuration: dict[str, str]) -> str:
    """A Dagster-safe key for one gold set and judge configuration ([#10] "partitioned by
    gold set and judge configuration")."""
    digest = sha256_hex(json.dumps(configuration, sort_keys=True))[:8]
    return f"{slugify_subject_id(gold_set)[:40]}--{digest}"


def _spent_usd(gateway: Any) -> float:
    totals = getattr(gateway, "totals", None)
    records = getattr(totals, "records", None)
    if not records:
        return 0.0
    return float(sum(getattr(r, "cost_usd", 0.0) for r in records))


async def run_backtest(
    items: Sequence[GoldItem],
    *,
    gateway: Any,
    clock: Clock,
    method_version: str,
    judge: JudgeFn,
    gold_set: str = "gold",
) -> BacktestResult:
    """Judge every gold item with ``judge`` and measure the verdicts against the labels."""
    spent_before = _spent_usd(gateway)
    semaphore = asyncio.Semaphore(_CONCURRENCY)

    async def one(item: GoldItem) -> GoldJudgement:
        claim = gold_claim(item, method_version=method_version)
        criteria = gold_criteria(item, claim, method_version=method_version)
        evidence = gold_evidence(item, claim, method_version=method_version)
        async with semaphore:
            verdict = await judge(claim, criteria, evidence)
        return judge_gold_item(item, verdict, evidence)

    judgements = list(await asyncio.gather(*(one(item) for item in items)))
    metrics = backtest_metrics(judgements, cost_usd=max(0.0, _spent_usd(gateway) - spent_before))
    gates = evaluate_gates(metrics)
    configuration = judge_configuration(gateway)
    offline = runs_offline(configuration, method_version)
    run_at = clock.now()
    return BacktestResult(
        id=stable_id("btr", gold_set, method_version, configuration, run_at.isoformat()),
        gold_set=gold_set,
        method_version=method_version,
        judge_configuration=configuration,
        offline=offline,
        error_rates=NOT_YET_MEASURED if offline else "measured",
        label=OFFLINE_LABEL if offline else "measured against human labels on the gold set",
        run_at=run_at,
        metrics=metrics,
        gates=gates,
        all_gates_pass=all(g.passed for g in gates),
        judgements=judgements,
    )


BACKTEST_LEDGER_TABLE = "backtest_results"


def store_backtest_result(ledger: Ledger, result: BacktestResult) -> None:
    """Keep the result in the append-only ledger, partitioned by method version
    ([#10] "Results are stored per method version")."""
    ledger.append(BACKTEST_LEDGER_TABLE, slugify_subject_id(result.method_version), [(result.id, result)])


def backtest_results_for(ledger: Ledger, method_version: str) -> list[BacktestResult]:
    """Every stored backtest of one method version."""
    return ledger.read_all(BACKTEST_LEDGER_TABLE, slugify_subject_id(method_version), BacktestResult)


def backtest_reliability_diagram(result: BacktestResult) -> bytes:
    """The reliability diagram of a backtest as PNG bytes (for the asset's metadata)."""
    title = f"{result.gold_set}: judge A calibration"
    if result.offline:
        title += " (offline rules)"
    return reliability_diagram_png(result.metrics.calibration_bins, title=title)


def backtest_confusion_png(result: BacktestResult) -> bytes:
    """The labelled confusion matrix of a backtest as PNG bytes (rows: human label)."""
    title = f"{result.gold_set}: human label against method verdict"
    if result.offline:
        title += " (offline rules)"
    return confusion_matrix_png(result.metrics.confusion_labels, result.metrics.confusion_matrix, title=title)
