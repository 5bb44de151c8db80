"""A crash's leftovers and one corrupt file stay local (issue 26 items 2 and 5).

A process killed between a temporary's create and its rename leaves the temporary
behind; a disk or a hand can damage one partition file. Neither may break a reader of
the other partitions, and the next write clears or replaces what was left."""

import logging
import os
import time
from pathlib import Path

import duckdb
import pyarrow.fs as pafs
import pytest

from reliability_core.models import SearchResultSet
from reliability_core.providers.cache import ResponseCache
from reliability_core.warehouse import Ledger, Warehouse
from reliability_core.warehouse.store import QUARANTINE_DIR, CorruptPartitionError
from reliability_core.warehouse.temporaries import TEMPORARY_DIR, sweep_stale_temporaries
from tests.foundation.test_warehouse import _result_set  # one builder of a stored search result

TABLE = "search_results"


def _age(path: Path, hours: float) -> None:
    then = time.time() - hours * 3600
    os.utime(path, (then, then))


def _plain_duckdb_rows(warehouse: Warehouse, table: str) -> int:
    glob = f"{warehouse.base}/{table}/**/*.parquet"
    query = f"SELECT count(*) FROM read_parquet('{glob}', hive_partitioning=true, union_by_name=true)"
    return int(duckdb.sql(query).fetchall()[0][0])


# --- item 2: temporaries -------------------------------------------------------------


def test_a_write_leaves_no_temporary_where_a_reader_globs(warehouse: Warehouse) -> None:
    warehouse.write(TABLE, "acme", [_result_set("acme", 2)])
    table_dir = Path(warehouse.table_dir(TABLE))
    assert [p.name for p in table_dir.rglob("*") if p.is_file()] == ["part.parquet"]
    assert warehouse.tables() == [TABLE]  # the _tmp folder is no table


def test_a_crashed_writers_parquet_temporary_breaks_no_reader_and_the_next_write_removes_it(
    warehouse: Warehouse,
) -> None:
    warehouse.write(TABLE, "acme", [_result_set("acme", 2)])
    warehouse.write(TABLE, "globex", [_result_set("globex", 1)])
    # What an older version left when killed between create and rename: 0 bytes in the table.
    leftover = Path(warehouse.partition_dir(TABLE, "acme")) / ".tmp-x.parquet"
    leftover.touch()
    # The same kill with this version leaves its temporary in _tmp, outside every table.
    stale = Path(warehouse.base) / TEMPORARY_DIR / "dead.tmp"
    stale.touch()
    _age(stale, hours=2)
    fresh = Path(warehouse.base) / TEMPORARY_DIR / "live.tmp"  # another writer's, right now
    fresh.touch()

    assert len(warehouse.read(TABLE, "acme", SearchResultSet)) == 1
    assert warehouse.connect().execute(f"select count(*) from {TABLE}").fetchall() == [(2,)]
    leftover.unlink()  # (a plain DuckDB glob fails on the old name: that is why it moved)
    assert _plain_duckdb_rows(warehouse, TABLE) == 2
    leftover.touch()

    warehouse.write(TABLE, "acme", [_result_set("acme", 3)])
    assert not leftover.exists() and not stale.exists()
    assert fresh.exists()  # younger than an hour: maybe a live writer's, kept
    assert _plain_duckdb_rows(warehouse, TABLE) == 2


def test_a_ledger_write_removes_stale_temporaries_and_an_older_versions_leftovers(
    warehouse: Warehouse, ledger: Ledger
) -> None:
    ledger.append("responses", "acme", [("r1", _result_set("acme", 1))])
    folder = Path(warehouse.base) / "_ledger" / "responses" / "subject=acme"
    old_style = folder / "r2.json.tmp-0123abcd"
    old_style.touch()
    stale = Path(warehouse.base) / TEMPORARY_DIR / "dead.tmp"
    stale.touch()
    _age(stale, hours=2)
    assert [r.id for r in ledger.read_all("responses", "acme", SearchResultSet)] == ["srs_acme_1"]

    ledger.append("responses", "acme", [("r3", _result_set("acme", 3))])
    assert not old_style.exists() and not stale.exists()
    assert sorted(p.name for p in folder.iterdir()) == ["r1.json", "r3.json"]


def test_a_cache_write_removes_stale_temporaries_and_writes_none_beside_the_entries(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache")
    key = "ab" + "0" * 62
    cache.put(key, {"answer": 1})
    old_style = tmp_path / "cache" / "ab" / ".abcdef01.x1y2.tmp"
    old_style.touch()
    stale = tmp_path / "cache" / TEMPORARY_DIR / "dead.tmp"
    stale.touch()
    _age(stale, hours=2)

    ResponseCache(tmp_path / "cache").put("ab" + "1" * 62, {"answer": 2})  # the next process
    assert not old_style.exists() and not stale.exists()
    assert sorted(p.name for p in (tmp_path / "cache" / "ab").iterdir()) == [f"{key}.json", "ab" + "1" * 62 + ".json"]
    assert cache.get(key) == {"answer": 1}


def test_sweeping_keeps_young_temporaries_and_tolerates_a_missing_folder(tmp_path: Path) -> None:
    fs = pafs.LocalFileSystem()
    assert sweep_stale_temporaries(fs, str(tmp_path / "absent")) == []
    (tmp_path / "young.tmp").touch()
    old = tmp_path / "old.tmp"
    old.touch()
    _age(old, hours=1.5)
    assert sweep_stale_temporaries(fs, str(tmp_path)) == [str(old)]
    assert (tmp_path / "young.tmp").exists()


# --- item 5: one corrupt partition ---------------------------------------------------


def _corrupt(warehouse: Warehouse, subject: str, data: bytes = b"not parquet at all") -> Path:
    path = Path(warehouse.partition_path(TABLE, subject))
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("data", [b"", b"not parquet at all"])
def test_a_corrupt_partition_is_named_in_the_error(warehouse: Warehouse, data: bytes) -> None:
    warehouse.write(TABLE, "acme", [_result_set("acme", 2)])
    path = _corrupt(warehouse, "acme", data)
    with pytest.raises(CorruptPartitionError) as raised:
        warehouse.read(TABLE, "acme", SearchResultSet)
    assert str(path) in str(raised.value) and "'acme'" in str(raised.value)
    assert raised.value.path == str(path)


def test_a_partition_damaged_inside_is_named_too(warehouse: Warehouse) -> None:
    warehouse.write(TABLE, "acme", [_result_set("acme", 40)])
    path = Path(warehouse.partition_path(TABLE, "acme"))
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] + data[-8:])  # a hole in the middle, the magic intact
    with pytest.raises(CorruptPartitionError, match=r"part\.parquet"):
        warehouse.read_arrow(TABLE, "acme")


def test_connect_serves_every_other_subject_and_names_the_corrupt_file(
    warehouse: Warehouse, caplog: pytest.LogCaptureFixture
) -> None:
    warehouse.write(TABLE, "acme", [_result_set("acme", 2)])
    warehouse.write(TABLE, "globex", [_result_set("globex", 1), _result_set("globex", 2)])
    path = _corrupt(warehouse, "acme")
    with caplog.at_level(logging.WARNING):
        con = warehouse.connect()
    assert con.execute(f"select distinct subject from {TABLE}").fetchall() == [("globex",)]
    assert str(path) in caplog.text
    with pytest.raises(CorruptPartitionError):
        warehouse.read_table(TABLE)  # a reader that did not ask to skip is told


def test_the_next_write_replaces_a_corrupt_partition_and_keeps_the_damaged_file(warehouse: Warehouse) -> None:
    warehouse.write(TABLE, "acme", [_result_set("acme", 2)])
    _corrupt(warehouse, "acme")
    # A writer that rewrites the partition from its own contents (as publishing a report does).
    kept = warehouse.read_or_set_aside(TABLE, "acme", SearchResultSet)
    assert kept == []
    warehouse.write(TABLE, "acme", [*kept, _result_set("acme", 5)])
    assert [len(r.results) for r in warehouse.read(TABLE, "acme", SearchResultSet)] == [5]
    quarantined = list((Path(warehouse.base) / QUARANTINE_DIR / TABLE / "subject=acme").iterdir())
    assert [p.read_bytes() for p in quarantined] == [b"not parquet at all"]
    assert warehouse.tables() == [TABLE]
    assert _plain_duckdb_rows(warehouse, TABLE) == 1
