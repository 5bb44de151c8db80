"""[#27] Which subjects are stale shows in the UI: the partitioned ``report_is_fresh``
check on ``subject_report``, reported per subject by a free sensor as the clock passes
each report's served-until date, and the staleness sensor's skip says why."""

import json
from datetime import datetime, timedelta

import dagster as dg
import pytest

from reliability_core.warehouse import Warehouse, tables
from reliability_dagster.definitions import build_definitions
from reliability_dagster.freshness import REPORT_FRESH_KEY, report_freshness_sensor
from reliability_dagster.jobs import QUICK_REPORT_JOB
from reliability_dagster.sensors import staleness_sensor
from tests.orchestration.conftest import REPORT_GENERATED, SensorWorld, make_resources, stored_report

GENERATED = REPORT_GENERATED  # served until 2026-04-10


@pytest.fixture
def store(sensor_world: SensorWorld) -> Warehouse:
    warehouse = sensor_world.warehouse
    warehouse.write(tables.REPORTS, "acme", [stored_report("acme")])
    warehouse.write(tables.REPORTS, "globex", [stored_report("globex", GENERATED + timedelta(days=30))])
    return warehouse


def _tick(world: SensorWorld, now: datetime, cursor: str | None) -> dg.SensorResult:
    return report_freshness_sensor(world.context(now, cursor))


def test_each_subjects_freshness_is_a_check_result_on_its_partition(
    store: Warehouse, sensor_world: SensorWorld
) -> None:
    now = GENERATED + timedelta(days=95)  # acme stale since 04-10, globex fresh until 05-10
    instance = sensor_world.instance
    instance.add_dynamic_partitions("subjects", ["acme", "globex", "no-report-yet"])
    first = _tick(sensor_world, now, None)
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
    store: Warehouse, sensor_world: SensorWorld
) -> None:
    now = GENERATED + timedelta(days=95)
    sensor_world.instance.add_dynamic_partitions("subjects", ["acme", "globex"])
    first = _tick(sensor_world, now, None)
    again = _tick(sensor_world, now + timedelta(hours=1), first.cursor)
    assert not again.asset_events
    assert again.skip_reason is not None
    assert again.skip_reason.skip_message == "2 reports checked, 1 stale, none changed since the last tick"
    # globex turns stale: only its result is reported.
    later = _tick(sensor_world, GENERATED + timedelta(days=121), again.cursor)
    assert [
        (e.partition, e.passed) for e in later.asset_events if isinstance(e, dg.AssetCheckEvaluation)
    ] == [("globex", False)]
    # acme refreshed: fresh again.
    store.write(
        tables.REPORTS,
        "acme",
        [stored_report("acme"), stored_report("acme", GENERATED + timedelta(days=120))],
    )
    refreshed = _tick(sensor_world, GENERATED + timedelta(days=121), later.cursor)
    assert [
        (e.partition, e.passed) for e in refreshed.asset_events if isinstance(e, dg.AssetCheckEvaluation)
    ] == [("acme", True)]
    assert json.loads(refreshed.cursor or "{}")["acme"].endswith(":fresh")


def test_the_check_runs_for_a_chosen_subject_and_not_in_the_report_runs(
    store: Warehouse, sensor_world: SensorWorld
) -> None:
    resources = {
        **make_resources(sensor_world.root),
        **sensor_world.resources(GENERATED + timedelta(days=95)),
    }
    base = build_definitions(resources, automation=False)
    definitions = dg.Definitions.merge(
        base,
        dg.Definitions(
            jobs=[dg.define_asset_job("freshness", selection=dg.AssetSelection.checks(REPORT_FRESH_KEY))]
        ),
    )
    sensor_world.instance.add_dynamic_partitions("subjects", ["acme"])
    # A check-only run of one subject: the partition as the UI's launch sets it, by tag.
    result = definitions.resolve_job_def("freshness").execute_in_process(
        instance=sensor_world.instance, tags={"dagster/partition": "acme"}, raise_on_error=False
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
    store: Warehouse, sensor_world: SensorWorld
) -> None:
    sensor_world.instance.add_dynamic_partitions("subjects", ["acme", "globex"])
    result = staleness_sensor(sensor_world.context(GENERATED + timedelta(days=10)))
    assert not result.run_requests
    assert result.skip_reason is not None
    assert result.skip_reason.skip_message == "2 reports checked, none stale; next due: acme on 2026-04-10"
    empty = staleness_sensor(sensor_world.context(GENERATED, root=sensor_world.root / "empty"))
    assert empty.skip_reason is not None and "no reports stored yet" in empty.skip_reason.skip_message
