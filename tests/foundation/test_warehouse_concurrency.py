"""Several processes write different subject partitions while another reads:
nothing fails and nothing is lost (the reason the warehouse is Parquet per
partition and not one shared DuckDB file)."""

import multiprocessing as mp
from datetime import UTC, datetime
from pathlib import Path

import pytest

from reliability_core.models import SearchResult, SearchResultSet
from reliability_core.warehouse import Ledger, Warehouse

WRITERS = 4
ROUNDS = 15


def _records(subject: str, round_no: int) -> list[SearchResultSet]:
    return [
        SearchResultSet(
            id=f"srs_{subject}_{round_no}_{i}",
            subject_id=subject,
            purpose="candidates",
            query="q",
            provider="offline-search",
            retrieved_at=datetime(2026, 11, 30, tzinfo=UTC),
            results=[SearchResult(url=f"https://{subject}.example/{round_no}/{i}", title="t", rank=1)],
            method_version="0.1.0+test",
        )
        for i in range(round_no + 1)
    ]


def _writer(root: str, subject: str) -> None:
    warehouse = Warehouse(root)
    ledger = Ledger(warehouse)
    for round_no in range(ROUNDS):
        records = _records(subject, round_no)
        warehouse.write("search_results", subject, records)
        ledger.append("snapshots", subject, [(r.id, r) for r in records])


def _reader(root: str, stop: "mp.synchronize.Event", errors: "mp.Queue[str]") -> None:
    warehouse = Warehouse(root)
    try:
        while not stop.is_set():
            if warehouse.tables():
                con = warehouse.connect()
                con.execute("SELECT count(*) FROM search_results").fetchall()
                con.close()
    except Exception as error:  # surfaced to the test, which fails on it
        errors.put(repr(error))


@pytest.mark.slow
def test_concurrent_partition_writers_and_a_reader_lose_nothing(tmp_path: Path) -> None:
    root = str(tmp_path / "warehouse")
    ctx = mp.get_context("spawn")
    stop = ctx.Event()
    errors: mp.Queue[str] = ctx.Queue()
    reader = ctx.Process(target=_reader, args=(root, stop, errors))
    reader.start()
    writers = [ctx.Process(target=_writer, args=(root, f"subject-{n}")) for n in range(WRITERS)]
    for process in writers:
        process.start()
    for process in writers:
        process.join(timeout=120)
    stop.set()
    reader.join(timeout=60)

    assert [p.exitcode for p in writers] == [0] * WRITERS
    assert reader.exitcode == 0
    assert errors.empty(), errors.get()

    warehouse = Warehouse(root)
    ledger = Ledger(warehouse)
    for n in range(WRITERS):
        subject = f"subject-{n}"
        assert len(warehouse.read("search_results", subject, SearchResultSet)) == ROUNDS
        assert len(ledger.read_all("snapshots", subject, SearchResultSet)) == ROUNDS * (ROUNDS + 1) // 2
    con = warehouse.connect()
    assert con.execute("SELECT count(*) FROM search_results").fetchone() == (WRITERS * ROUNDS,)
    # no temporary files left behind by the atomic writes
    assert not list(Path(root).rglob(".tmp-*")) and not list(Path(root).rglob("*.tmp-*"))
