"""[#27 A1] After a covered and a refused subject's runs, every table reads as one relation
through the README's query (``Warehouse(...).connect()``) and through plain DuckDB
(``read_parquet(..., hive_partitioning=true)``), and every partition has its table's schema."""

from pathlib import Path

import duckdb
import pyarrow.parquet as pq

from reliability_core.records import TABLE_MODELS
from reliability_core.warehouse import Warehouse
from reliability_core.warehouse.schema import arrow_schema
from tests.orchestration.conftest import Pipeline


def test_every_table_reads_whole_whatever_each_subjects_outcome(pipeline: Pipeline) -> None:
    for subject in ("northwind-energy", "jonas-pike"):  # covered; a private person, refused
        assert pipeline.run(subject).success
    root = pipeline.root / "warehouse"
    warehouse = Warehouse(str(root))
    assert pipeline.report("jonas-pike").covered is False
    checked = 0
    connection = warehouse.connect()
    for table in warehouse.tables():
        for subject in warehouse.subjects(table):
            found = pq.read_schema(warehouse.partition_path(table, subject)).remove_metadata()
            assert found.equals(arrow_schema(TABLE_MODELS[table])), (table, subject)
        readme = connection.sql(f"select subject, count(*) from {table} group by 1").fetchall()
        glob = Path(root, table, "*", "*.parquet")
        plain = duckdb.sql(
            f"select subject, count(*) from read_parquet('{glob}', hive_partitioning=true) group by 1"
        ).fetchall()
        assert sorted(readme) == sorted(plain), table
        checked += 1
    assert checked >= 20
    assert pipeline.report("northwind-energy").covered
    assert {"jonas-pike", "northwind-energy"} <= set(warehouse.subjects("verdicts"))
