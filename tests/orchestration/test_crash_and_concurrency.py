"""Crash safety and concurrent subject runs, in real separate processes."""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import pytest

from reliability_core.models import ClaimVerdict, EvidenceItem, ResolutionCriteria, Statement
from reliability_core.warehouse import Ledger, Warehouse, tables
from tests.conftest import PROJECT_ROOT, DemoRun
from tests.orchestration.conftest import Pipeline

pytestmark = pytest.mark.slow


def _prepare_home(home: Path) -> None:
    """Create the SQLite instance once, as `make` does before any run: Dagster's
    first-time SQLite migration is not safe when several processes race to do it
    ("table alembic_version already exists")."""
    home.mkdir(parents=True, exist_ok=True)
    if not (home / "dagster.yaml").exists():
        shutil.copy(PROJECT_ROOT / "dagster.yaml", home / "dagster.yaml")
        previous = os.environ.get("DAGSTER_HOME")
        os.environ["DAGSTER_HOME"] = str(home)
        try:
            dg.DagsterInstance.from_config(str(home)).dispose()
        finally:
            if previous is None:
                os.environ.pop("DAGSTER_HOME")
            else:
                os.environ["DAGSTER_HOME"] = previous


def _start(subject: str, root: Path, home: Path, **env: str) -> subprocess.Popen[bytes]:
    _prepare_home(home)
    environment = {
        **os.environ,
        "DAGSTER_HOME": str(home),
        "RELIABILITY_TEST_ROOT": str(root),
        **env,
    }
    for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PERPLEXITY_API_KEY"):
        environment.pop(key, None)
    return subprocess.Popen(
        [sys.executable, "-m", "tests.orchestration.run_subject", subject],
        cwd=PROJECT_ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _ids_unique(store: Warehouse, subject: str) -> None:
    for table, model, key in (
        (tables.STATEMENTS, Statement, "id"),
        (tables.EVIDENCE, EvidenceItem, "id"),
        (tables.VERDICTS, ClaimVerdict, "claim_id"),
    ):
        rows = store.read(table, subject, model)
        ids = [getattr(r, key) for r in rows]
        assert len(ids) == len(set(ids)), f"duplicate records in {table}"


def test_killing_a_run_mid_stage_then_rerunning_completes_without_duplicates_or_changed_criteria(
    pipeline: Pipeline, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    subject = "northwind-energy"
    root = tmp_path / "crashed"
    process = _start(subject, root, tmp_path / "home", RELIABILITY_TEST_MODEL_LATENCY="0.2")
    ledger_dir = root / "warehouse" / "_ledger" / tables.CRITERIA_LEDGER / f"subject={subject}"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and process.poll() is None:
        if ledger_dir.exists() and any(ledger_dir.glob("*.json")):
            time.sleep(1.0)  # into the evidence stage: research calls are under way
            break
        time.sleep(0.2)
    assert process.poll() is None, "the run finished before it could be killed: " + (
        process.stderr.read().decode()[-2000:] if process.stderr else ""
    )
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)

    crashed = Warehouse(str(root / "warehouse"))
    frozen = Ledger(crashed).read_all(tables.CRITERIA_LEDGER, subject, ResolutionCriteria)
    assert frozen, "criteria were frozen before the kill"

    rerun = Pipeline(root=root, instance=pipeline.instance, resources=pipeline.resources)
    from tests.orchestration.conftest import make_resources

    rerun.resources = make_resources(root)
    result = rerun.run(subject)
    assert result.success, [str(e.event_specific_data) for e in result.all_events if e.is_failure]
    after = {c.id: c for c in Ledger(crashed).read_all(tables.CRITERIA_LEDGER, subject, ResolutionCriteria)}
    assert all(after[c.id] == c for c in frozen), "criteria frozen before the crash are never rewritten"
    _ids_unique(crashed, subject)
    assert not list((root / "warehouse").rglob(".tmp-*")), "no half-written partition is left visible"

    # The same report as a run that was never interrupted: the session's demo run, asked for only
    # now, so a worker that waits for another to finish building it has done its own work first.
    demo_run: DemoRun = request.getfixturevalue("demo_run")
    assert rerun.report(subject).content_hash == demo_run.report(subject).content_hash


def test_several_subject_runs_at_once_on_one_instance_and_warehouse(tmp_path: Path) -> None:
    root = tmp_path / "shared"
    home = tmp_path / "home"
    subjects = ["northwind-energy", "clearwater-evaluators", "amara-okafor", "lars-vinter"]
    processes = [
        _start(s, root, home, RELIABILITY_TEST_EXECUTOR="multiprocess" if s == "lars-vinter" else "in_process")
        for s in subjects
    ]
    failures = []
    for subject, process in zip(subjects, processes, strict=True):
        _, stderr = process.communicate(timeout=600)
        if process.returncode != 0:
            failures.append(f"{subject}: {stderr.decode()[-3000:]}")
    assert not failures, "\n".join(failures)
    store = Warehouse(str(root / "warehouse"))
    assert set(store.subjects(tables.REPORTS)) == set(subjects)
    for subject in subjects:
        _ids_unique(store, subject)
    text = "".join(p.read_text(errors="ignore") for p in home.rglob("*.log")) if home.exists() else ""
    assert "database is locked" not in text
