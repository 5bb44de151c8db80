"""A Dagster deployment in miniature for the queued-run tests: the shipped
``deploy/dagster.postgres.yaml`` on a throwaway PostgreSQL database, the real
daemon (``dagster-daemon run``: run queue, run monitoring, slot freeing) over
``tests.orchestration.queued_location``, runs launched by the default run
launcher as separate processes, submitted with the CLI backfill command the
README shows."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
import yaml

from tests.conftest import PROJECT_ROOT

BIN = Path(sys.executable).parent
LOCATION = "reliability_test"
def postgres_env(database: str) -> dict[str, str]:
    """The variables the shipped PostgreSQL configs read, for the server on 127.0.0.1:5432."""
    return {
        "DAGSTER_PG_HOST": "127.0.0.1",
        "DAGSTER_PG_PORT": "5432",
        "DAGSTER_PG_USER": "postgres",
        "DAGSTER_PG_PASSWORD": "",
        "DAGSTER_PG_DB": database,
    }


@contextmanager
def throwaway_database() -> Iterator[str]:
    import psycopg2

    name = f"reliability_test_{uuid.uuid4().hex[:10]}"
    admin = psycopg2.connect(host="127.0.0.1", port=5432, user="postgres", dbname="postgres")
    admin.autocommit = True
    with admin.cursor() as cur:
        cur.execute(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        with admin.cursor() as cur:
            cur.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                (name,),
            )
            cur.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.close()


@dataclass
class Deployment:
    home: Path
    root: Path
    workspace: Path
    env: dict[str, str]
    instance: dg.DagsterInstance
    daemon_log: Path

    def backfill(self, partitions: Sequence[str], job: str = "quick_report") -> None:
        """``dagster job backfill`` for ``partitions``: every run submitted to the queue at once."""
        self.instance.add_dynamic_partitions(
            "subjects", [p for p in partitions if not self.instance.has_dynamic_partition("subjects", p)]
        )
        subprocess.run(
            [str(BIN / "dagster"), "job", "backfill", "-w", str(self.workspace), "-j", job,
             "--partitions", ",".join(partitions), "--noprompt"],
            cwd=PROJECT_ROOT, env=self.env, check=True, capture_output=True, timeout=300,
        )

    def wait_for_runs(self, count: int, timeout: float) -> list[dg.DagsterRun]:
        """Every run once ``count`` runs have finished (or the timeout passed)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            runs = self.instance.get_runs()
            if len(runs) >= count and all(r.is_finished for r in runs):
                return list(runs)
            time.sleep(1.0)
        statuses = {r.run_id[:8]: r.status.value for r in self.instance.get_runs()}
        raise AssertionError(f"runs not finished within {timeout:.0f} s: {statuses}\n{self.daemon_output()[-3000:]}")

    def daemon_output(self) -> str:
        return self.daemon_log.read_text(errors="replace") if self.daemon_log.exists() else ""



def run_failures(deployment: Deployment, runs: list[dg.DagsterRun]) -> list[str]:
    """Each run that did not succeed, with the last errors of its events."""
    failed = []
    for run in runs:
        if run.status != dg.DagsterRunStatus.SUCCESS:
            errors = []
            for entry in deployment.instance.all_logs(run.run_id):
                event = entry.dagster_event
                if event is not None and (event.is_failure or event.event_type_value == "ENGINE_EVENT"):
                    error = getattr(event.event_specific_data, "error", None)
                    errors.append((error.message if error else entry.user_message or "")[:600])
            failed.append(f"{run.tags.get('dagster/partition')} {run.status.value}: {errors[-4:]}")
    return failed


def _config(overrides: dict[str, object] | None) -> str:
    config = yaml.safe_load((PROJECT_ROOT / "deploy" / "dagster.postgres.yaml").read_text())
    for key, value in (overrides or {}).items():
        config[key] = value
    return yaml.safe_dump(config)


@contextmanager
def queued_deployment(
    tmp_path: Path, *, data_dir: Path | None = None, env: dict[str, str] | None = None,
    config_overrides: dict[str, object] | None = None,
) -> Iterator[Deployment]:
    """The shipped PostgreSQL config on a throwaway database, with the daemon running."""
    with throwaway_database() as database:
        home = tmp_path / "dagster_home"
        home.mkdir()
        (home / "dagster.yaml").write_text(_config(config_overrides))
        root = tmp_path / "run_root"
        workspace = tmp_path / "workspace.yaml"
        workspace.write_text(yaml.safe_dump({"load_from": [{"python_module": {
            "module_name": "tests.orchestration.queued_location",
            "working_directory": str(PROJECT_ROOT),
            "location_name": LOCATION,
        }}]}))
        environment = {
            **{k: v for k, v in os.environ.items() if k not in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PERPLEXITY_API_KEY")},
            "DAGSTER_HOME": str(home),
            **postgres_env(database),
            "PYTHONPATH": str(PROJECT_ROOT),
            # Launching a run asks the code server to start a process; on a loaded 2-core
            # machine that can pass Dagster's 60 s default and fail the run at launch.
            "DAGSTER_GRPC_TIMEOUT_SECONDS": "300",
            "RELIABILITY_TEST_ROOT": str(root),
            **({"RELIABILITY_DATA_DIR": str(data_dir)} if data_dir else {}),
            **(env or {}),
        }
        daemon_log = tmp_path / "daemon.log"
        previous = {k: os.environ.get(k) for k in environment}
        os.environ.update(environment)  # the instance below reads the same env-driven config
        try:
            with dg.DagsterInstance.from_config(str(home)) as instance, daemon_log.open("wb") as log:
                daemon = subprocess.Popen(
                    [str(BIN / "dagster-daemon"), "run", "-w", str(workspace)],
                    cwd=PROJECT_ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT,
                    start_new_session=True,  # its code server and run workers share its process group
                )
                try:
                    yield Deployment(home, root, workspace, environment, instance, daemon_log)
                finally:
                    _stop(daemon)
        finally:
            for key, value in previous.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


def _stop(daemon: subprocess.Popen[bytes]) -> None:
    """Stop the daemon we started, then whatever of its process group is left (the code
    server it started and any run worker still going)."""
    with suppress(ProcessLookupError):
        os.killpg(daemon.pid, signal.SIGTERM)
    with suppress(subprocess.TimeoutExpired):
        daemon.wait(timeout=20)
    with suppress(ProcessLookupError):
        os.killpg(daemon.pid, signal.SIGKILL)
    daemon.wait(timeout=10)


def copy_registry(tmp_path: Path, copies: dict[str, str]) -> Path:
    """A data directory whose registry holds ``copies`` (new id -> demo subject id) besides the
    demo subjects, everything else linked from data/."""
    data = tmp_path / "data"
    data.mkdir()
    for item in (PROJECT_ROOT / "data").iterdir():
        if item.name not in ("subjects.yaml", "warehouse", "cache"):
            (data / item.name).symlink_to(item)
    entries = yaml.safe_load((PROJECT_ROOT / "data" / "subjects.yaml").read_text())
    by_id = {e["id"]: e for e in entries}
    entries += [{**by_id[original], "id": new_id} for new_id, original in copies.items()]
    (data / "subjects.yaml").write_text(yaml.safe_dump(entries, sort_keys=False, allow_unicode=True))
    return data
