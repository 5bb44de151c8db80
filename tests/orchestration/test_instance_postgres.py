"""The PostgreSQL instance configuration works against the real server."""


import shutil
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest

from tests.conftest import PROJECT_ROOT
from tests.orchestration import queued


@pytest.fixture
def throwaway_database(require_postgres: None) -> Iterator[str]:
    with queued.throwaway_database() as name:
        yield name


subjects = dg.DynamicPartitionsDefinition(name="subjects")


@dg.asset(partitions_def=subjects)
def tiny_partitioned(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
    return dg.MaterializeResult(metadata={"subject": context.partition_key})


@pytest.mark.postgres
def test_instance_on_postgres_runs_a_partitioned_asset_and_reads_it_back(
    throwaway_database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "dagster_home"
    home.mkdir()
    shutil.copy(PROJECT_ROOT / "deploy" / "dagster.postgres.yaml", home / "dagster.yaml")
    for key, value in queued.postgres_env(throwaway_database).items():
        monkeypatch.setenv(key, value)

    with dg.DagsterInstance.from_config(str(home)) as instance:
        assert type(instance.run_storage).__name__ == "PostgresRunStorage"
        instance.add_dynamic_partitions("subjects", ["acme"])
        result = dg.materialize([tiny_partitioned], instance=instance, partition_key="acme")
        assert result.success

        runs = instance.get_runs()
        assert [r.run_id for r in runs] == [result.run_id]
        event = instance.get_latest_materialization_event(dg.AssetKey("tiny_partitioned"))
        assert event is not None and event.asset_materialization is not None
        assert event.asset_materialization.partition == "acme"
        assert instance.get_dynamic_partitions("subjects") == ["acme"]


def test_local_default_instance_config_is_sqlite_with_a_queued_coordinator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    shutil.copy(PROJECT_ROOT / "dagster.yaml", home / "dagster.yaml")
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    with dg.DagsterInstance.from_config(str(home)) as instance:
        assert type(instance.run_storage).__name__ == "SqliteRunStorage"
        assert isinstance(instance.run_coordinator, dg.QueuedRunCoordinator)
