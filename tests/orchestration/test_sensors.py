"""Sensors with an ephemeral instance, build_sensor_context and an injected clock."""

import json
import shutil
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import dagster as dg
import pytest

from reliability_core.models import Claim, RefreshRequest
from reliability_core.warehouse import Ledger, tables
from reliability_dagster.sensors import (
    due_date_sensor,
    first_report_sensor,
    gold_set_sensor,
    staleness_sensor,
    subject_registry_sensor,
)
from tests.conftest import PROJECT_ROOT
from tests.orchestration.conftest import REPORT_GENERATED, SensorWorld, stored_report

GENERATED = REPORT_GENERATED


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "data"
    (directory / "gold").mkdir(parents=True)
    shutil.copy(PROJECT_ROOT / "data" / "subjects.yaml", directory / "subjects.yaml")
    monkeypatch.setenv("RELIABILITY_DATA_DIR", str(directory))
    monkeypatch.setenv("RELIABILITY_AVERITEC", str(tmp_path / "absent.json"))
    return directory


def _claim(subject: str, deadline: date) -> Claim:
    return Claim(
        id=f"clm_{deadline.isoformat()}",
        statement_id="stm_1",
        subject_id=subject,
        document_id="doc_1",
        url="https://acme.example/plan",
        quote="We will open 3 plants by 2027.",
        quote_verified=True,
        speaker="Acme",
        claim_type="promise",
        restatement="Acme will open 3 plants by the deadline.",
        deadline=deadline,
        triage="not_yet_due",
        triage_reason="deadline in the future",
        classified_by="offline-rules",
        method_version="0.1.0+test",
    )


def test_partitions_follow_the_registry_new_entries_added_and_removed_ones_deleted(
    data_dir: Path, sensor_world: SensorWorld
) -> None:
    instance = sensor_world.instance
    instance.add_dynamic_partitions("subjects", ["northwnd-energy"])  # mistyped in the UI
    result = subject_registry_sensor(sensor_world.context())
    assert not result.run_requests, "keeping partitions costs nothing and starts no run"
    added, removed = result.dynamic_partitions_requests
    assert isinstance(added, dg.AddDynamicPartitionsRequest) and "northwind-energy" in added.partition_keys
    assert isinstance(removed, dg.DeleteDynamicPartitionsRequest)
    assert list(removed.partition_keys) == ["northwnd-energy"]
    instance.add_dynamic_partitions("subjects", list(added.partition_keys))
    instance.delete_dynamic_partition("subjects", "northwnd-energy")

    again = subject_registry_sensor(sensor_world.context(cursor=result.cursor))
    assert not again.dynamic_partitions_requests
    registry = data_dir / "subjects.yaml"
    registry.write_text(registry.read_text().replace("id: jonas-pike", "id: jonas-pike-renamed"))
    moved = subject_registry_sensor(sensor_world.context())
    add, delete = moved.dynamic_partitions_requests
    assert list(add.partition_keys) == ["jonas-pike-renamed"] and list(delete.partition_keys) == [
        "jonas-pike"
    ]


def test_first_report_sensor_requests_a_run_for_each_registered_subject_without_a_report(
    data_dir: Path, sensor_world: SensorWorld
) -> None:
    store = sensor_world.warehouse
    store.write(tables.REPORTS, "northwind-energy", [stored_report("northwind-energy")])
    sensor_world.instance.add_dynamic_partitions("subjects", ["northwind-energy", "amara-okafor", "stray"])
    context = sensor_world.context(GENERATED)
    result = first_report_sensor(context)
    assert [(r.partition_key, r.run_key) for r in result.run_requests or []] == [
        ("amara-okafor", "first:amara-okafor")
    ]


def test_sensors_that_spend_money_start_stopped_and_say_how_to_start_them() -> None:
    from reliability_dagster.definitions import defs

    sensors = {s.name: s for s in defs.sensors or []}
    assert sensors["subject_registry_sensor"].default_status == dg.DefaultSensorStatus.RUNNING
    for name in ("first_report_sensor", "staleness_sensor", "due_date_sensor", "gold_set_sensor"):
        sensor = sensors[name]
        assert sensor.default_status == dg.DefaultSensorStatus.STOPPED, name
        assert f"reliability sensor start {name}" in (sensor.description or "") and "credit" in (
            sensor.description or ""
        )


def test_stale_report_requests_one_refresh_per_period_and_records_it(sensor_world: SensorWorld) -> None:
    store = sensor_world.warehouse
    store.write(tables.REPORTS, "acme", [stored_report("acme")])
    store.write(tables.REPORTS, "fresh", [stored_report("fresh", GENERATED + timedelta(days=60))])
    now = GENERATED + timedelta(days=91)
    sensor_world.instance.add_dynamic_partitions("subjects", ["acme", "fresh"])
    context = sensor_world.context(now)
    first = staleness_sensor(context)
    second = staleness_sensor(sensor_world.context(now))
    assert [r.partition_key for r in first.run_requests or []] == ["acme"]
    assert [r.run_key for r in first.run_requests or []] == ["acme:2026-04-10"]
    assert [r.run_key for r in second.run_requests or []] == ["acme:2026-04-10"]  # same key: Dagster dedupes
    recorded = Ledger(store).read_all(tables.REFRESH_REQUESTS_LEDGER, "acme", RefreshRequest)
    assert len(recorded) == 1 and recorded[0].requested_at == now


def test_report_younger_than_90_days_requests_nothing(sensor_world: SensorWorld) -> None:
    store = sensor_world.warehouse
    store.write(tables.REPORTS, "acme", [stored_report("acme")])
    sensor_world.instance.add_dynamic_partitions("subjects", ["acme"])
    result = staleness_sensor(sensor_world.context(GENERATED + timedelta(days=89)))
    assert not result.run_requests


@pytest.mark.parametrize(
    ("deadline", "days_since_check", "due"),
    [
        (date(2026, 12, 3), 1, True),  # final week: daily
        (date(2027, 1, 10), 3, False),  # within two months: weekly
        (date(2027, 1, 10), 7, True),
        (date(2027, 9, 1), 20, False),  # before that: monthly
        (date(2027, 9, 1), 30, True),
    ],
)
def test_not_yet_due_claims_are_rechecked_on_the_cadence(
    sensor_world: SensorWorld, deadline: date, days_since_check: int, due: bool
) -> None:
    now = datetime(2026, 11, 30, 12, tzinfo=UTC)
    store = sensor_world.warehouse
    store.write(tables.CLAIMS, "acme", [_claim("acme", deadline)])
    store.write(tables.REPORTS, "acme", [stored_report("acme", now - timedelta(days=days_since_check))])
    sensor_world.instance.add_dynamic_partitions("subjects", ["acme"])
    result = due_date_sensor(sensor_world.context(now))
    keys = [r.run_key for r in result.run_requests or []]
    assert keys == (["acme:recheck:2026-11-30"] if due else [])


def test_a_brand_new_gold_set_file_becomes_a_partition_and_is_backtested(
    data_dir: Path, sensor_world: SensorWorld
) -> None:
    (data_dir / "gold" / "starter.jsonl").write_text('{"id": "g1"}\n')
    first = gold_set_sensor(sensor_world.context())
    sensor_world.instance.add_dynamic_partitions("gold_sets", ["starter"])
    (data_dir / "gold" / "energy-claims-2026.jsonl").write_text('{"id": "e1"}\n')
    later = gold_set_sensor(sensor_world.context(cursor=first.cursor))
    (added,) = later.dynamic_partitions_requests
    assert isinstance(added, dg.AddDynamicPartitionsRequest) and list(added.partition_keys) == [
        "energy-claims-2026"
    ]
    keys = [r.partition_key.keys_by_dimension for r in later.run_requests or []]  # type: ignore[union-attr]
    assert keys == [{"gold_set": "energy-claims-2026", "judges": "configured"}]


def test_gold_set_change_or_new_method_version_requests_a_backtest(
    data_dir: Path, sensor_world: SensorWorld
) -> None:
    gold = data_dir / "gold" / "starter.jsonl"
    gold.write_text('{"id": "g1"}\n')
    first = gold_set_sensor(sensor_world.context())
    requests = first.run_requests or []
    assert len(requests) == 1
    key = requests[0].partition_key
    assert isinstance(key, dg.MultiPartitionKey)
    assert key.keys_by_dimension == {"gold_set": "starter", "judges": "configured"}
    unchanged = gold_set_sensor(sensor_world.context(cursor=first.cursor))
    assert not unchanged.run_requests
    gold.write_text('{"id": "g2"}\n')
    changed = gold_set_sensor(sensor_world.context(cursor=first.cursor))
    assert len(changed.run_requests or []) == 1
    cursor = json.loads(first.cursor or "{}")
    cursor["method_version"] = "0.0.0+older"
    new_version = gold_set_sensor(sensor_world.context(cursor=json.dumps(cursor)))
    assert len(new_version.run_requests or []) == 1


def test_a_corrupt_report_partition_stays_local_and_is_refreshed(sensor_world: SensorWorld) -> None:
    """Issue 26 §5: one subject's corrupt reports file neither fails the sensors for the others
    nor goes unnoticed: the staleness sensor requests that subject's refresh, whose run sets
    the file aside and writes a new one."""
    store = sensor_world.warehouse
    store.write(tables.REPORTS, "acme", [stored_report("acme")])
    store.write(tables.REPORTS, "broken", [stored_report("broken")])
    (broken,) = (sensor_world.root / "warehouse").rglob("*subject=broken*/*.parquet")
    broken.write_bytes(b"not parquet at all")
    now = GENERATED + timedelta(days=91)
    sensor_world.instance.add_dynamic_partitions("subjects", ["acme", "broken"])
    stale = staleness_sensor(sensor_world.context(now))
    due = due_date_sensor(sensor_world.context(now))
    assert sorted(r.partition_key for r in stale.run_requests or []) == ["acme", "broken"]
    broken_request = next(r for r in stale.run_requests or [] if r.partition_key == "broken")
    assert broken_request.tags["reliability/reason"] == "corrupt report partition"
    assert not due.run_requests
