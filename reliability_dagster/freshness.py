"""Which subjects' reports are stale, in the UI (issue 27): a per-partition check on the
report asset, evaluated as time passes.

[M] step 9: a report is served for 90 days, "after that it is served marked stale while a
refresh runs" (``reliability_core.lifetimes.report_is_stale``). Dagster's freshness
policies are evaluated per asset, not per partition (a recent partition would make every
subject look fresh), so freshness is the partitioned check ``report_is_fresh`` on
``subject_report``: one result per subject, read from the newest report's served-until
date. Staleness comes from the clock, not from a run, so the free, running-by-default
``report_freshness_sensor`` reports the check's result for a subject whenever it changes
(a report turning stale, a refresh making it fresh) without launching anything. A failed
result has WARN severity: a stale report is served (marked stale), nothing is broken.
The check can also be executed from the UI for chosen subjects."""

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import dagster as dg

from reliability_core.lifetimes import report_is_stale
from reliability_core.models import Report
from reliability_core.scores.publication import latest_report
from reliability_core.warehouse import Warehouse, tables
from reliability_core.warehouse.store import CorruptPartitionError
from reliability_dagster.partitions import SUBJECTS_PARTITIONS, subjects_partitions
from reliability_dagster.resources import ClockResource, WarehouseResource

REPORT_ASSET = "subject_report"
REPORT_FRESH = "report_is_fresh"
REPORT_FRESH_KEY = dg.AssetCheckKey(dg.AssetKey(REPORT_ASSET), REPORT_FRESH)
_SECONDS_PER_DAY = 86_400.0


@dataclass(frozen=True)
class ReportFreshness:
    """One subject's newest report against the clock. ``served_until`` is None when no
    report is stored; ``unreadable`` names a corrupt stored file instead."""

    subject_id: str
    served_until: datetime | None
    generated_at: datetime | None
    stale: bool
    unreadable: str | None = None

    def days_left(self, now: datetime) -> float | None:
        """Days until the report turns stale (negative: days since it did)."""
        if self.served_until is None:
            return None
        return round((self.served_until - now).total_seconds() / _SECONDS_PER_DAY, 1)


def report_freshness(store: Warehouse, subject_id: str, now: datetime) -> ReportFreshness:
    """The subject's newest report (the one the API serves) judged by ``report_is_stale``."""
    try:
        report = latest_report(store.read(tables.REPORTS, subject_id, Report))
    except CorruptPartitionError as exc:
        return ReportFreshness(subject_id, None, None, stale=False, unreadable=str(exc))
    if report is None:
        return ReportFreshness(subject_id, None, None, stale=False)
    return ReportFreshness(
        subject_id, report.served_until, report.generated_at, stale=report_is_stale(report.served_until, now)
    )


def _outcome(freshness: ReportFreshness, now: datetime) -> tuple[bool, str, dict[str, Any]]:
    """(passed, description, metadata) of the check for one subject. The metadata keep one
    type per key for every subject (``days_left`` is always a float), so the UI can plot it."""
    days = freshness.days_left(now)
    metadata: dict[str, Any] = {
        "served_until": dg.MetadataValue.text(
            freshness.served_until.isoformat() if freshness.served_until else ""
        ),
        "generated_at": dg.MetadataValue.text(
            freshness.generated_at.isoformat() if freshness.generated_at else ""
        ),
        "checked_at": dg.MetadataValue.text(now.isoformat()),
    }
    if freshness.unreadable:
        return False, f"the stored report is unreadable: {freshness.unreadable}", metadata
    if days is None:
        return False, "no report stored yet", metadata
    metadata["days_left"] = dg.MetadataValue.float(days)
    if freshness.stale:
        return (
            False,
            f"stale since {freshness.served_until:%Y-%m-%d}: served marked stale until refreshed",
            metadata,
        )
    return True, f"fresh until {freshness.served_until:%Y-%m-%d} ({days:.0f} days left)", metadata


def freshness_evaluation(freshness: ReportFreshness, now: datetime) -> dg.AssetCheckEvaluation:
    """The check's result for one subject, as a sensor reports it (no run)."""
    passed, description, metadata = _outcome(freshness, now)
    return dg.AssetCheckEvaluation(
        asset_key=REPORT_FRESH_KEY.asset_key,
        check_name=REPORT_FRESH,
        passed=passed,
        metadata=metadata,
        severity=dg.AssetCheckSeverity.WARN,
        description=description,
        partition=freshness.subject_id,
    )


@dg.asset_check(
    asset=REPORT_ASSET,
    name=REPORT_FRESH,
    blocking=False,
    partitions_def=subjects_partitions,
    description="The subject's newest report is within its 90 days ([M] step 9); a stale report is served marked "
    "stale until a refresh. Reported per subject by report_freshness_sensor as the clock passes served_until.",
)
def report_is_fresh(
    context: dg.AssetCheckExecutionContext, warehouse: WarehouseResource, clock: ClockResource
) -> dg.AssetCheckResult:
    now = clock.clock().now().astimezone(UTC)
    passed, description, metadata = _outcome(
        report_freshness(warehouse.warehouse(), context.partition_key, now), now
    )
    return dg.AssetCheckResult(
        passed=passed, metadata=metadata, description=description, severity=dg.AssetCheckSeverity.WARN
    )


def _state(freshness: ReportFreshness) -> str:
    """What the sensor compares between ticks: a result is reported when this changes."""
    if freshness.unreadable:
        return "unreadable"
    served = freshness.served_until.isoformat() if freshness.served_until else ""
    return f"{served}:{'stale' if freshness.stale else 'fresh'}"


@dg.sensor(
    minimum_interval_seconds=600,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Reports the report_is_fresh check of subject_report for every subject whose newest report turned "
    "stale, was refreshed or first appeared, so the check's partitions show which subjects are stale. Launches "
    "no run, so it costs nothing and runs by default.",
)
def report_freshness_sensor(
    context: dg.SensorEvaluationContext, warehouse: WarehouseResource, clock: ClockResource
) -> dg.SensorResult:
    """One check result per subject whose freshness changed since the last tick (the
    cursor keeps each subject's served-until date and state)."""
    store = warehouse.warehouse()
    now = clock.clock().now().astimezone(UTC)
    known: dict[str, str] = json.loads(context.cursor) if context.cursor else {}
    states: dict[str, str] = {}
    evaluations = []
    for subject in context.instance.get_dynamic_partitions(SUBJECTS_PARTITIONS):
        freshness = report_freshness(store, subject, now)
        if freshness.served_until is None and not freshness.unreadable:
            continue  # nothing to judge until a first report (first_report_sensor asks for it)
        states[subject] = _state(freshness)
        if known.get(subject) != states[subject]:
            evaluations.append(freshness_evaluation(freshness, now))
    stale = sum(s.endswith(":stale") for s in states.values())
    return dg.SensorResult(
        asset_events=evaluations,
        cursor=json.dumps(states, sort_keys=True),
        skip_reason=None
        if evaluations
        else f"{len(states)} reports checked, {stale} stale, none changed since the last tick",
    )
