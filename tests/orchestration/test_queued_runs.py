"""Queued runs on PostgreSQL with the daemon, as a shared deployment runs them:
the shipped deploy/dagster.postgres.yaml, the CLI backfill submitting every
partition at once, the default run launcher starting each run in its own
process."""

from __future__ import annotations

import os
import re
import resource
import signal
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import dagster as dg
import pytest

from reliability_core.models import CLAIM_TYPES, Report
from reliability_core.scores.peers import PeerFigures, record_peer_figures
from reliability_core.warehouse import Warehouse, tables
from reliability_dagster.pools import PROVIDER_POOLS
from tests.orchestration.conftest import Pipeline, make_resources
from tests.orchestration.queued import Deployment, copy_registry, queued_deployment

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

DEMO = ["northwind-energy", "clearwater-evaluators", "amara-okafor", "lars-vinter", "jonas-pike"]


def _in_flight_peaks(probe: Path) -> dict[str, int]:
    """The most calls any provider had in flight at once, from the probe's ``pool start end pid`` lines."""
    events: dict[str, list[tuple[float, int]]] = {}
    for line in probe.read_text().splitlines():
        pool, start, end, _ = line.split()
        events.setdefault(pool, []).extend([(float(start), 1), (float(end), -1)])
    peaks = {}
    for pool, points in events.items():
        level = peak = 0
        for _, step in sorted(points, key=lambda p: (p[0], p[1])):  # an end before a start at the same instant
            level += step
            peak = max(peak, level)
        peaks[pool] = peak
    return peaks


def _failures(deployment: Deployment, runs: list[dg.DagsterRun]) -> list[str]:
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


def test_with_a_pool_limit_of_two_six_runs_never_put_more_than_two_calls_in_flight_at_any_provider(
    require_postgres: None, tmp_path: Path
) -> None:
    probe = tmp_path / "probe.log"
    # Two covered subjects call all four providers; four refused ones call Anthropic and
    # Perplexity for their coverage decision, all six at once at the start.
    originals = ["clearwater-evaluators", "amara-okafor", "lars-vinter", "jonas-pike", "lars-vinter", "jonas-pike"]
    subjects = [f"pool-{i}" for i in range(6)]
    data = copy_registry(tmp_path, dict(zip(subjects, originals, strict=True)))
    env = {"RELIABILITY_TEST_POOLED": "1", "RELIABILITY_TEST_PROBE": str(probe), "RELIABILITY_TEST_MODEL_LATENCY": "0.02"}
    with queued_deployment(tmp_path, data_dir=data, env=env) as deployment:
        for pool in PROVIDER_POOLS:
            deployment.instance.event_log_storage.set_concurrency_slots(pool, 2)
        started = time.monotonic()
        deployment.backfill(subjects)
        runs = deployment.wait_for_runs(len(subjects), timeout=900)
        wall = time.monotonic() - started
        assert not _failures(deployment, runs), _failures(deployment, runs)
        peaks = _in_flight_peaks(probe)
        print(f"6 runs, pool limit 2: {wall:.0f} s wall; in flight at most {peaks}")
        assert set(peaks) == set(PROVIDER_POOLS), "every provider was called"
        assert all(peak <= 2 for peak in peaks.values()), peaks
        assert all(peak == 2 for peak in peaks.values()), "the runs overlapped enough to reach every limit"
        for pool in PROVIDER_POOLS:
            info = deployment.instance.event_log_storage.get_concurrency_info(pool)
            assert not info.claimed_slots and not info.pending_steps, (pool, info)


def _pid_of(deployment: Deployment, run_id: str) -> int | None:
    for entry in deployment.instance.all_logs(run_id):
        if entry.dagster_event is not None and entry.dagster_event.pid:
            return int(entry.dagster_event.pid)
    return None


def _step_started(deployment: Deployment, partition: str, step: str) -> bool:
    for run in deployment.instance.get_runs(filters=dg.RunsFilter(tags={"dagster/partition": partition})):
        for entry in deployment.instance.all_logs(run.run_id):
            event = entry.dagster_event
            if event is not None and event.event_type_value == "STEP_START" and event.step_key == step:
                return True
    return False


def _wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"not within {timeout:.0f} s: {what}")


def test_a_run_killed_with_sigkill_is_marked_failed_and_the_run_waiting_on_its_slot_proceeds(
    require_postgres: None, tmp_path: Path
) -> None:
    # Every call takes 2 s, so the first run holds the only anthropic slot for seconds at a time;
    # the second is a refused subject (two anthropic calls), quick once it gets the slot.
    data = copy_registry(tmp_path, {"kill-first": "northwind-energy", "kill-second": "lars-vinter"})
    env = {"RELIABILITY_TEST_POOLED": "1", "RELIABILITY_TEST_MODEL_LATENCY": "2"}
    with queued_deployment(tmp_path, data_dir=data, env=env) as deployment:
        storage = deployment.instance.event_log_storage
        storage.set_concurrency_slots("anthropic", 1)

        def holders() -> set[str]:
            return {c.run_id for c in storage.get_concurrency_info("anthropic").claimed_slots}

        deployment.backfill(["kill-first"])
        _wait_until(lambda: bool(holders()), 600, "the first run holds the anthropic slot")
        (first,) = holders()
        deployment.backfill(["kill-second"])
        _wait_until(
            lambda: _step_started(deployment, "kill-second", "subject_coverage"), 600, "the second run needs the slot"
        )
        time.sleep(5)  # its first anthropic call is waiting: the first run keeps the only slot busy
        _wait_until(lambda: holders() == {first}, 60, "the first run holds the slot")
        pid = _pid_of(deployment, first)
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        assert first in holders(), "the killed run died holding the slot"

        runs = {r.run_id: r for r in deployment.wait_for_runs(2, timeout=600)}
        assert runs[first].status == dg.DagsterRunStatus.FAILURE, "the killed run is marked failed"
        (second,) = [r for run_id, r in runs.items() if run_id != first]
        assert second.status == dg.DagsterRunStatus.SUCCESS, _failures(deployment, [second])
        _wait_until(lambda: first not in holders(), 60, "the dead run's slot is freed")


# --- 20 subjects at once against a serial run --------------------------------------------

# Messages of the errors concurrent runs could raise on a shared instance or warehouse: PostgreSQL's
# deadlock, serialisation and lock-timeout failures (psycopg2 and SQLAlchemy spellings), SQLite's
# lock, and the ledger's refusal of a second body under an id.
_LOCK_ERRORS = re.compile(
    r"deadlock detected|could not serialize|SerializationFailure|LockNotAvailable|lock timeout"
    r"|could not obtain lock|database is locked|LedgerConflictError",
    re.IGNORECASE,
)


def _run_messages(deployment: Deployment, runs: list[dg.DagsterRun]) -> list[str]:
    """Every event message of the runs, with the text of any error they carry."""
    messages = []
    for run in runs:
        for entry in deployment.instance.all_logs(run.run_id):
            messages.append(entry.user_message or "")
            error = getattr(getattr(entry.dagster_event, "event_specific_data", None), "error", None)
            if error is not None:
                messages.append(error.to_string())
    return messages


def _table_rows(store: Warehouse) -> dict[tuple[str, str], Counter[str]]:
    """Every row of every table partition, as its stored JSON, counted."""
    rows = {}
    for table in store.tables():
        for subject in store.subjects(table):
            data = store.read_arrow(table, subject, columns=["_json"])
            rows[(table, subject)] = Counter(data.column("_json").to_pylist() if data is not None else [])
    return rows


def _ledger_records(store: Warehouse) -> dict[str, bytes]:
    """Every ledger record (``table/subject=.../id.json``) and its body."""
    base = Path(store.root) / "_ledger"
    return {str(p.relative_to(base)): p.read_bytes() for p in sorted(base.rglob("*.json"))}


def _pg_conflicts(database: str) -> tuple[int, int]:
    """PostgreSQL's own count of deadlocks and recovery conflicts in ``database`` since it was created."""
    import psycopg2

    with psycopg2.connect(host="127.0.0.1", port=5432, user="postgres", dbname="postgres") as connection, \
            connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT deadlocks, conflicts FROM pg_stat_database WHERE datname = %s", (database,))
        deadlocks, conflicts = cursor.fetchone()
    return int(deadlocks), int(conflicts)


def _seed_peers(store: Warehouse) -> None:
    """Figures of 24 earlier subjects of each demo kind, published the day before the runs, so
    every covered report's prior is its peers' average (20 or more of one kind) and the runs
    race to build the day's peer snapshot."""
    for kind in ("company", "nonprofit", "public_figure", "politician"):
        for i in range(24):
            record_peer_figures(store, PeerFigures(
                subject_id=f"peer-{kind.replace('_', '-')}-{i:02d}", kind=kind, report_id=f"rpt_peer{i:02d}",
                generated_at=datetime(2026, 11, 29, 12, 0, tzinfo=UTC),
                scores={t: 30.0 + 2 * i + 5 * n for n, t in enumerate(CLAIM_TYPES)},
            ))


def test_twenty_subjects_submitted_at_once_on_postgres_match_a_serial_run_row_for_row(
    require_postgres: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Four copies of each demo subject under new ids (12 covered, 8 refused), the mix of the demo.
    copies = {f"batch-{i:02d}": DEMO[i % len(DEMO)] for i in range(20)}
    subjects = sorted(copies)
    data = copy_registry(tmp_path, copies)

    # The serial run: the same 20 subjects one after another, in process, in a warehouse of its own.
    serial_root = tmp_path / "serial"
    monkeypatch.setenv("RELIABILITY_DATA_DIR", str(data))
    for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PERPLEXITY_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    _seed_peers(Warehouse(str(serial_root / "warehouse")))
    started = time.monotonic()
    with dg.DagsterInstance.ephemeral() as instance:
        serial = Pipeline(root=serial_root, instance=instance, resources=make_resources(serial_root))
        for subject in subjects:
            assert serial.run(subject).success, subject
    serial_wall = time.monotonic() - started

    # The same 20 submitted at once to the queue on PostgreSQL, launched by the daemon.
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with queued_deployment(tmp_path, data_dir=data) as deployment:
        database = deployment.env["DAGSTER_PG_DB"]
        _seed_peers(Warehouse(str(deployment.root / "warehouse")))
        started = time.monotonic()
        deployment.backfill(subjects)
        runs = deployment.wait_for_runs(len(subjects), timeout=1200)
        queued_wall = time.monotonic() - started
        failures = _failures(deployment, runs)
        records = deployment.instance.get_run_records()
        waits = [r.start_time - r.create_timestamp.timestamp() for r in records if r.start_time]
        durations = [r.end_time - r.start_time for r in records if r.start_time and r.end_time]
        messages = [*_run_messages(deployment, runs), deployment.daemon_output()]
        concurrent = Warehouse(str(deployment.root / "warehouse"))
        deadlocks, conflicts = _pg_conflicts(database)
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
    print(
        f"20 subjects queued on PostgreSQL: {queued_wall:.0f} s wall, {cpu:.0f} s CPU in the daemon, code server "
        f"and runs, {len(failures)} failed; queued before start {min(waits):.0f}-{max(waits):.0f} s, run "
        f"{min(durations):.0f}-{max(durations):.0f} s each; the same 20 serially in process: {serial_wall:.0f} s wall"
    )

    assert len(runs) == len(subjects)
    assert sorted(r.tags.get("dagster/partition", "") for r in runs) == subjects, "one run per subject"
    assert not failures, failures
    lock_errors = [m[:300] for m in messages if _LOCK_ERRORS.search(m)]
    assert not lock_errors, lock_errors
    assert (deadlocks, conflicts) == (0, 0), "PostgreSQL counted deadlocks or conflicts"

    reference = serial.warehouse
    priors = {t.prior.source for s in subjects for t in serial.report(s).type_scores}
    assert any(p.startswith("mean of") for p in priors), f"no report took its peers' prior: {priors}"
    for subject in subjects:
        stored = concurrent.read(tables.REPORTS, subject, Report)
        assert len(stored) == 1, f"{subject}: {len(stored)} reports"
        assert stored[0].content_hash == serial.report(subject).content_hash, subject

    # Row for row: every table partition holds the serial run's rows, each once (nothing lost,
    # nothing duplicated), and every ledger the serial run's records with the same bodies.
    serial_rows, concurrent_rows = _table_rows(reference), _table_rows(concurrent)
    assert set(concurrent_rows) == set(serial_rows)
    assert {subject for _, subject in serial_rows} >= set(subjects)
    for key, rows in serial_rows.items():
        assert concurrent_rows[key] == rows, f"{key}: rows differ from the serial run"
        assert all(n == 1 for n in concurrent_rows[key].values()), f"{key}: duplicate rows"
    serial_ledger, concurrent_ledger = _ledger_records(reference), _ledger_records(concurrent)
    assert serial_ledger, "the runs wrote ledger records"
    assert concurrent_ledger.keys() == serial_ledger.keys()
    changed = [key for key, body in serial_ledger.items() if concurrent_ledger[key] != body]
    assert not changed, changed[:5]
