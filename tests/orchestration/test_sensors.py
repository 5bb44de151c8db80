"""Sensors with an ephemeral instance, build_sensor_context and an injected clock."""

import json
import shutil
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import dagster as dg
import pytest

from reliability_core.models import Claim, RefreshRequest, Report
from reliability_core.warehouse import Ledger, Warehouse, tables
from reliability_dagster.resources import ClockResource, WarehouseResource
from reliability_dagster.sensors import (
    due_date_sensor,
    gold_set_sensor,
    staleness_sensor,
    subject_registry_sensor,
)
from tests.conftest import PROJECT_ROOT

GENERATED = datetime(2026, 1, 10, 9, tzinfo=UTC)


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "data"
    (directory / "gold").mkdir(parents=True)
    shutil.copy(PROJECT_ROOT / "data" / "subjects.yaml", directory / "subjects.yaml")
    monkeypatch.setenv("RELIABILITY_DATA_DIR", str(directory))
    monkeypatch.setenv("RELIABILITY_AVERITEC", str(tmp_path / "absent.json"))
    return directory


def _report(subject: str, generated: datetime = GENERATED) -> Report:
    return Report(
        id=f"rpt_{subject}",
        subject_id=subject,
        subject_name=subject,
        covered=True,
        coverage_reasons=[],
        generated_at=generated,
        served_until=generated + timedelta(days=90),
        method_version="0.1.0+test",
    )


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


def _resources(tmp_path: Path, now: datetime) -> dict[str, object]:
    return {
        "warehouse": WarehouseResource(root=str(tmp_path / "warehouse")),
        "clock": ClockResource(fixed_now=now.isoformat()),
    }


def test_new_registry_entries_add_partitions_and_request_first_runs_in_one_tick(data_dir: Path) -> None:
    with dg.DagsterInstance.ephemeral() as instance:
        result = subject_registry_sensor(dg.build_sensor_context(instance=instance))
        keys = {r.partition_key for r in result.run_requests or []}
        assert "northwind-energy" in keys and len(keys) >= 5
        assert {r.run_key for r in result.run_requests or []} == {f"first:{k}" for k in keys}
        added = result.dynamic_partitions_requests[0]
        assert set(added.partition_keys or []) == keys
        instance.add_dynamic_partitions("subjects", sorted(keys))

        again = subject_registry_sensor(dg.build_sensor_context(instance=instance, cursor=result.cursor))
        assert not again.run_requests and not again.dynamic_partitions_requests


def test_stale_report_requests_one_refresh_per_period_and_records_it(tmp_path: Path) -> None:
    store = Warehouse(str(tmp_path / "warehouse"))
    store.write(tables.REPORTS, "acme", [_report("acme")])
    store.write(tables.REPORTS, "fresh", [_report("fresh", GENERATED + timedelta(days=60))])
    now = GENERATED + timedelta(days=91)
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("subjects", ["acme", "fresh"])
        context = dg.build_sensor_context(instance=instance, resources=_resources(tmp_path, now))
        first = staleness_sensor(context)
        second = staleness_sensor(dg.build_sensor_context(instance=instance, resources=_resources(tmp_path, now)))
    assert [r.partition_key for r in first.run_requests or []] == ["acme"]
    assert [r.run_key for r in first.run_requests or []] == ["acme:2026-04-10"]
    assert [r.run_key for r in second.run_requests or []] == ["acme:2026-04-10"]  # same key: Dagster dedupes
    recorded = Ledger(store).read_all(tables.REFRESH_REQUESTS_LEDGER, "acme", RefreshRequest)
    assert len(recorded) == 1 and recorded[0].requested_at == now


def test_report_younger_than_90_days_requests_nothing(tmp_path: Path) -> None:
    store = Warehouse(str(tmp_path / "warehouse"))
    store.write(tables.REPORTS, "acme", [_report("acme")])
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("subjects", ["acme"])
        result = staleness_sensor(
            dg.build_sensor_context(instance=instance, resources=_resources(tmp_path, GENERATED + timedelta(days=89)))
        )
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
    tmp_path: Path, deadline: date, days_since_check: int, due: bool
) -> None:
    now = datetime(2026, 11, 30, 12, tzinfo=UTC)
    store = Warehouse(str(tmp_path / "warehouse"))
    store.write(tables.CLAIMS, "acme", [_claim("acme", deadline)])
    store.write(tables.REPORTS, "acme", [_report("acme", now - timedelta(days=days_since_check))])
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("subjects", ["acme"])
        result = due_date_sensor(dg.build_sensor_context(instance=instance, resources=_resources(tmp_path, now)))
    keys = [r.run_key for r in result.run_requests or []]
    assert keys == (["acme:recheck:2026-11-30"] if due else [])


def test_gold_set_change_or_new_method_version_requests_a_backtest(data_dir: Path) -> None:
    gold = data_dir / "gold" / "starter.jsonl"
    gold.write_text('{"id": "g1"}\n')
    with dg.DagsterInstance.ephemeral() as instance:
        first = gold_set_sensor(dg.build_sensor_context(instance=instance))
        requests = first.run_requests or []
        assert len(requests) == 1
        key = requests[0].partition_key
        assert isinstance(key, dg.MultiPartitionKey)
        assert key.keys_by_dimension == {"gold_set": "starter", "judges": "configured"}
        unchanged = gold_set_sensor(dg.build_sensor_context(instance=instance, cursor=first.cursor))
        assert not unchanged.run_requests
        gold.write_text('{"id": "g2"}\n')
        changed = gold_set_sensor(dg.build_sensor_context(instance=instance, cursor=first.cursor))
        assert len(changed.run_requests or []) == 1
        cursor = json.loads(first.cursor or "{}")
        cursor["method_version"] = "0.0.0+older"
        new_version = gold_set_sensor(dg.build_sensor_context(instance=instance, cursor=json.dumps(cursor)))
        assert len(new_version.run_requests or []) == 1
