"""Validation assets: gold-set backtests, re-run stability, the steward queue.
Thin wrappers over ``reliability_core.validation.backtest``, ``stability`` and ``steward``."""

import base64
from pathlib import Path
from typing import Any, get_args

import dagster as dg

from reliability_core.constants import STABILITY_RERUNS
from reliability_core.models import Claim, ClaimVerdict, GoldItem, ResolutionCriteria
from reliability_core.settings import settings
from reliability_core.stages import judge_claims, research_claims
from reliability_core.stand_in.search import OfflineSearch
from reliability_core.stewardship.steward import StewardQueueItem, rebuild_steward_queue
from reliability_core.validation import stability
from reliability_core.validation.averitec import import_averitec
from reliability_core.validation.backtest import (
    BacktestResult,
    GateName,
    backtest_confusion_png,
    backtest_partition_key,
    backtest_reliability_diagram,
    judge_configuration,
    method_judge,
    run_backtest,
    store_backtest_result,
)
from reliability_core.validation.backtest_tables import backtest_markdown
from reliability_core.validation.gold import load_gold
from reliability_core.verdicts.evidence import EvidenceResult
from reliability_core.warehouse import Ledger, tables
from reliability_dagster.assets import _sampled_claims, _snapshots
from reliability_dagster.jobs import STEWARD_GROUP, VALIDATION_GROUP
from reliability_dagster.metadata import OWNERS, measure, rows, steward_queue_metadata, table_metadata
from reliability_dagster.partitions import backtest_partitions, subjects_partitions
from reliability_dagster.pools import ANTHROPIC, OPENAI, PERPLEXITY, WEB, pool_tags
from reliability_dagster.resources import (
    ClockResource,
    FetcherResource,
    ProvidersResource,
    WarehouseResource,
)
from reliability_dagster.stage import run_async, stage_for


def gold_items(gold_set: str) -> list[GoldItem]:
    """The items of a named gold set: a JSONL file in data/gold, or the AVeriTeC
    dev set read in place from ../shared (CC BY-NC 4.0, never copied)."""
    if gold_set == "averitec-dev":
        return import_averitec(settings().averitec)
    return load_gold(settings().gold_dir / f"{gold_set}.jsonl")


BACKTEST_ASSET = "gold_set_backtest"
# [#10] "A backtest result says pass or fail per gate": each gate is an asset check of the
# backtest, so a failing gate is red in the UI (issue 27), not a line in a Markdown note.
GATE_CHECKS: dict[str, str] = {
    "accuracy_on_shown": "Accuracy on shown verdicts at least the gate (95%).",
    "wrong_verdicts_shown": "No wrong verdict shown on the gold set.",
    "settled_without_help": "Share settled without help (shown verdicts / all) at least the gate (85%).",
    "calibration_error": "Expected calibration error of judge A's confidence at most the gate (0.05).",
    "kappa_with_humans": "Cohen's kappa of the verdicts against the human labels at least the gate (0.6).",
}
assert set(GATE_CHECKS) == set(get_args(GateName)), "one asset check per validation gate"


def gate_check_name(gate: str) -> str:
    return f"gate_{gate}"


def gate_check_results(result: BacktestResult) -> list[dg.AssetCheckResult]:
    """Each gate's pass or fail as an asset check result: failed is red (severity ERROR)."""
    return [
        dg.AssetCheckResult(
            asset_key=BACKTEST_ASSET,
            check_name=gate_check_name(g.gate),
            passed=g.passed,
            severity=dg.AssetCheckSeverity.ERROR,
            description=g.reason,
            metadata={
                "value": g.value if g.value is not None else "no data",
                "threshold": g.threshold,
                "comparison": g.comparison,
                "error_rates": result.error_rates,
                "label": result.label,
            },
        )
        for g in result.gates
    ]


@dg.asset(
    name=BACKTEST_ASSET,
    partitions_def=backtest_partitions,
    group_name=VALIDATION_GROUP,
    kinds={"anthropic", "openai", "parquet"},
    tags=pool_tags({ANTHROPIC, OPENAI}),
    description="The configured judges and display gates over a gold set, measured against human labels; "
    "each validation gate is an asset check (gate_*). Partitioned by gold set and judge configuration: the "
    "gold-set partitions are added by gold_set_sensor from data/gold/*.jsonl (and the AVeriTeC dev set).",
    owners=OWNERS,
    metadata=table_metadata(BacktestResult, tables.BACKTESTS),
    check_specs=[
        dg.AssetCheckSpec(gate_check_name(gate), asset=BACKTEST_ASSET, description=text)
        for gate, text in GATE_CHECKS.items()
    ],
)
def gold_set_backtest(
    context: dg.AssetExecutionContext,
    warehouse: WarehouseResource,
    clock: ClockResource,
    providers: ProvidersResource,
) -> dg.MaterializeResult:  # type: ignore[type-arg]  # Dagster reads a parametrised annotation as one output, not the checks too
    keys = context.partition_key.keys_by_dimension  # type: ignore[attr-defined]
    gold_set = keys["gold_set"]
    items = gold_items(gold_set)
    gateway = providers.gateway(job=context.job_name)
    the_clock = clock.clock()
    version = providers.method_version()
    result = run_async(
        run_backtest(
            items,
            gateway=gateway,
            clock=the_clock,
            method_version=version,
            judge=method_judge(gateway=gateway, clock=the_clock, method_version=version, gold_items=items),
            gold_set=gold_set,
        )
    )
    store = warehouse.warehouse()
    partition = backtest_partition_key(gold_set, judge_configuration(gateway))
    store.write(tables.BACKTESTS, partition, [result])
    store_backtest_result(Ledger(store), result)
    m = result.metrics
    diagram = base64.b64encode(backtest_reliability_diagram(result)).decode("ascii")
    confusion = base64.b64encode(backtest_confusion_png(result)).decode("ascii")
    gates = "\n".join(f"- {g.gate}: {'pass' if g.passed else 'FAIL'} ({g.reason})" for g in result.gates)
    metadata: dict[str, Any] = {
        "items": m.items,
        **rows(1),
        "label": result.label,
        "error_rates": result.error_rates,
        "wrong_verdicts_shown": m.wrong_verdicts_shown,
        # A figure that cannot be computed is left out, never a word in its place: Dagster
        # plots a key across partitions only while its type holds (metadata.measure).
        **measure("accuracy_all", m.accuracy_all, 12),
        **measure("accuracy_on_shown", m.accuracy_on_shown, 12),
        **measure("settled_without_help", m.settled_without_help, 12),
        **measure("judge_agreement_percent", m.judge_agreement_percent, 12),
        **measure("judge_agreement_kappa", m.judge_agreement_kappa, 12),
        **measure("calibration_error", m.calibration_error, 12),
        "all_gates_pass": result.all_gates_pass,
        "gates": dg.MetadataValue.md(gates),
        "figures": dg.MetadataValue.md(backtest_markdown(result)),
        "confusion_matrix": dg.MetadataValue.md(f"![confusion matrix](data:image/png;base64,{confusion})"),
        "reliability_diagram": dg.MetadataValue.md(f"![reliability diagram](data:image/png;base64,{diagram})"),
        **gateway.metadata(),
    }
    return dg.MaterializeResult(metadata=metadata, check_results=gate_check_results(result))


@dg.asset(
    partitions_def=subjects_partitions,
    group_name=VALIDATION_GROUP,
    deps=["verdicts"],
    kinds={"anthropic", "openai", "parquet"},
    tags=pool_tags({ANTHROPIC, OPENAI, PERPLEXITY, WEB}),
    description="Research and judging re-run k times for the same sampled claims with fresh calls in a cache "
    "namespace of their own (the report's cached answers untouched): "
    "share of verdicts unchanged, transitions, and how far the scores move.",
    owners=OWNERS,
    metadata=table_metadata(stability.StabilityReport, tables.STABILITY),
)
def rerun_stability(
    context: dg.AssetExecutionContext,
    warehouse: WarehouseResource,
    clock: ClockResource,
    providers: ProvidersResource,
    fetcher: FetcherResource,
) -> dg.MaterializeResult[None]:
    stage = stage_for(context, warehouse, clock, providers)
    # Fresh calls, written to a namespace of their own: the report's cached answers
    # are never read nor overwritten.
    fresh = providers.model_copy(
        update={"bypass_cache": True, "cache_dir": str(stability.stability_cache_dir(Path(providers.cache_dir)))}
    )
    claims: list[Claim] = _sampled_claims(stage)
    criteria = stage.warehouse.read(tables.CRITERIA, stage.subject_id, ResolutionCriteria)
    own_sources = _snapshots(stage) if stage.covered() else []

    async def run_once(_: int) -> list[ClaimVerdict]:
        gateway = fresh.gateway()
        research: list[EvidenceResult] = await research_claims(
            claims=claims,
            criteria=criteria,
            own_sources=own_sources,
            entry=stage.entry,
            gateway=gateway,
            search=fresh.search(stage.clock),
            fetcher=fetcher.fetcher(stage.clock),
            clock=stage.clock,
            method_version=stage.method_version,
        )
        return await judge_claims(
            claims=claims,
            criteria=criteria,
            research=research,
            gateway=gateway,
            clock=stage.clock,
            method_version=stage.method_version,
        )

    gateway = fresh.gateway()
    cannot_move = stability.cannot_move_reason(
        models_deterministic=all(gateway.is_offline(step) for step in gateway.assignment),
        search_deterministic=fresh.search(stage.clock).name == OfflineSearch.name,
    )
    runs = run_async(stability.collect_reruns(STABILITY_RERUNS, run_once))
    reports = stability.rerun_stability(claims, runs, cannot_move=cannot_move) if claims else []
    stage.warehouse.write(tables.STABILITY, stage.subject_id, reports)
    metadata: dict[str, Any] = {
        "runs": STABILITY_RERUNS,
        "claims": len(claims),
        "offline_rules": stage.offline,
        **rows(len(reports)),
        "measured": cannot_move is None,
        "note": cannot_move or "",
    }
    for report in reports:
        metadata.update(measure("share_unchanged", report.share_unchanged, 12))
        metadata["transitions"] = dg.MetadataValue.json(report.transition_kinds)
        for movement in report.scores:
            metadata.update(measure(f"movement.{movement.scope}", movement.movement, 12))
    return dg.MaterializeResult(metadata=metadata)


@dg.asset(
    group_name=STEWARD_GROUP,
    kinds={"python", "parquet"},
    description="Every disputed or held claim plus a random 10% of the last 7 days' verdicts over every subject "
    "(fresh seed, recorded), for a human steward; rebuilt weekly by the steward_sampling schedule. Each subject's "
    "run also rebuilds that subject's queue (subject_steward_queue).",
    owners=OWNERS,
    metadata=table_metadata(StewardQueueItem, tables.STEWARD_QUEUE),
)
def steward_queue(
    warehouse: WarehouseResource, clock: ClockResource, providers: ProvidersResource
) -> dg.MaterializeResult[None]:
    queue = rebuild_steward_queue(warehouse.warehouse(), clock=clock.clock(), method_version=providers.method_version())
    return dg.MaterializeResult(metadata=steward_queue_metadata(queue))


validation_assets: list[dg.AssetsDefinition] = [gold_set_backtest, rerun_stability, steward_queue]
