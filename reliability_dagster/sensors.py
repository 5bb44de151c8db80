"""Sensors: new subjects, stale reports, claims falling due, gold-set changes.

Each sensor asks a pure rule of ``reliability_core`` and turns the answer into
run requests with idempotent run keys, so a sensor that ticks twice asks for
one run."""

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

import dagster as dg

from reliability_core.ids import stable_id
from reliability_core.models import Claim, RefreshRequest, Report
from reliability_core.refresh import (
    recheck_is_due,
    recheck_run_key,
    refresh_run_key,
    report_is_stale,
)
from reliability_core.registry import load_registry
from reliability_core.report import latest_report
from reliability_core.version import method_version
from reliability_core.warehouse import Ledger, tables
from reliability_dagster.jobs import BACKTEST_JOB, QUICK_REPORT_JOB, RECHECK_JOB, REFRESH_JOB
from reliability_dagster.partitions import GOLD_SETS, subjects_partitions
from reliability_dagster.resources import ClockResource, WarehouseResource, averitec_path, data_dir


def _ledger_id(run_key: str) -> str:
    return stable_id("refresh", run_key)


def _now(clock: ClockResource) -> datetime:
    return clock.clock().now().astimezone(UTC)


@dg.sensor(job_name=QUICK_REPORT_JOB, minimum_interval_seconds=60, default_status=dg.DefaultSensorStatus.RUNNING)
def subject_registry_sensor(context: dg.SensorEvaluationContext) -> dg.SensorResult:
    """New entries in the subject registry add partitions and request their
    first run in the same tick."""
    registry_path = data_dir() / "subjects.yaml"
    entries = load_registry(registry_path)
    known = set(context.instance.get_dynamic_partitions(subjects_partitions.name or "subjects"))
    new_ids = [e.id for e in entries if e.id not in known]
    digest = hashlib.sha256(registry_path.read_bytes()).hexdigest()[:16]
    return dg.SensorResult(
        run_requests=[dg.RunRequest(partition_key=s, run_key=f"first:{s}") for s in new_ids],
        dynamic_partitions_requests=[subjects_partitions.build_add_request(new_ids)] if new_ids else [],
        cursor=json.dumps({"registry_sha256": digest, "subjects": len(entries)}),
    )


@dg.sensor(job_name=REFRESH_JOB, minimum_interval_seconds=3600, default_status=dg.DefaultSensorStatus.RUNNING)
def staleness_sensor(
    context: dg.SensorEvaluationContext, warehouse: WarehouseResource, clock: ClockResource
) -> dg.SensorResult:
    """[M] step 9: a report older than 90 days is served marked stale while a
    refresh runs. One refresh per period (run key ``subject:cutoff-date``); the
    refresh reuses candidate lists younger than 90 days."""
    store = warehouse.warehouse()
    ledger = Ledger(store)
    now = _now(clock)
    requests = []
    for subject in context.instance.get_dynamic_partitions("subjects"):
        latest = latest_report(store.read(tables.REPORTS, subject, Report))
        if latest is None:
            continue
        if report_is_stale(latest.served_until, now):
            run_key = refresh_run_key(subject, latest.served_until)
            requests.append(
                dg.RunRequest(
                    partition_key=subject,
                    run_key=run_key,
                    tags={"reliability/reason": "stale", "reliability/requested_at": now.isoformat()},
                )
            )
            # Recorded once per period, so the API serves the report as "stale,
            # refresh requested on <date>" rather than silently.
            if ledger.get(tables.REFRESH_REQUESTS_LEDGER, subject, _ledger_id(run_key), RefreshRequest) is None:
                ledger.append(
                    tables.REFRESH_REQUESTS_LEDGER,
                    subject,
                    [(_ledger_id(run_key), RefreshRequest(subject_id=subject, run_key=run_key, requested_at=now))],
                )
    return dg.SensorResult(run_requests=requests)


@dg.sensor(job_name=RECHECK_JOB, minimum_interval_seconds=3600, default_status=dg.DefaultSensorStatus.RUNNING)
def due_date_sensor(
    context: dg.SensorEvaluationContext, warehouse: WarehouseResource, clock: ClockResource
) -> dg.SensorResult:
    """"Not yet due" claims are re-checked as their deadlines pass: daily in
    the final week before a deadline, weekly within two months, monthly before
    that (``reliability_core.refresh.recheck_interval_days``)."""
    store = warehouse.warehouse()
    today = _now(clock).date()
    requests = []
    for subject in context.instance.get_dynamic_partitions("subjects"):
        pending = [c for c in store.read(tables.CLAIMS, subject, Claim) if c.triage == "not_yet_due" and c.deadline]
        if not pending:
            continue
        reports = store.read(tables.REPORTS, subject, Report)
        last_checked = max((r.generated_at for r in reports), default=None)
        last_day = last_checked.date() if last_checked else None
        if any(recheck_is_due(c.deadline, last_day, today) for c in pending if c.deadline):
            requests.append(
                dg.RunRequest(
                    partition_key=subject,
                    run_key=recheck_run_key(subject, today),
                    tags={"reliability/reason": "claims falling due"},
                )
            )
    return dg.SensorResult(run_requests=requests)


def gold_set_fingerprints(gold_dir: Path, averitec_file: Path) -> dict[str, str]:
    """SHA-256 prefix of every gold-set file, by set name (the AVeriTeC dev set
    is read from ../shared, never copied into the project)."""
    files = {path.stem: path for path in sorted(gold_dir.glob("*.jsonl"))}
    if averitec_file.exists():
        files["averitec-dev"] = averitec_file
    return {name: hashlib.sha256(path.read_bytes()).hexdigest()[:16] for name, path in files.items()}


@dg.sensor(job_name=BACKTEST_JOB, minimum_interval_seconds=300, default_status=dg.DefaultSensorStatus.RUNNING)
def gold_set_sensor(context: dg.SensorEvaluationContext) -> dg.SensorResult:
    """A new or changed gold-set file, or a new method version, requests the
    gold-set backtest ([R] "We test every version of the Ref")."""
    previous = json.loads(context.cursor) if context.cursor else {}
    fingerprints = gold_set_fingerprints(data_dir() / "gold", averitec_path())
    version = method_version()
    requests = []
    for name, digest in fingerprints.items():
        if name not in GOLD_SETS:
            continue
        changed = previous.get("files", {}).get(name) != digest or previous.get("method_version") != version
        if changed:
            requests.append(
                dg.RunRequest(
                    partition_key=dg.MultiPartitionKey({"gold_set": name, "judges": "configured"}),
                    run_key=f"{name}:{digest}:{version}",
                )
            )
    return dg.SensorResult(
        run_requests=requests, cursor=json.dumps({"files": fingerprints, "method_version": version})
    )

