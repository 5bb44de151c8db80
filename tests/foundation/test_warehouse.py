from datetime import UTC, date, datetime

import pytest

from reliability_core.models import CriteriaLevels, ResolutionCriteria, SearchResult, SearchResultSet
from reliability_core.warehouse import Ledger, LedgerConflictError, Warehouse


def _result_set(subject: str, n: int) -> SearchResultSet:
    return SearchResultSet(
        id=f"srs_{subject}_{n}",
        subject_id=subject,
        purpose="candidates",
        query=f"{subject} interview",
        provider="offline-search",
        retrieved_at=datetime(2026, 11, 30, tzinfo=UTC),
        results=[SearchResult(url=f"https://{subject}.example/{i}", title=str(i), rank=i) for i in range(n)],
        method_version="0.1.0+test",
    )


def _criteria(claim_id: str, true_text: str) -> ResolutionCriteria:
    return ResolutionCriteria(
        id=f"crit_{claim_id}",
        claim_id=claim_id,
        subject_id="acme",
        levels=CriteriaLevels(true=true_text, mostly_true="m", mixed="x", mostly_false="mf", false="f"),
        judge_at=date(2026, 1, 1),
        written_at=datetime(2026, 11, 30, tzinfo=UTC),
        written_by="offline-rules",
        content_hash="h",
        method_version="0.1.0+test",
    )


def test_partition_round_trips_exact_records(warehouse: Warehouse) -> None:
    records = [_result_set("acme", 3), _result_set("acme", 0)]
    warehouse.write("search_results", "acme", records)
    assert warehouse.read("search_results", "acme", SearchResultSet) == records


def test_rewriting_a_partition_replaces_it_and_leaves_others(warehouse: Warehouse) -> None:
    warehouse.write("search_results", "acme", [_result_set("acme", 3)])
    warehouse.write("search_results", "globex", [_result_set("globex", 2)])
    warehouse.write("search_results", "acme", [_result_set("acme", 1)])
    assert [len(r.results) for r in warehouse.read("search_results", "acme", SearchResultSet)] == [1]
    assert warehouse.subjects("search_results") == ["acme", "globex"]


def test_unwritten_partition_reads_empty(warehouse: Warehouse) -> None:
    assert warehouse.read("search_results", "nobody", SearchResultSet) == []
    warehouse.write("search_results", "empty", [], SearchResultSet)
    assert warehouse.read("search_results", "empty", SearchResultSet) == []


def test_duckdb_views_span_all_subjects(warehouse: Warehouse) -> None:
    warehouse.write("search_results", "acme", [_result_set("acme", 3)])
    warehouse.write("search_results", "globex", [_result_set("globex", 2), _result_set("globex", 1)])
    warehouse.write("search_results", "empty", [], SearchResultSet)
    con = warehouse.connect()
    rows = con.execute(
        "SELECT subject_id, count(*) FROM search_results WHERE subject_id IS NOT NULL GROUP BY 1 ORDER BY 1"
    ).fetchall()
    assert rows == [("acme", 1), ("globex", 2)]



def test_a_table_reads_as_a_dataframe_with_the_columns_of_its_duckdb_relation(warehouse: Warehouse) -> None:
    warehouse.write("search_results", "acme", [_result_set("acme", 3)])
    warehouse.write("search_results", "globex", [_result_set("globex", 2), _result_set("globex", 1)])
    frame = warehouse.dataframe("search_results")
    relation = warehouse.connect().sql("select * from search_results")
    assert list(frame.columns) == relation.columns
    assert sorted(zip(frame["subject"], frame["id"], strict=True)) == [
        ("acme", "srs_acme_3"), ("globex", "srs_globex_1"), ("globex", "srs_globex_2")
    ]
    one = warehouse.dataframe("search_results", "globex")
    assert set(one["subject"]) == {"globex"} and len(one) == 2
    # Nested values are JSON text, as in DuckDB; the whole record is in _json.
    assert SearchResultSet.model_validate_json(one["_json"].iloc[0]).subject_id == "globex"


def test_a_table_without_partitions_is_an_empty_dataframe(warehouse: Warehouse) -> None:
    assert warehouse.dataframe("never_written").empty
    assert warehouse.dataframe("search_results", "nobody").empty

def test_ledger_identical_rewrite_is_a_no_op(ledger: Ledger) -> None:
    first = ledger.append("criteria", "acme", [("crit_1", _criteria("c1", "t"))])
    again = ledger.append("criteria", "acme", [("crit_1", _criteria("c1", "t"))])
    assert (first.written, again.written, again.unchanged) == (1, 0, 1)


def test_ledger_refuses_a_different_body_under_an_existing_id(ledger: Ledger) -> None:
    ledger.append("criteria", "acme", [("crit_1", _criteria("c1", "t"))])
    with pytest.raises(LedgerConflictError, match="never rewritten"):
        ledger.append("criteria", "acme", [("crit_1", _criteria("c1", "changed"))])
    stored = ledger.get("criteria", "acme", "crit_1", ResolutionCriteria)
    assert stored is not None and stored.levels.true == "t"


def test_ledger_rejects_path_traversal_ids(ledger: Ledger) -> None:
    with pytest.raises(ValueError, match="unsafe"):
        ledger.append("criteria", "acme", [("../x", _criteria("c1", "t"))])
