"""``make demo``: register the demo subjects and materialise them end to end on
the embedded default (SQLite instance in DAGSTER_HOME, local warehouse, offline
providers over the demo corpus), then print each subject's summary."""

import argparse
import os
import sys
import time

import dagster as dg

from reliability_core.models import Report
from reliability_core.registry import load_registry
from reliability_core.report import latest_report
from reliability_core.warehouse import Warehouse, tables
from reliability_dagster.jobs import QUICK_REPORT_JOB
from reliability_dagster.resources import data_dir


def model_usage(result: dg.ExecuteInProcessResult) -> tuple[int, int]:
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


def summary(report: Report, warehouse_root: str) -> str:
    """The per-subject summary ``make demo`` (and ``make rehearse``) prints."""
    lines = [f"== {report.subject_name} ({report.subject_id})"]
    if not report.covered:
        lines.append("   not covered: " + "; ".join(report.coverage_reasons))
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
    if report.checkable_share is not None:
        lines.append(f"   checkable share {report.checkable_share:.0%}")
    lines.append(f"   full report: {warehouse_root}/{tables.REPORTS}/subject={report.subject_id}/ (and in the Dagster UI)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Materialise the demo subjects end to end")
    parser.add_argument("subjects", nargs="*", help="subject ids (default: every registry entry)")
    args = parser.parse_args(argv)
    entries = load_registry(data_dir() / "subjects.yaml")
    chosen = args.subjects or [e.id for e in entries]
    offline = not (os.environ.get("ANTHROPIC_API_KEY") or os.environ.get("OPENAI_API_KEY"))
    print(f"providers: {'offline-rules (deterministic offline model over data/corpus)' if offline else 'live'}")
    from reliability_dagster.definitions import defs

    with dg.DagsterInstance.get() as instance:
        instance.add_dynamic_partitions("subjects", [s for s in chosen if not instance.has_dynamic_partition("subjects", s)])
        job = defs.resolve_job_def(QUICK_REPORT_JOB)
        failures = 0
        for subject in chosen:
            started = time.perf_counter()
            result = job.execute_in_process(instance=instance, partition_key=subject, raise_on_error=False)
            status = "ok" if result.success else "FAILED"
            failures += not result.success
            calls, hits = model_usage(result)
            print(
                f"{subject}: run {result.run_id[:8]} {status} in {time.perf_counter() - started:.1f} s; "
                f"model calls {calls}, cache hits {hits}"
            )
    warehouse_root = os.environ.get("RELIABILITY_WAREHOUSE", str(data_dir() / "warehouse"))
    store = Warehouse(warehouse_root)
    print()
    for subject in chosen:
        report = latest_report(store.read(tables.REPORTS, subject, Report))
        if report is not None:
            print(summary(report, warehouse_root))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
