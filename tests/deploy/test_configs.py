"""Every instance config docs/DEPLOY.md shows loads in Dagster 1.13.27 as it
says: storage, the queued coordinator, run monitoring, pools, the launcher."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import dagster as dg
import pytest

from tests.conftest import PROJECT_ROOT
from tests.orchestration.queued import postgres_env, throwaway_database

CONFIGS = {
    "dagster.yaml": ("SqliteRunStorage", "DefaultRunLauncher"),
    "deploy/dagster.postgres.yaml": ("PostgresRunStorage", "DefaultRunLauncher"),
    "deploy/docker/dagster.yaml": ("PostgresRunStorage", "DockerRunLauncher"),
}


def test_deploy_md_names_exactly_the_configs_this_test_loads() -> None:
    text = (PROJECT_ROOT / "docs" / "DEPLOY.md").read_text()
    shown = set(re.findall(r"`((?:deploy/[\w/.-]+|dagster)\.yaml)`", text))
    assert shown == set(CONFIGS), shown


@pytest.mark.postgres
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_each_shipped_instance_config_loads_with_the_queue_monitoring_and_pools(
    config: str, require_postgres: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage, launcher = CONFIGS[config]
    home = tmp_path / "home"
    home.mkdir()
    shutil.copy(PROJECT_ROOT / config, home / "dagster.yaml")
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    monkeypatch.setenv("RELIABILITY_IMAGE", "reliability:test")
    with throwaway_database() as database:
        for key, value in postgres_env(database).items():
            monkeypatch.setenv(key, value)
        with dg.DagsterInstance.from_config(str(home)) as instance:
            assert type(instance.run_storage).__name__ == storage
            assert isinstance(instance.run_coordinator, dg.QueuedRunCoordinator)
            assert type(instance.run_launcher).__name__ == launcher
            assert instance.run_monitoring_enabled
            settings = instance.run_monitoring_settings
            assert settings["free_slots_after_run_end_seconds"] > 0, "a dead run's pool slots are freed"
            assert settings["max_runtime_seconds"] > 0, "the backstop for a worker no one watches"
            assert instance.global_op_concurrency_default_limit is not None, "every provider pool has a limit"
            assert instance.event_log_storage.supports_global_concurrency_limits
            if launcher == "DockerRunLauncher":
                # The container launcher reports a dead worker itself: run monitoring checks its health.
                assert instance.run_launcher.supports_check_run_worker_health
