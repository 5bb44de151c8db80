"""The PostgreSQL instance configuration works against the real server."""

import shutil
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import psycopg2
import pytest

from tests.conftest import PROJECT_ROOT
from tests.orchestration import queued


@pytest.fixture
def throwaway_database(require_postgres: None) -> Iterator[str]:
    with queued.throwaway_database() as name:
        yield name


@pytest.fixture
def postgres_home(throwaway_database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty DAGSTER_HOME, with the shipped configs' PostgreSQL variables naming the throwaway database."""
    home = tmp_path / "dagster_home"
    home.mkdir()
    for key, value in queued.postgres_env(throwaway_database).items():
        monkeypatch.setenv(key, value)
    return home


subjects = dg.DynamicPartitionsDefinition(name="subjects")


@dg.asset(partitions_def=subjects)
def tiny_partitioned(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
    return dg.MaterializeResult(metadata={"subject": context.partition_key})


@pytest.mark.postgres
def test_instance_on_postgres_runs_a_partitioned_asset_and_reads_it_back(postgres_home: Path) -> None:
    home = postgres_home
    shutil.copy(PROJECT_ROOT / "deploy" / "dagster.postgres.yaml", home / "dagster.yaml")

    with dg.DagsterInstance.from_config(str(home)) as instance:
        assert type(instance.run_storage).__name__ == "PostgresRunStorage"
        assert instance.get_ref().storage_data.class_name == "PooledPostgresStorage"  # type: ignore[union-attr]
        instance.add_dynamic_partitions("subjects", ["acme"])
        result = dg.materialize([tiny_partitioned], instance=instance, partition_key="acme")
        assert result.success

        runs = instance.get_runs()
        assert [r.run_id for r in runs] == [result.run_id]
        event = instance.get_latest_materialization_event(dg.AssetKey("tiny_partitioned"))
        assert event is not None and event.asset_materialization is not None
        assert event.asset_materialization.partition == "acme"
        assert instance.get_dynamic_partitions("subjects") == ["acme"]


def _sessions(database: str) -> int:
    """Connections PostgreSQL has accepted to ``database`` since it was created."""
    with psycopg2.connect(host="127.0.0.1", port=5432, user="postgres", dbname="postgres") as conn, conn.cursor() as cur:
        cur.execute("SELECT pg_stat_clear_snapshot()")
        cur.execute("SELECT sessions FROM pg_stat_database WHERE datname = %s", (database,))
        row = cur.fetchone()
    return int(row[0]) if row else 0


@dg.asset
def tiny() -> int:
    return 1


PLAIN_POSTGRES = """storage:
  postgres:
    postgres_db:
      scheme: postgresql+psycopg2
      hostname: {env: DAGSTER_PG_HOST}
      port: {env: DAGSTER_PG_PORT}
      username: {env: DAGSTER_PG_USER}
      password: {env: DAGSTER_PG_PASSWORD}
      db_name: {env: DAGSTER_PG_DB}
"""


def _three_runs(home: Path, database: str) -> tuple[list[str], int, int]:
    """Run ids, events stored and connections opened for three runs on the instance in ``home``."""
    with dg.DagsterInstance.from_config(str(home)) as instance:
        dg.materialize([tiny], instance=instance)  # tables made, every storage connected once
        before = _sessions(database)
        results = [dg.materialize([tiny], instance=instance) for _ in range(3)]
        opened = _sessions(database) - before
        assert all(r.success for r in results)
        return [r.run_id for r in results], sum(len(instance.all_logs(r.run_id)) for r in results), opened


@pytest.mark.postgres
def test_the_shipped_postgres_instance_keeps_its_connections_and_plain_dagster_reads_what_it_wrote(
    throwaway_database: str, postgres_home: Path
) -> None:
    home = postgres_home
    (home / "dagster.yaml").write_text(PLAIN_POSTGRES)
    _plain_runs, plain_events, plain_opened = _three_runs(home, throwaway_database)
    shutil.copy(PROJECT_ROOT / "deploy" / "dagster.postgres.yaml", home / "dagster.yaml")
    pooled_runs, pooled_events, pooled_opened = _three_runs(home, throwaway_database)
    # dagster_postgres's own storage opens a connection for every statement; the shipped
    # one keeps them (at most one more per run, for a thread that needs one while another
    # is in use).
    assert pooled_events == plain_events > 30
    assert pooled_opened <= 3 and pooled_opened * 10 <= plain_opened, (pooled_opened, plain_opened)

    (home / "dagster.yaml").write_text(PLAIN_POSTGRES)
    with dg.DagsterInstance.from_config(str(home)) as plain:
        assert plain.get_ref().storage_data.class_name == "DagsterPostgresStorage"  # type: ignore[union-attr]
        assert set(pooled_runs) <= {r.run_id for r in plain.get_runs()}
        assert sum(len(plain.all_logs(run_id)) for run_id in pooled_runs) == pooled_events
        latest = plain.get_latest_materialization_event(dg.AssetKey("tiny"))
        assert latest is not None and latest.run_id == pooled_runs[-1]


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
