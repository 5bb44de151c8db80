"""Shared fixtures: a fixed clock, a throwaway warehouse, PostgreSQL gating."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from filelock import FileLock
from hypothesis import settings

from reliability_core.clock import FixedClock
from reliability_core.models import Report
from reliability_core.settings import settings as process_settings
from reliability_core.warehouse import Ledger, Warehouse

# In CI, property tests and the schemathesis run draw the same examples every
# time (a red run must mean a change broke something, not an unlucky draw);
# locally they explore afresh on every run.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SHARED_DIR = PROJECT_ROOT.parent / "shared"


# --- Running on several workers (`make test`: pytest-xdist, --dist loadfile) -------------------
# A file's tests run on one worker, so a fixture of module scope is still built once; the
# longest files start first (below). The
# loadgroup mode with xdist_group marks is not used: with pytest 9.2 it silently ignores the
# marks (pytest-dev/pytest-xdist#1386). Nothing else needs grouping: every test that uses
# PostgreSQL, S3 or a Dagster instance makes its own (a uniquely named database or bucket, a
# tmp_path home), so the workers share no state.


# Seconds per test file from a full run (tools/record_test_durations.py writes it); a file not
# recorded yet counts as long when it holds a slow or PostgreSQL test.
DURATIONS = Path(__file__).resolve().parent / "durations.json"
UNRECORDED_SLOW_SECONDS = 60.0


def _recorded_seconds() -> dict[str, float]:
    try:
        loaded = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(path): float(seconds) for path, seconds in loaded.items()} if isinstance(loaded, dict) else {}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a worker, order the files longest first (stable: each file's tests keep their order),
    so with --no-loadscope-reorder the longest start first and no worker is left alone at the
    end with a five-minute file."""
    if not hasattr(config, "workerinput"):
        return  # a plain (single-process) run keeps the file order
    recorded = _recorded_seconds()
    seconds: dict[str, float] = {}
    first: dict[str, int] = {}
    for index, item in enumerate(items):
        path = item.nodeid.split("::")[0]
        first.setdefault(path, index)
        slow = item.get_closest_marker("slow") is not None or item.get_closest_marker("postgres") is not None
        guess = UNRECORDED_SLOW_SECONDS if slow else 0.0
        seconds[path] = max(seconds.get(path, 0.0), recorded.get(path, guess))
    items.sort(key=lambda item: (-seconds[path := item.nodeid.split("::")[0]], first[path]))


# No test writes to the checkout's data/ (the registry, corpus and gold sets; `make demo`'s
# warehouse and cache): two workers would share it, and a developer's demo with it. Checked once
# per run by the process that runs or distributes the tests.
_DATA_BEFORE = pytest.StashKey[set[Path]]()


def _paths_under(root: Path) -> set[Path]:
    return set(root.rglob("*")) if root.is_dir() else set()


def _data_dirs() -> set[Path]:
    configured = os.environ.get("RELIABILITY_DATA_DIR")
    return {PROJECT_ROOT / "data", *([Path(configured)] if configured else [])}


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):
        session.config.stash[_DATA_BEFORE] = set().union(*(_paths_under(d) for d in _data_dirs()))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = session.config.stash.get(_DATA_BEFORE, None)
    if before is None:
        return
    written = sorted(set().union(*(_paths_under(d) for d in _data_dirs())) - before)
    if written:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.ensure_newline()
            listed = "\n".join(f"  {path}" for path in written[:20])
            reporter.write_line(f"tests wrote {len(written)} paths into the data directory:\n{listed}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def fresh_settings() -> Iterator[None]:
    """The process reads its settings once; each test reads the environment it sets
    (``monkeypatch.setenv``) afresh, and leaves no settings behind."""
    process_settings.cache_clear()
    yield
    process_settings.cache_clear()


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))


@pytest.fixture
def warehouse(tmp_path: Path) -> Warehouse:
    return Warehouse(str(tmp_path / "warehouse"))


@pytest.fixture
def ledger(warehouse: Warehouse) -> Ledger:
    return Ledger(warehouse)


def postgres_available() -> bool:
    try:
        import psycopg2

        psycopg2.connect(host="127.0.0.1", port=5432, user="postgres", dbname="postgres", connect_timeout=2).close()
        return True
    except Exception:
        return False


@pytest.fixture(scope="session")
def require_postgres() -> None:
    """Skip with one line when PostgreSQL is absent, unless CI made it mandatory."""
    if postgres_available():
        return
    if os.environ.get("RELIABILITY_REQUIRE_POSTGRES"):
        pytest.fail("RELIABILITY_REQUIRE_POSTGRES is set but PostgreSQL on 127.0.0.1:5432 is unreachable")
    pytest.skip("PostgreSQL on 127.0.0.1:5432 is not reachable")


# --- The demo, run once per test session and shared -----------------------------------------
# The five demo subjects' quick reports, offline, over the real corpus and registry: a warehouse,
# caches and a Dagster instance on disk under one root. Several files only read what the demo
# produced (the answer key, the API over it, a reference report to compare another run with);
# each used to run it again. Built once per `make test`, whichever worker asks first, the others
# waiting on a file lock (pytest-xdist's documented pattern for session data, with filelock, which
# Dagster itself requires); READ-ONLY for
# every test: a test that changes a warehouse runs its own pipeline.
DEMO_SUBJECTS = ("northwind-energy", "clearwater-evaluators", "amara-okafor", "lars-vinter", "jonas-pike")


@dataclass(frozen=True)
class DemoRun:
    root: Path  # warehouse/, cache/ and dagster_home/ (run, event and compute-log storage)

    @property
    def warehouse(self) -> Warehouse:
        return Warehouse(str(self.root / "warehouse"))

    def report(self, subject: str) -> Report:
        from reliability_core.scores.publication import latest_report
        from reliability_core.warehouse import tables

        latest = latest_report(self.warehouse.read(tables.REPORTS, subject, Report))
        assert latest is not None, f"the demo stored no report for {subject}"
        return latest


def _run_the_demo(root: Path) -> None:
    import dagster as dg

    from tests.orchestration.conftest import Pipeline, make_resources

    (root / "dagster_home").mkdir(parents=True)
    with pytest.MonkeyPatch.context() as patch:
        for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PERPLEXITY_API_KEY"):
            patch.delenv(key, raising=False)
        with dg.DagsterInstance.local_temp(tempdir=str(root / "dagster_home")) as instance:
            pipeline = Pipeline(root=root, instance=instance, resources=make_resources(root))
            for subject in DEMO_SUBJECTS:
                result = pipeline.run(subject)
                assert result.success, [str(e.event_specific_data) for e in result.all_events if e.is_failure]


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> DemoRun:
    """The demo's five subjects, run once for the whole session (every worker's)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        root = tmp_path_factory.mktemp("demo-run")
        _run_the_demo(root)
        return DemoRun(root)
    shared = tmp_path_factory.getbasetemp().parent  # the session's directory, common to its workers
    root = shared / "demo-run"
    with FileLock(str(shared / "demo-run.lock")):
        if not (shared / "demo-run.done").exists():
            if root.exists():  # a worker failed half-way: start again
                import shutil

                shutil.rmtree(root)
            _run_the_demo(root)
            (shared / "demo-run.done").touch()
    return DemoRun(root)
