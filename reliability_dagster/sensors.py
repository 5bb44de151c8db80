"""Sensors: the registry's partitions, first reports, stale reports, claims falling due,
gold-set changes, steward re-scores. Only the registry sensor (partitions, no runs) runs by default; the
ones that request runs spend credit with API keys set, so they start stopped.

Each sensor asks a pure rule of ``reliability_core`` and turns the answer into
run requests with idempotent run keys, so a sensor that ticks twice asks for
one run."""

import hashlib
import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import dagster as dg

from reliability_core.ids import stable_id
from reliability_core.lifetimes import report_is_stale
from reliability_core.models import Claim, ClaimVerdict, RefreshRequest, Report
from reliability_core.scores.publication import latest_report
from reliability_core.scores.refresh import (
    awaited_official_figures,
    recheck_is_due,
    recheck_run_key,
    refresh_run_key,
)
from reliability_core.settings import settings
from reliability_core.stewardship.rescore import rescored_since
from reliability_core.subjects.registry import load_registry
from reliability_core.version import method_version
from reliability_core.warehouse import Ledger, tables
from reliability_core.warehouse.store import CorruptPartitionError
from reliability_dagster.jobs import BACKTEST_JOB, QUICK_REPORT_JOB, RECHECK_JOB, REFRESH_JOB
from reliability_dagster.metadata import scores_metadata
from reliability_dagster.partitions import (
    GOLD_SETS_PARTITIONS,
    SUBJECTS_PARTITIONS,
    gold_set_partitions,
    subjects_partitions,
)
from reliability_dagster.resources import ClockResource, WarehouseResource


def _ledger_id(run_key: str) -> str:
    return stable_id("refresh", run_key)


def _now(clock: ClockResource) -> datetime:
    return clock.clock().now().astimezone(UTC)


# Sensors that request runs spend model and search credit once API keys are set, so they
# start stopped; the description (shown on the sensor's page in the UI) says how to start one.
_HOW_TO_START = (
    " It requests runs, which spend model and search credit when API keys are set, so it starts "
    "stopped: turn it on in the UI (Automation, then the sensor, then the Running toggle) or with "
    "`reliability sensor start {name}`; sensors tick while the daemon runs (`reliability ui` starts it)."
)


def _spending(name: str, description: str) -> str:
    return description + _HOW_TO_START.format(name=name)


def _spending_sensor(
    job_name: str, interval_seconds: int, what: str
) -> Callable[[Callable[..., dg.SensorResult]], dg.SensorDefinition]:
    """A sensor that requests runs: stopped by default, its description says what it does
    and how to start it."""

    def decorate(fn: Callable[..., dg.SensorResult]) -> dg.SensorDefinition:
        return dg.sensor(
            name=fn.__name__,
            job_name=job_name,
            minimum_interval_seconds=interval_seconds,
            default_status=dg.DefaultSensorStatus.STOPPED,
            description=_spending(fn.__name__, what),
        )(fn)

    return decorate


def registry_partition_changes(registered: list[str], known: list[str]) -> tuple[list[str], list[str]]:
    """Partitions follow the registry: (ids to add, partitions to remove)."""
    registry = set(registered)
    return [s for s in registered if s not in set(known)], sorted(set(known) - registry)


@dg.sensor(
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Keeps the subject partitions equal to the registry data/subjects.yaml: adds a partition for "
    "every new entry and removes partitions whose subject left the registry (or was mistyped in the UI). "
    "Requests no run, so it costs nothing and runs by default.",
)
def subject_registry_sensor(context: dg.SensorEvaluationContext) -> dg.SensorResult:
    """New registry entries add partitions; partitions not in the registry are removed."""
    registry_path = settings().registry_path
    entries = load_registry(registry_path)
    known = context.instance.get_dynamic_partitions(SUBJECTS_PARTITIONS)
    added, removed = registry_partition_changes([e.id for e in entries], list(known))
    requests: list[dg.AddDynamicPartitionsRequest | dg.DeleteDynamicPartitionsRequest] = []
    if added:
        requests.append(subjects_partitions.build_add_request(added))
    if removed:
        requests.append(subjects_partitions.build_delete_request(removed))
    digest = hashlib.sha256(registry_path.read_bytes()).hexdigest()[:16]
    return dg.SensorResult(
        dynamic_partitions_requests=requests,
        cursor=json.dumps({"registry_sha256": digest, "subjects": len(entries)}),
    )


@_spending_sensor(QUICK_REPORT_JOB, 60, "Requests the first quick report of every registered subject that has none yet.")
def first_report_sensor(context: dg.SensorEvaluationContext, warehouse: WarehouseResource) -> dg.SensorResult:
    """A registered subject without a stored report gets its first run (run key ``first:<id>``)."""
    store = warehouse.warehouse()
    registered = {e.id for e in load_registry(settings().registry_path)}
    waiting = [
        s
        for s in context.instance.get_dynamic_partitions(SUBJECTS_PARTITIONS)
        if s in registered and not store.exists(tables.REPORTS, s)
    ]
    return dg.SensorResult(run_requests=[dg.RunRequest(partition_key=s, run_key=f"first:{s}") for s in waiting])


@_spending_sensor(REFRESH_JOB, 3600, "Requests a refresh of every report older than 90 days (served stale meanwhile).")
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
    fresh: list[Report] = []
    for subject in context.instance.get_dynamic_partitions(SUBJECTS_PARTITIONS):
        try:
            latest = latest_report(store.read(tables.REPORTS, subject, Report))
        except CorruptPartitionError as exc:
            # One bad file stays local (issue 26): the other subjects are checked, and this one is
            # refreshed, since the run that publishes it sets the file aside and writes a new one.
            context.log.warning(str(exc))
            requests.append(
                dg.RunRequest(
                    partition_key=subject,
                    run_key=f"corrupt:{subject}:{now.date().isoformat()}",
                    tags={"reliability/reason": "corrupt report partition", "reliability/requested_at": now.isoformat()},
                )
            )
            continue
        if latest is None:
            continue
        if not report_is_stale(latest.served_until, now):
            fresh.append(latest)
        else:
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
    if requests:
        return dg.SensorResult(run_requests=requests)
    return dg.SensorResult(skip_reason=staleness_skip_reason(fresh))


def staleness_skip_reason(fresh: list[Report]) -> str:
    """Why a tick of the staleness sensor requested nothing: how many reports it checked
    and which turns stale next, and when."""
    if not fresh:
        return "no reports stored yet (first_report_sensor requests the first ones)"
    nearest = min(fresh, key=lambda r: r.served_until)
    return (
        f"{len(fresh)} report{'s' if len(fresh) != 1 else ''} checked, none stale; next due: "
        f"{nearest.subject_id} on {nearest.served_until:%Y-%m-%d}"
    )


@_spending_sensor(RECHECK_JOB, 3600, "Re-checks a subject whose not-yet-due claims are falling due (daily, weekly, monthly).")
def due_date_sensor(
    context: dg.SensorEvaluationContext, warehouse: WarehouseResource, clock: ClockResource
) -> dg.SensorResult:
    """"Not yet due" claims are re-checked as their deadlines pass: daily in
    the final week before a deadline, weekly within two months, monthly before
    that (``reliability_core.scores.refresh.recheck_interval_days``)."""
    store = warehouse.warehouse()
    today = _now(clock).date()
    requests = []
    for subject in context.instance.get_dynamic_partitions(SUBJECTS_PARTITIONS):
        try:
            pending = [
                c.deadline for c in store.read(tables.CLAIMS, subject, Claim) if c.triage == "not_yet_due" and c.deadline
            ]
            # [#15] rule 12: a "not yet" verdict waits for its official figure on the same cadence.
            pending += awaited_official_figures(store.read(tables.VERDICTS, subject, ClaimVerdict))
            reports = store.read(tables.REPORTS, subject, Report) if pending else []
        except CorruptPartitionError as exc:
            context.log.warning(f"{exc}; the staleness sensor requests its refresh")  # one bad file stays local
            continue
        if not pending:
            continue
        last_checked = max((r.generated_at for r in reports), default=None)
        last_day = last_checked.date() if last_checked else None
        if any(recheck_is_due(due, last_day, today) for due in pending):
            requests.append(
                dg.RunRequest(
                    partition_key=subject,
                    run_key=recheck_run_key(subject, today),
                    tags={"reliability/reason": "claims falling due"},
                )
            )
    return dg.SensorResult(run_requests=requests)


@dg.sensor(
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Records a steward's re-score in the UI: when a ruling (CLI or API) re-scores a subject, an "
    "observation of subject_scores for that subject's partition carries the new figures, so the latest figures "
    "the UI shows are the ones the API serves. Requests no run, so it costs nothing and runs by default.",
)
def steward_rescore_sensor(context: dg.SensorEvaluationContext, warehouse: WarehouseResource) -> dg.SensorResult:
    """Each re-scored report not yet recorded (``rescore.rescored_since``) becomes an
    ``AssetObservation`` of ``subject_scores``; the cursor holds the publication sequence
    recorded per subject, so a report is recorded once. The CLI and the API do not talk to
    Dagster (the API reads the warehouse only), so the record is made here."""
    recorded: dict[str, int] = json.loads(context.cursor) if context.cursor else {}
    store = warehouse.warehouse()
    partitions = set(context.instance.get_dynamic_partitions(SUBJECTS_PARTITIONS))
    latest: dict[str, Report] = {}
    for subject in store.subjects(tables.REPORTS):
        if subject not in partitions:
            continue
        try:
            newest = latest_report(store.read(tables.REPORTS, subject, Report))
        except CorruptPartitionError as exc:
            context.log.warning(f"reports of {subject} unreadable, not checked for a re-score: {exc}")
            continue
        if newest is not None:
            latest[subject] = newest
    events = [
        dg.AssetObservation(
            asset_key="subject_scores",
            partition=report.subject_id,
            metadata={
                **scores_metadata(report),
                "rescored_at": report.rescored_at.isoformat() if report.rescored_at else "",
                "rescored_after_ruling": report.rescored_after_ruling or "",
                "report_sequence": report.sequence,
                "content_hash": report.content_hash,
            },
        )
        for report in rescored_since(latest, recorded)
    ]
    recorded.update({subject: report.sequence for subject, report in latest.items()})
    return dg.SensorResult(asset_events=events, cursor=json.dumps(recorded, sort_keys=True))


def gold_set_fingerprints(gold_dir: Path, averitec_file: Path) -> dict[str, str]:
    """SHA-256 prefix of every gold-set file, by set name (the AVeriTeC dev set
    is read from ../shared, never copied into the project)."""
    files = {path.stem: path for path in sorted(gold_dir.glob("*.jsonl"))}
    if averitec_file.exists():
        files["averitec-dev"] = averitec_file
    return {name: hashlib.sha256(path.read_bytes()).hexdigest()[:16] for name, path in files.items()}


@_spending_sensor(
    BACKTEST_JOB,
    300,
    "Adds a gold-set partition for every data/gold/*.jsonl file (new files included) and requests the "
    "backtest of a new or changed gold set, or of every set under a new method version.",
)
def gold_set_sensor(context: dg.SensorEvaluationContext) -> dg.SensorResult:
    """A new or changed gold-set file, or a new method version, requests the
    gold-set backtest ([R] "We test every version of the Ref"). Gold sets are whatever
    files are there: a new file becomes a partition in the same tick."""
    previous = json.loads(context.cursor) if context.cursor else {}
    fingerprints = gold_set_fingerprints(settings().gold_dir, settings().averitec)
    version = method_version()
    known = set(context.instance.get_dynamic_partitions(GOLD_SETS_PARTITIONS))
    new_sets = [name for name in fingerprints if name not in known]
    gone = sorted(known - set(fingerprints))
    partition_requests: list[dg.AddDynamicPartitionsRequest | dg.DeleteDynamicPartitionsRequest] = []
    if new_sets:
        partition_requests.append(gold_set_partitions.build_add_request(new_sets))
    if gone:
        partition_requests.append(gold_set_partitions.build_delete_request(gone))
    requests = []
    for name, digest in fingerprints.items():
        changed = previous.get("files", {}).get(name) != digest or previous.get("method_version") != version
        if changed:
            requests.append(
                dg.RunRequest(
                    partition_key=dg.MultiPartitionKey({"gold_set": name, "judges": "configured"}),
                    run_key=f"{name}:{digest}:{version}",
                )
            )
    return dg.SensorResult(
        run_requests=requests,
        dynamic_partitions_requests=partition_requests,
        cursor=json.dumps({"files": fingerprints, "method_version": version}),
    )

