"""20 subjects submitted at once to the queue on PostgreSQL, launched by the daemon, against a
serial run of the same 20 (the shipped deploy/dagster.postgres.yaml, the CLI backfill, the
default run launcher). In a file of its own, apart from the other queued-run tests, because
`make test` hands a worker one file at a time: this one test takes about five minutes."""

from __future__ import annotations

import json
import re
import resource
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import dagster as dg
import pytest

from reliability_core.models import CLAIM_TYPES, Report
from reliability_core.scores.peers import PeerFigures, record_peer_figures
from reliability_core.stewardship.steward import DRAWS_LEDGER as STEWARD_DRAWS
from reliability_core.warehouse import Warehouse, tables
from tests.orchestration.conftest import Pipeline, make_resources
from tests.orchestration.queued import Deployment, copy_registry, queued_deployment
from tests.orchestration.queued import run_failures as _failures

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

DEMO = ["northwind-energy", "clearwater-evaluators", "amara-okafor", "lars-vinter", "jonas-pike"]


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
        assert all(n == 1 for n in concurrent_rows[key].values()), f"{key}: duplicate rows"
        if key[0] == tables.STEWARD_QUEUE:
            # The steward's random 10% is drawn with a fresh seed on every build, by design
            # (a predictable sample can be gamed): the same claims are queued as disputed or
            # held, and as many are sampled, but not the same ones.
            assert _queue_shape(concurrent_rows[key]) == _queue_shape(rows), f"{key}: queue differs"
            continue
        assert concurrent_rows[key] == rows, f"{key}: rows differ from the serial run"
    serial_ledger, concurrent_ledger = _ledger_records(reference), _ledger_records(concurrent)
    assert serial_ledger, "the runs wrote ledger records"
    # Each build records its draw under an id of its fresh seed: as many draws, each once.
    draws = f"{STEWARD_DRAWS}/"
    assert Counter(k.split("/")[0] for k in concurrent_ledger if k.startswith(draws)) == Counter(
        k.split("/")[0] for k in serial_ledger if k.startswith(draws)
    )
    serial_ledger = {k: v for k, v in serial_ledger.items() if not k.startswith(draws)}
    concurrent_ledger = {k: v for k, v in concurrent_ledger.items() if not k.startswith(draws)}
    assert concurrent_ledger.keys() == serial_ledger.keys()
    changed = [key for key, body in serial_ledger.items() if concurrent_ledger[key] != body]
    assert not changed, changed[:5]


def _queue_shape(rows: Counter[str]) -> tuple[Counter[tuple[str, tuple[str, ...]]], int]:
    """A steward queue partition without its random draw: each claim queued as disputed or
    held with those reasons, and how many were drawn at random."""
    items = [json.loads(row) for row in rows.elements()]
    fixed = Counter(
        (i["claim_id"], tuple(sorted(r for r in i["reasons"] if r != "random_sample")))
        for i in items
        if set(i["reasons"]) - {"random_sample"}
    )
    return fixed, sum(1 for i in items if "random_sample" in i["reasons"])
