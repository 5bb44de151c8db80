"""``make demo``: register the demo subjects and materialise them end to end on
the embedded default (SQLite instance in DAGSTER_HOME, local warehouse, offline
providers over the demo corpus), then print each subject's summary."""

import argparse
import os
import sys
import time

import dagster as dg
from dagster._core.execution.execution_result import ExecutionResult

from reliability_core.models import Report
from reliability_core.models.verdicts import ClaimVerdict, EvidenceItem
from reliability_core.scores.publication import latest_report
from reliability_core.settings import settings
from reliability_core.subjects.registry import load_registry
from reliability_core.verdicts.steering_screen.display_losses import (
    SteeringDisplayLosses,
    evidence_pages,
    planted_steering_urls,
    steering_display_losses,
)
from reliability_core.warehouse import Warehouse, tables
from reliability_dagster.assets import RUN_COST_TAG
from reliability_dagster.dead_runs import fail_dead_runs, process_tags
from reliability_dagster.jobs import QUICK_REPORT_JOB
from reliability_dagster.launch import run_job_partition, workspace_job_origin


def model_usage(result: ExecutionResult) -> tuple[int, int]:
    """(model calls made, cache hits) over every asset of a run, from the
    provider metadata each asset attaches (``<provider>.calls``, ``cache.hits``)."""
    calls = hits = 0
    for event in result.get_asset_materialization_events():
        materialization = event.step_materialization_data.materialization
        for key, value in materialization.metadata.items():
            number = getattr(value, "value", None)
            if not isinstance(number, int | float):
                continue
            if key == "cache.hits":
                hits += int(number)
            elif key.endswith(".calls"):
                calls += int(number)
    return calls, hits


def page_usage(result: ExecutionResult) -> tuple[int, int]:
    """(evidence pages fetched, evidence page asks answered by a snapshot already read) of a
    run, from the evidence asset's ``pages_fetched`` / ``pages_reused`` metadata."""
    fetched = reused = 0
    for event in result.get_asset_materialization_events():
        metadata = event.step_materialization_data.materialization.metadata
        fetched += int(getattr(metadata.get("pages_fetched"), "value", 0) or 0)
        reused += int(getattr(metadata.get("pages_reused"), "value", 0) or 0)
    return fetched, reused


def summary(report: Report, warehouse_root: str) -> str:
    """The per-subject summary ``make demo`` (and ``make rehearse``) prints."""
    lines = [f"== {report.subject_name} ({report.subject_id})"]
    if not report.covered:
        outcome = "no coverage decision" if report.needs_live_providers else "not covered"
        lines.append(f"   {outcome}: " + "; ".join(report.coverage_reasons))
        return "\n".join(lines)
    for score in report.type_scores:
        if score.score is None:
            lines.append(f"   {score.claim_type:<10} insufficient record (n={score.n})")
        else:
            lines.append(
                f"   {score.claim_type:<10} {score.score:5.1f}  80% [{score.interval_low:.1f}, {score.interval_high:.1f}]"
                f"  n={score.n}  confidence {score.confidence}"
            )
    overall = report.overall
    if overall is not None and overall.score is not None:
        lines.append(
            f"   {'overall':<10} {overall.score:5.1f}  80% [{overall.interval_low:.1f}, {overall.interval_high:.1f}]"
            f"  n={overall.n}  confidence {overall.confidence}"
        )
    c = report.counts
    lines.append(
        f"   claims: {c.extracted} extracted, {c.sampled} sampled, {c.resolved} resolved, {c.unresolvable} unresolvable, "
        f"{c.not_yet_due} not yet due, {c.judges_disagree} judges disagree, {c.held_by_gate} held"
    )
    if c.model_failures or c.documents_failed or c.documents_cut:
        # A model failure stays with its claim or document; shown here so it is never silent.
        lines.append(
            f"   model failures: {c.model_failures} claims unresolvable, {c.documents_failed} documents not "
            f"extracted, {c.documents_cut} documents cut to the extraction limit"
        )
    if report.checkable_share is not None:
        lines.append(f"   checkable share {report.checkable_share:.0%}")
    lines.append("   " + steering_losses(report.subject_id, warehouse_root).line())
    lines.append(f"   full report: {warehouse_root}/{tables.REPORTS}/subject={report.subject_id}/ (and in the Dagster UI)")
    return "\n".join(lines)


def steering_losses(subject_id: str, warehouse_root: str) -> SteeringDisplayLosses:
    """[issue 28] The claims of a subject whose display a steering detection blocked, and how
    many of those fell on text that is not one of the corpus's known planted attacks."""
    store = Warehouse(warehouse_root)
    return steering_display_losses(
        store.read(tables.VERDICTS, subject_id, ClaimVerdict),
        evidence_pages(store.read(tables.EVIDENCE, subject_id, EvidenceItem)),
        planted_steering_urls(settings().corpus_dir / "answer_key.yaml"),
    )


# The one number each stage's progress shows (its metadata key), in method order.
_STAGE_HEADLINES = {
    "subject_coverage": ("coverage", "covered"),
    "candidate_documents": ("candidates", "candidates"),
    "document_ranking": ("ranked", "ranked"),
    "statements": ("statements", "statements"),
    "page_snapshots": ("pages", "pages"),
    "claims": ("claims", "claims"),
    "claim_sample": ("sampled", "sampled"),
    "resolution_criteria": ("criteria", "criteria"),
    "evidence": ("evidence", "evidence_items"),
    "verdicts": ("verdicts", "verdicts"),
    "subject_scores": ("scored", "covered"),
    "subject_report": ("reports kept", "reports_kept"),
    "subject_steward_queue": ("steward queue", "queued"),
}
# Dagster's console log of a run (400-600 DEBUG lines for the demo) shows only errors
# unless --log asks for the full event log.
_QUIET = {"loggers": {"console": {"config": {"log_level": "ERROR"}}}}


def stage_progress(result: ExecutionResult) -> str:
    """One line of a subject's run: each stage with its headline count, then the checks."""
    parts = []
    for event in result.get_asset_materialization_events():
        materialization = event.step_materialization_data.materialization
        asset = materialization.asset_key.to_user_string()
        label, key = _STAGE_HEADLINES.get(asset, (asset, ""))
        value = materialization.metadata.get(key)
        shown = getattr(value, "value", None)
        if getattr(materialization.metadata.get("needs_live_providers"), "value", False):
            # Not a refusal: the stand-in made no coverage decision (issue 27).
            parts.append(f"{label} undecided (needs live providers)")
        elif isinstance(shown, bool) or shown is None:
            parts.append(label if shown in (True, None) else f"{label} no")
        else:
            parts.append(f"{label} {shown}")
    checks = [
        e.asset_check_evaluation_data
        for e in result.all_events
        if e.event_type == dg.DagsterEventType.ASSET_CHECK_EVALUATION and e.asset_check_evaluation_data
    ]
    failed = [c.check_name for c in checks if not c.passed]
    failed_steps = [e.step_key for e in result.all_events if e.event_type == dg.DagsterEventType.STEP_FAILURE]
    tail = f"checks {len(checks) - len(failed)}/{len(checks)} passed" + (f", FAILED: {', '.join(failed)}" if failed else "")
    if failed_steps:
        tail += f"; failed steps: {', '.join(str(s) for s in failed_steps)}"
    return " > ".join(parts) + f" | {tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Materialise the demo subjects end to end")
    parser.add_argument("subjects", nargs="*", help="subject ids (default: every registry entry)")
    parser.add_argument("--log", action="store_true", help="print Dagster's full event log of every run")
    args = parser.parse_args(argv)
    entries = load_registry(settings().registry_path)
    chosen = args.subjects or [e.id for e in entries]
    offline = not (os.environ.get("ANTHROPIC_API_KEY") or os.environ.get("OPENAI_API_KEY"))
    print(f"providers: {'offline-rules (deterministic offline model over data/corpus)' if offline else 'live'}")
    from reliability_dagster.definitions import defs

    with dg.DagsterInstance.get() as instance:
        # A demo killed earlier left its runs STARTED and holding pool slots: fail and free them first.
        dead = fail_dead_runs(instance)
        if dead:
            print(f"marked {len(dead)} run(s) of a killed earlier demo failed and freed their pool slots")
        instance.add_dynamic_partitions("subjects", [s for s in chosen if not instance.has_dynamic_partition("subjects", s)])
        job = defs.resolve_job_def(QUICK_REPORT_JOB)
        # Each subject is a run of the workspace's quick_report job (its Runs tab, the Overview).
        origin = workspace_job_origin(QUICK_REPORT_JOB)
        failures = 0
        for subject in chosen:
            started = time.perf_counter()
            result = run_job_partition(
                instance,
                job,
                subject,
                origin=origin,
                run_config=None if args.log else _QUIET,
                tags=process_tags(),  # so a run whose process dies is failed (reliability_dagster.dead_runs)
            )
            status = "ok" if result.success else "FAILED"
            failures += not result.success
            calls, hits = model_usage(result)
            fetched, reused = page_usage(result)
            run = instance.get_run_by_id(result.run_id)
            cost = run.tags.get(RUN_COST_TAG, "?") if run is not None else "?"  # set when the report is published
            print(
                f"{subject}: run {result.run_id[:8]} {status} in {time.perf_counter() - started:.1f} s; "
                f"model calls {calls} (USD {cost}), cache hits {hits}; evidence pages fetched {fetched}, reused {reused}"
                f"\n   {stage_progress(result)}"
            )
    warehouse_root = settings().warehouse
    store = Warehouse(warehouse_root)
    print()
    for subject in chosen:
        report = latest_report(store.read(tables.REPORTS, subject, Report))
        if report is not None:
            print(summary(report, warehouse_root))
    print("\nevent logs and report pages: `reliability ui` (run ids above); full Dagster event log: reliability demo --log")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
