"""The project's SQLite instance storage: Dagster's files, with the event log's engines kept.

What matters: the project's dagster.yaml builds it; an event costs no new engine; what it
writes, Dagster's own ``storage: sqlite`` reads (and the other way), so an instance made
before keeps working; a wipe leaves no connection to a deleted file; threads share it
safely; a long-lived process keeps a bounded number of files open."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import dagster as dg
import pytest

from reliability_dagster import sqlite_storage
from reliability_dagster.sqlite_storage import ENGINES_KEPT, PooledSqliteEventLogStorage
from tests.conftest import PROJECT_ROOT

PLAIN_SQLITE = """storage:
  sqlite:
    base_dir:
      env: DAGSTER_HOME
"""


@dg.asset
def tiny() -> int:
    return 1


def _home(tmp_path: Path, config: str | None = None) -> Path:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    if config is None:
        shutil.copy(PROJECT_ROOT / "dagster.yaml", home / "dagster.yaml")
    else:
        (home / "dagster.yaml").write_text(config)
    return home


@pytest.fixture
def counted_engines(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every engine the pooled storage makes, by connection string."""
    made: list[str] = []
    real = sqlite_storage.create_engine

    def counting(url: str, **kwargs: object):  # type: ignore[no-untyped-def]
        made.append(url)
        return real(url, **kwargs)

    monkeypatch.setattr(sqlite_storage, "create_engine", counting)
    return made


def test_the_project_instance_stores_events_on_kept_engines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted_engines: list[str]
) -> None:
    home = _home(tmp_path)
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    with dg.DagsterInstance.from_config(str(home)) as instance:
        assert isinstance(instance.event_log_storage, PooledSqliteEventLogStorage)
        assert type(instance.run_storage).__name__ == "SqliteRunStorage"
        for _ in range(3):
            assert dg.materialize([tiny], instance=instance).success
        shards = set(counted_engines)
        # Three runs: three run shards and the index, each engine made once however many
        # events (a run stores dozens) went through it.
        assert len(counted_engines) == len(shards) == 4, counted_engines
        assert len(instance.get_runs()) == 3


def test_what_one_storage_writes_dagsters_own_sqlite_storage_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _home(tmp_path)
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    with dg.DagsterInstance.from_config(str(home)) as pooled:
        first = dg.materialize([tiny], instance=pooled)
        first_events = len(pooled.all_logs(first.run_id))
    _home(tmp_path, PLAIN_SQLITE)
    with dg.DagsterInstance.from_config(str(home)) as plain:
        assert not isinstance(plain.event_log_storage, PooledSqliteEventLogStorage)
        assert len(plain.all_logs(first.run_id)) == first_events
        latest = plain.get_latest_materialization_event(dg.AssetKey("tiny"))
        assert latest is not None and latest.run_id == first.run_id
        second = dg.materialize([tiny], instance=plain)
    _home(tmp_path)
    with dg.DagsterInstance.from_config(str(home)) as pooled:
        latest = pooled.get_latest_materialization_event(dg.AssetKey("tiny"))
        assert latest is not None and latest.run_id == second.run_id
        assert {r.run_id for r in pooled.get_runs()} == {first.run_id, second.run_id}


def test_wipe_leaves_no_connection_to_a_deleted_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = _home(tmp_path)
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    with dg.DagsterInstance.from_config(str(home)) as instance:
        storage = instance.event_log_storage
        assert isinstance(storage, PooledSqliteEventLogStorage)
        before = dg.materialize([tiny], instance=instance)
        shard = Path(storage.path_for_shard(before.run_id))
        assert shard.exists()
        instance.wipe()
        # The index is emptied, not deleted, so its engine is made again; no run shard's is kept.
        assert not shard.exists() and set(storage._engines) <= {"index"}
        after = dg.materialize([tiny], instance=instance)
        assert after.success and instance.all_logs(after.run_id)
        assert not instance.all_logs(before.run_id)


def test_threads_storing_events_at_once_lose_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = _home(tmp_path)
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    with dg.DagsterInstance.from_config(str(home)) as instance:

        def report(n: int) -> None:
            for i in range(25):
                instance.report_runless_asset_event(
                    dg.AssetMaterialization(asset_key=f"a{n}", metadata={"i": i})
                )

        threads = [threading.Thread(target=report, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for n in range(4):
            records = instance.fetch_materializations(dg.AssetKey(f"a{n}"), limit=100).records
            assert len(records) == 25


def test_a_long_lived_process_keeps_a_bounded_number_of_engines(tmp_path: Path) -> None:
    storage = PooledSqliteEventLogStorage(str(tmp_path / "runs"))
    try:
        run_ids = [f"run-{i}" for i in range(ENGINES_KEPT + 5)]
        for run_id in run_ids:
            with storage.run_connection(run_id) as conn:
                assert conn is not None
        kept = list(storage._engines)
        assert len(kept) == ENGINES_KEPT
        assert kept == run_ids[-ENGINES_KEPT:], "the least recently used go first"
        # A shard used again is made again, and its file still holds what it had.
        with storage.run_connection(run_ids[0]):
            pass
        assert run_ids[0] in storage._engines
    finally:
        storage.dispose()
    assert not storage._engines
