"""[#27] Which subjects are stale shows in the UI: the partitioned ``report_is_fresh``
check on ``subject_report``, reported per subject by a free sensor as the clock passes
each report's served-until date, and the staleness sensor's skip says why."""

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import dagster as dg
import pytest

from reliability_core.models import Report
from reliability_core.warehouse import Warehouse, tables
from reliability_dagster.definitions import build_definitions
from reliability_dagster.freshness import REPORT_FRESH_KEY, report_freshness_sensor
from reliability_dagster.jobs import QUICK_REPORT_JOB
from reliability_dagster.resources import ClockResource, WarehouseResource
from reliability_dagster.sensors import staleness_sensor
from tests.orchestration.conftest import make_resources

GENERATED = datetime(2026, 1, 10, 9, tzinfo=UTC)  # served until 2026-04-10


def _report(subject: str, generated: datetime = GENERATED) -> Report:
    return Report(
        id=f"rpt_{subject}_{generated:%Y%m%d}",
        subject_id=subject,
        subject_name=subject,
        covered=True,
        coverage_reasons=[],
        generated_at=generated,
        served_until=generated + timedelta(days=90),
        method_version="0.1.0+test",
    )


def _resources(tmp_path: Path, now: datetime) -> dict[str, object]:
    return {
        "warehouse": WarehouseResource(root=str(tmp_path / "warehouse")),
        "clock": ClockResource(fixed_now=now.isoformat()),
    }


@pytest.fixture
def store(tmp_path: Path) -> Warehouse:
    warehouse = Warehouse(str(tmp_path / "warehouse"))
    warehouse.write(tables.REPORTS, "acme", [_report("acme")])
    warehouse.write(tables.REPORTS, "globex", [_report("globex", GENERATED + timedelta(days=30))])
    return warehouse


def _tick(instance: dg.DagsterInstance, tmp_path: Path, now: datetime, cursor: str | None) -> dg.SensorResult:
    context = dg.build_sensor_context(instance=instance, resources=_resources(tmp_path, now), cursor=cursor)
    return report_freshness_sensor(context)


def test_each_subjects_freshness_is_a_check_result_on_its_partition(store: Warehouse, tmp_path: Path) -> None:
    now = GENERATED + timedelta(days=95)  # acme stale since 04-10, globex fresh until 05-10
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("subjects", ["acme", "globex", "no-report-yet"])
        first = _tick(instance, tmp_path, now, None)
        results = {e.partition: e for e in first.asset_events if isinstance(e, dg.AssetCheckEvaluation)}
        assert set(results) == {"acme", "globex"}  # nothing to judge before a first report
        assert all(e.asset_check_key == REPORT_FRESH_KEY for e in results.values())
        assert not results["acme"].passed and results["acme"].severity == dg.AssetCheckSeverity.WARN
        assert "stale since 2026-04-10" in (results["acme"].description or "")
        assert results["globex"].passed and "fresh until 2026-05-10" in (results["globex"].description or "")
        days_left = {p: e.metadata["days_left"] for p, e in results.items()}
        assert all(isinstance(v, dg.FloatMetadataValue) for v in days_left.values())  # one type: plottable
        assert days_left["acme"].value == -5.0 and days_left["globex"].value == 25.0

        # What the daemon does with a sensor's check results: stored per partition.
        for evaluation in results.values():
            instance.report_runless_asset_event(evaluation)
        stored = instance.event_log_storage.get_asset_check_partition_info([REPORT_FRESH_KEY])
        assert {(i.partition_key, i.latest_execution_status.value) for i in stored} == {
            ("acme", "FAILED"),
            ("globex", "SUCCEEDED"),
        }


def test_a_result_is_reported_only_when_a_subjects_freshness_changes(
    store: Warehouse, tmp_path: Path
) -> None:
    now = GENERATED + timedelta(days=95)
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("subjects", ["acme", "globex"])
        first = _tick(instance, tmp_path, now, None)
        again = _tick(instance, tmp_path, now + timedelta(hours=1), first.cursor)
        assert not again.asset_events
        assert again.skip_reason is not None
        assert (
            again.skip_reason.skip_message == "2 reports checked, 1 stale, none changed since the last tick"
        )
        # globex turns stale: only its result is reported.
        later = _tick(instance, tmp_path, GENERATED + timedelta(days=121), again.cursor)
        assert [
            (e.partition, e.passed) for e in later.asset_events if isinstance(e, dg.AssetCheckEvaluation)
        ] == [("globex", False)]
        # acme refreshed: fresh again.
        store.write(
            tables.REPORTS, "acme", [_report("acme"), _report("acme", GENERATED + timedelta(days=120))]
        )
        refreshed = _tick(instance, tmp_path, GENERATED + timedelta(days=121), later.cursor)
        assert [
            (e.partition, e.passed) for e in refreshed.asset_events if isinstance(e, dg.AssetCheckEvaluation)
        ] == [("acme", True)]
        assert json.loads(refreshed.cursor or "{}")["acme"].endswith(":fresh")


def test_the_check_runs_for_a_chosen_subject_and_not_in_the_report_runs(
    store: Warehouse, tmp_path: Path
) -> None:
    resources = {**make_resources(tmp_path), **_resources(tmp_path, GENERATED + timedelta(days=95))}
    base = build_definitions(resources, automation=False)
    definitions = dg.Definitions.merge(
        base,
        dg.Definitions(
            jobs=[dg.define_asset_job("freshness", selection=dg.AssetSelection.checks(REPORT_FRESH_KEY))]
        ),
    )
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("subjects", ["acme"])
        # A check-only run of one subject: the partition as the UI's launch sets it, by tag.
        result = definitions.resolve_job_def("freshness").execute_in_process(
            instance=instance, tags={"dagster/partition": "acme"}, raise_on_error=False
        )
    evaluations = [
        e.asset_check_evaluation_data
        for e in result.all_events
        if e.event_type == dg.DagsterEventType.ASSET_CHECK_EVALUATION
    ]
    assert [(e.check_name, e.partition, e.passed) for e in evaluations] == [
        (REPORT_FRESH_KEY.name, "acme", False)
    ]
    # The report runs build the report; its freshness is judged as time passes.
    report_job = base.resolve_job_def(QUICK_REPORT_JOB)
    assert REPORT_FRESH_KEY not in report_job.asset_layer.asset_graph.asset_check_keys
    assert len(report_job.asset_layer.asset_graph.asset_check_keys) == 7


def test_the_staleness_sensors_skip_says_how_many_reports_and_which_is_due_next(
    store: Warehouse, tmp_path: Path
) -> None:
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("subjects", ["acme", "globex"])
        context = dg.build_sensor_context(
            instance=instance, resources=_resources(tmp_path, GENERATED + timedelta(days=10))
        )
        result = staleness_sensor(context)
        assert not result.run_requests
        assert result.skip_reason is not None
        assert (
            result.skip_reason.skip_message == "2 reports checked, none stale; next due: acme on 2026-04-10"
        )
        nothing = dg.build_sensor_context(
            instance=instance, resources=_resources(tmp_path / "empty", GENERATED)
        )
        empty = staleness_sensor(nothing)
        assert empty.skip_reason is not None and "no reports stored yet" in empty.skip_reason.skip_message
