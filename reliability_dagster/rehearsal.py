"""``make rehearse``: the demo subjects end to end on the LIVE provider classes
(Anthropic, OpenAI, Perplexity) pointed at local vendor servers on loopback,
which answer from a scripted model (``reliability_rehearsal``), with the
live fetcher path over the offline corpus. Labelled as a rehearsal everywhere:
the method version ends ``.rehearsal``, every report says so, every asset's
metadata has ``rehearsal: true``.

It prints one line per subject and stage, as ``make demo`` does (Dagster's event
log only with ``--log``), each run's id, and the instance the runs are on
(``<root>/dagster_home``, which ``DAGSTER_HOME=... reliability ui`` opens);
then, per subject, the summary ``make demo`` prints, then calls, tokens
and cost per model step and the cost per checked claim, from the metadata each
asset attaches (the pipeline's own accounting of what the provider classes
read from the vendors' ``usage``, priced from ``reliability_core/providers/prices.yaml``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dagster as dg

from reliability_core.models import ClaimVerdict, Report
from reliability_core.providers.pricing import PriceTable, load_prices
from reliability_core.scores.publication import latest_report
from reliability_core.settings import settings
from reliability_core.stand_in.corpus import DEMO_CORPUS_NOW
from reliability_core.subjects.registry import load_registry
from reliability_core.warehouse import Warehouse, tables
from reliability_dagster.assets import sum_usage_by_step
from reliability_dagster.dead_runs import fail_dead_runs, process_tags
from reliability_dagster.definitions import build_definitions
from reliability_dagster.demo import model_usage, stage_progress, summary
from reliability_dagster.instance import open_instance
from reliability_dagster.jobs import QUICK_REPORT_JOB, REFRESH_JOB
from reliability_dagster.resources import (
    ClockResource,
    FetcherResource,
    ProvidersResource,
    WarehouseResource,
)
from reliability_rehearsal import FaultRates, MistakeRates, RehearsalServers, ScriptedModel

REHEARSAL_LABEL = "rehearsal: live provider classes against local vendor servers (scripted model, not a live model)"
USAGE_FIELDS = ("calls", "input_tokens", "cached_tokens", "output_tokens", "cost_usd")
# Not a secret: the rehearsal servers only check that a key is sent.
REHEARSAL_API_KEY = "rehearsal-key-not-a-secret"
# The rehearsal servers finish a batch in seconds, not hours: poll accordingly.
BATCH_POLL_SECONDS = 0.2
# Dagster's console log of a run shows only errors unless --log asks for the event log
# (about 100 lines per subject otherwise, before the summary).
QUIET_RUN_CONFIG = {"loggers": {"console": {"config": {"log_level": "ERROR"}}}}


@dataclass
class SubjectRehearsal:
    """One subject's run: outcome, usage per step, checked claims."""

    subject_id: str
    success: bool
    seconds: float
    model_calls: int
    run_id: str = ""
    progress: str = ""  # each stage with its count, then the checks (``demo.stage_progress``)
    by_step: dict[str, dict[str, float]] = field(default_factory=dict)
    checked_claims: int = 0
    report: Report | None = None
    # The same calls at the vendors' batch discount (Message Batches, OpenAI Batch):
    # priced, not run through the batch endpoints.
    batch_cost_usd: float = 0.0
    batch: bool = False  # run through the batch APIs (then every cost above is a batch cost)
    # Models the run called that have no list price in prices.yaml: their calls count $0,
    # so the cost figure is incomplete while this is not empty.
    unpriced_models: list[str] = field(default_factory=list)
    # What the report asset's own metadata says (``cost_per_checked_claim_usd``).
    reported_cost_per_checked_claim: float | None = None

    @property
    def cost_usd(self) -> float:
        return sum(usage["cost_usd"] for usage in self.by_step.values())

    @property
    def cost_per_checked_claim(self) -> float | None:
        return self.cost_usd / self.checked_claims if self.checked_claims else None

    @property
    def batch_cost_per_checked_claim(self) -> float | None:
        return self.batch_cost_usd / self.checked_claims if self.checked_claims else None


def unpriced_models(by_step: dict[str, dict[str, float]], models_used: dict[str, str], prices: PriceTable) -> list[str]:
    """The models of the steps that made calls but have no price in the table."""
    found = set()
    for step, usage in by_step.items():
        model = models_used.get(step, "").partition(":")[2].partition("@")[0]
        if usage.get("calls") and model and prices.price_for(model) is None:
            found.add(model)
    return sorted(found)


def batch_cost(by_step: dict[str, dict[str, float]], models_used: dict[str, str], prices: PriceTable) -> float:
    """The run's model cost with each step's calls at its model's batch discount."""
    total = 0.0
    for step, usage in by_step.items():
        model = models_used.get(step, "").partition(":")[2].partition("@")[0]
        price = prices.price_for(model)
        discount = price.batch_discount if price is not None else 0.0
        total += usage["cost_usd"] * (1.0 - discount)
    return total


def rehearsal_resources(root: Path, servers: RehearsalServers, *, batch_jobs: Sequence[str] = ()) -> dict[str, Any]:
    """Resources for one rehearsal: live provider classes at the servers' base
    URLs, a fresh response cache (so every call is made and billed), the live
    fetcher path over the offline corpus, the clock at the corpus date; the jobs
    in ``batch_jobs`` send their model calls through the servers' batch APIs."""
    corpus = settings().corpus_dir
    return {
        "warehouse": WarehouseResource(root=str(root / "warehouse")),
        "clock": ClockResource(fixed_now=DEMO_CORPUS_NOW),
        "providers": ProvidersResource(
            anthropic_api_key=REHEARSAL_API_KEY,
            openai_api_key=REHEARSAL_API_KEY,
            perplexity_api_key=REHEARSAL_API_KEY,
            anthropic_base_url=servers.anthropic_url,
            openai_base_url=servers.openai_url,
            perplexity_base_url=servers.perplexity_url,
            rehearsal=True,
            batch_jobs=list(batch_jobs),
            batch_poll_seconds=BATCH_POLL_SECONDS,
            corpus_dir=str(corpus),
            cache_dir=str(root / "cache"),
        ),
        "fetcher": FetcherResource(mode="offline", corpus_dir=str(corpus)),
    }


def usage_by_step(result: dg.ExecuteInProcessResult) -> dict[str, dict[str, float]]:
    """Calls, tokens and cost per model step, summed over every asset of a run."""
    summed = sum_usage_by_step(
        event.step_materialization_data.materialization.metadata for event in result.get_asset_materialization_events()
    )
    return {step: {key: usage.get(key, 0.0) for key in USAGE_FIELDS} for step, usage in summed.items()}


def report_metadata_value(result: dg.ExecuteInProcessResult, key: str) -> object:
    """A metadata value of the run's ``subject_report`` materialisation (None if absent)."""
    for event in result.get_asset_materialization_events():
        materialization = event.step_materialization_data.materialization
        if materialization.asset_key.to_user_string() == "subject_report" and key in materialization.metadata:
            return getattr(materialization.metadata[key], "value", None)
    return None


def rehearse(
    subjects: Sequence[str],
    root: Path,
    *,
    seed: int = 0,
    mistakes: MistakeRates | None = None,
    faults: FaultRates | None = None,
    batch: bool = False,
    home: Path | None = None,
    log: bool = False,
) -> tuple[list[SubjectRehearsal], RehearsalServers]:
    """Run ``subjects`` through the quick-report job against fresh rehearsal servers;
    with ``batch``, through the refresh job with its model calls on the batch APIs
    (scheduled work, issue 19), so the batch cost is measured, not only priced. The runs
    go on the instance in ``home`` (kept, for the UI), else on an ephemeral one; Dagster's
    event log is printed only with ``log``."""
    if (root / "cache").exists():
        shutil.rmtree(root / "cache")
    servers = RehearsalServers(
        corpus_dir=settings().corpus_dir,
        model=ScriptedModel(rates=mistakes or MistakeRates(), seed=seed),
        faults=faults or FaultRates(),
        seed=seed,
    )
    outcomes: list[SubjectRehearsal] = []
    prices = load_prices()
    opened = open_instance(home) if home is not None else dg.DagsterInstance.ephemeral()
    with servers, opened as instance:
        # A rehearsal killed earlier left its runs STARTED: fail them first.
        fail_dead_runs(instance)
        job_name = REFRESH_JOB if batch else QUICK_REPORT_JOB
        resources = rehearsal_resources(root, servers, batch_jobs=[REFRESH_JOB] if batch else [])
        job = build_definitions(resources).resolve_job_def(job_name)
        instance.add_dynamic_partitions(
            "subjects", [s for s in subjects if not instance.has_dynamic_partition("subjects", s)]
        )
        store = Warehouse(str(root / "warehouse"))
        for subject in subjects:
            started = time.perf_counter()
            result = job.execute_in_process(
                instance=instance,
                partition_key=subject,
                raise_on_error=False,
                run_config=None if log else QUIET_RUN_CONFIG,
                tags=process_tags(),
            )
            calls, _ = model_usage(result)
            by_step = usage_by_step(result)
            report = latest_report(store.read(tables.REPORTS, subject, Report))
            outcomes.append(
                SubjectRehearsal(
                    subject_id=subject,
                    success=result.success,
                    seconds=time.perf_counter() - started,
                    model_calls=calls,
                    run_id=result.run_id,
                    progress=stage_progress(result),
                    by_step=by_step,
                    checked_claims=len(store.read(tables.VERDICTS, subject, ClaimVerdict)),
                    report=report,
                    # In batch mode the calls were billed at the batch prices already.
                    batch_cost_usd=sum(u["cost_usd"] for u in by_step.values())
                    if batch
                    else batch_cost(by_step, report.models_used if report else {}, prices),
                    batch=batch,
                    unpriced_models=unpriced_models(by_step, report.models_used if report else {}, prices),
                    reported_cost_per_checked_claim=_number(
                        report_metadata_value(result, "cost_per_checked_claim_usd")
                    ),
                )
            )
    return outcomes, servers


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def step_table(by_step: dict[str, dict[str, float]], checked: int) -> str:
    """Calls, tokens and cost per step, and per checked claim."""
    lines = [f"   {'step':<20} {'calls':>6} {'input':>9} {'cached':>9} {'output':>8} {'cost $':>9} {'$/claim':>8}"]
    for step, usage in by_step.items():
        per_claim = f"{usage['cost_usd'] / checked:8.4f}" if checked else "       -"
        lines.append(
            f"   {step:<20} {int(usage['calls']):>6} {int(usage['input_tokens']):>9} {int(usage['cached_tokens']):>9} "
            f"{int(usage['output_tokens']):>8} {usage['cost_usd']:9.4f} {per_claim}"
        )
    return "\n".join(lines)


def figures(outcomes: Sequence[SubjectRehearsal], servers: RehearsalServers) -> dict[str, Any]:
    """The rehearsal's figures as JSON (for the benchmark and CI artefacts)."""
    cost = sum(o.cost_usd for o in outcomes)
    batch = sum(o.batch_cost_usd for o in outcomes)
    checked = sum(o.checked_claims for o in outcomes)
    return {
        "label": REHEARSAL_LABEL,
        "subjects": {
            o.subject_id: {
                "success": o.success,
                "run_id": o.run_id,
                "seconds": round(o.seconds, 1),
                "model_calls": o.model_calls,
                "checked_claims": o.checked_claims,
                "cost_usd": round(o.cost_usd, 4),
                "cost_per_checked_claim": round(o.cost_per_checked_claim, 4) if o.cost_per_checked_claim else None,
                "batch_cost_per_checked_claim": round(o.batch_cost_per_checked_claim, 4)
                if o.batch_cost_per_checked_claim
                else None,
                "by_step": o.by_step,
                "method_version": o.report.method_version if o.report else None,
            }
            for o in outcomes
        },
        "cost_usd": round(cost, 4),
        "checked_claims": checked,
        "cost_per_checked_claim": round(cost / checked, 4) if checked else None,
        "batch_cost_per_checked_claim": round(batch / checked, 4) if checked else None,
        "server_statuses": dict(sorted(servers.log.statuses.items())),
        "mistakes_made": dict(sorted(servers.log.mistakes.items())),
        "searches": servers.log.searches,
        "unpriced_models": sorted({m for o in outcomes for m in o.unpriced_models}),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The live rehearsal: demo subjects on the live provider classes")
    parser.add_argument("subjects", nargs="*", help="subject ids (default: every registry entry)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the scripted model's mistakes and the faults")
    parser.add_argument("--root", default="", help="where the rehearsal warehouse goes (default data/rehearsal)")
    parser.add_argument("--json", default="", help="also write the figures to this JSON file")
    parser.add_argument(
        "--batch",
        action="store_true",
        help="run the refresh job with its model calls on the vendors' batch APIs (scheduled work)",
    )
    parser.add_argument("--log", action="store_true", help="print Dagster's full event log of every run")
    args = parser.parse_args(argv)
    chosen = args.subjects or [e.id for e in load_registry(settings().registry_path)]
    root = Path(args.root) if args.root else settings().data_dir / "rehearsal"
    root.mkdir(parents=True, exist_ok=True)
    print(REHEARSAL_LABEL)
    if args.batch:
        print("batch mode: the refresh job, model calls through the Message Batches and Batch APIs")
        root = root / "batch"
        root.mkdir(parents=True, exist_ok=True)
    home = root / "dagster_home"
    outcomes, servers = rehearse(chosen, root, seed=args.seed, batch=args.batch, home=home, log=args.log)
    for outcome in outcomes:
        status = "ok" if outcome.success else "FAILED"
        print(
            f"{outcome.subject_id}: run {outcome.run_id[:8]} {status} in {outcome.seconds:.1f} s; "
            f"model calls {outcome.model_calls}\n   {outcome.progress}"
        )
    print(f"runs (ids above) on the Dagster instance {home}: open it with DAGSTER_HOME={home} reliability ui")
    print()
    for outcome in outcomes:
        if outcome.report is not None:
            print(summary(outcome.report, str(root / "warehouse")))
            print(f"   method version {outcome.report.method_version}")
        if outcome.by_step:
            print(step_table(outcome.by_step, outcome.checked_claims))
            per_claim = outcome.cost_per_checked_claim
            shown = f"${per_claim:.4f}" if per_claim is not None else "n/a (no claim checked)"
            if outcome.unpriced_models:
                print(f"   INCOMPLETE: no list price for {', '.join(outcome.unpriced_models)}; its calls count $0")
            print(f"   cost ${outcome.cost_usd:.4f} for {outcome.checked_claims} checked claims: {shown} per checked claim")
            batch_per_claim = outcome.batch_cost_per_checked_claim
            if batch_per_claim is not None and not outcome.batch:
                print(f"   at the vendors' batch prices (priced, not run on the batch APIs): ${batch_per_claim:.4f} per checked claim")
        print()
    result = figures(outcomes, servers)
    print(
        f"all subjects: ${result['cost_usd']:.4f} for {result['checked_claims']} checked claims = "
        f"${result['cost_per_checked_claim'] or 0:.4f} per checked claim "
        f"(batch prices: ${result['batch_cost_per_checked_claim'] or 0:.4f})"
    )
    print(f"server responses by status: {result['server_statuses']}")
    print(f"scripted model's mistakes: {result['mistakes_made']}")
    if servers.log.batches:
        print(f"batches: {dict(servers.log.batches)} carrying {dict(servers.log.batch_requests)} requests")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, sort_keys=True), encoding="utf-8")
    return 0 if all(o.success for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
