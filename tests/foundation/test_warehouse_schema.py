"""[#27 A1] Every partition of a table has the table's one schema, whatever the subject's
outcome: an empty partition included, a field that is None included. DuckDB reads each
table as one relation through the README's query and through a plain ``read_parquet``
glob. A warehouse written before is read without loss and migrated in place."""

import ast
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from reliability_core.models import Record
from reliability_core.records import TABLE_MODELS
from reliability_core.warehouse import Warehouse, tables
from reliability_core.warehouse.schema import arrow_schema
from reliability_core.warehouse.store import PartitionSchemaError, UndeclaredTableError


class Score(Record):
    subject_id: str
    name: str
    share: float | None = None
    count: int | None = None
    parts: tuple[str, ...] = ()
    label: str | int = ""


def _plain_duckdb(root: Path, table: str) -> list[tuple[object, ...]]:
    glob = str(root / table / "*" / "*.parquet")
    return duckdb.sql(
        f"select subject, share from read_parquet('{glob}', hive_partitioning=true) order by subject"
    ).fetchall()


def _readme_query(root: Path) -> list[tuple[object, ...]]:
    """The README's query: ``Warehouse(...).connect().sql(...)``."""
    return Warehouse(str(root)).connect().sql("select subject, share from scores order by subject").fetchall()


def test_partitions_of_every_outcome_have_the_tables_one_schema(tmp_path: Path) -> None:
    warehouse = Warehouse(str(tmp_path), {"scores": Score})
    warehouse.write("scores", "covered", [Score(subject_id="covered", name="a", share=0.5, count=2, label=3)])
    warehouse.write("scores", "absent", [Score(subject_id="absent", name="b")])  # every optional value None
    warehouse.write("scores", "refused", [])  # a subject refused coverage
    schemas = {s: pq.read_schema(warehouse.partition_path("scores", s)) for s in warehouse.subjects("scores")}
    for schema in schemas.values():
        assert schema.remove_metadata().equals(arrow_schema(Score))
    assert schemas["absent"].field("share").type == pa.float64()
    # The README's query and a plain DuckDB glob over the files both read the table.
    rows = _readme_query(tmp_path)
    assert rows == [("absent", None), ("covered", 0.5)]
    assert _plain_duckdb(tmp_path, "scores") == rows


def test_an_empty_partition_of_an_undeclared_table_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UndeclaredTableError):
        Warehouse(str(tmp_path)).write("scores", "refused", [])
    assert Warehouse(str(tmp_path)).subjects("scores") == []


def test_every_warehouse_table_declares_its_record_model() -> None:
    """Each table name in ``tables`` (but the ledgers, which hold JSON files) has a model."""
    source = Path(tables.__file__).read_text()
    names = [
        node.targets[0].id
        for node in ast.parse(source).body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    ]
    declared = {getattr(tables, n) for n in names if not n.endswith("_LEDGER")}
    assert declared == set(TABLE_MODELS)


def _old_partition(root: Path, table: str, subject: str, columns: dict[str, pa.Array]) -> None:
    directory = root / table / f"subject={subject}"
    directory.mkdir(parents=True)
    pq.write_table(pa.table(columns), directory / "part.parquet")


def _old_warehouse(root: Path) -> Score:
    """Partitions as the writer wrote them before: an empty one with only ``_json`` and
    ``subject_id``, and a None float typed as text."""
    kept = Score(subject_id="absent", name="b")
    _old_partition(
        root,
        "scores",
        "refused",
        {"_json": pa.array([], pa.string()), "subject_id": pa.array([], pa.string())},
    )
    _old_partition(
        root,
        "scores",
        "absent",
        {
            "subject_id": pa.array(["absent"]),
            "name": pa.array(["b"]),
            "share": pa.array([None], pa.string()),
            "_json": pa.array([kept.model_dump_json()]),
        },
    )
    Warehouse(str(root), {"scores": Score}).write(
        "scores", "covered", [Score(subject_id="covered", name="a", share=0.5)]
    )
    return kept


def test_a_warehouse_written_before_reads_and_migrates_without_loss(tmp_path: Path) -> None:
    kept = _old_warehouse(tmp_path)
    # connect() reads the old partitions: a column without values takes the table's type.
    rows = _readme_query(tmp_path)
    assert rows == [("absent", None), ("covered", 0.5)]
    with pytest.raises(duckdb.Error):
        _plain_duckdb(tmp_path, "scores")

    migrated = Warehouse(str(tmp_path), {"scores": Score}).migrate()
    assert sorted(Path(p).parent.name for p in migrated) == ["subject=absent", "subject=refused"]
    assert _plain_duckdb(tmp_path, "scores") == rows
    assert Warehouse(str(tmp_path)).read("scores", "absent", Score) == [kept]
    assert Warehouse(str(tmp_path), {"scores": Score}).migrate() == []


def test_a_column_with_values_of_two_types_names_the_partition_and_the_fix(tmp_path: Path) -> None:
    _old_partition(tmp_path, "scores", "old", {"share": pa.array(["0.5"]), "_json": pa.array(["{}"])})
    Warehouse(str(tmp_path), {"scores": Score}).write(
        "scores", "new", [Score(subject_id="new", name="a", share=0.5)]
    )
    with pytest.raises(
        PartitionSchemaError, match=r"subject=(old|new)/part.parquet.*reliability warehouse migrate"
    ):
        Warehouse(str(tmp_path)).connect()
