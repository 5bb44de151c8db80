"""The warehouse and the ledger on ``s3://`` through ``pyarrow.fs``, against a
real S3-compatible server on loopback: a whole demo subject, the API reading
it, and the ledger's "never rewritten" rule under concurrent writers."""

from __future__ import annotations

import multiprocessing as mp
import sys
from datetime import UTC, datetime
from pathlib import Path

import dagster as dg
import pytest
from fastapi.testclient import TestClient

from reliability_api.app import ApiSettings, create_app
from reliability_api.schemas import ReportEnvelope
from reliability_core.clock import FixedClock
from reliability_core.models import Report, ResolutionCriteria, SearchResult, SearchResultSet
from reliability_core.scores.publication import latest_report
from reliability_core.warehouse import Ledger, LedgerConflictError, Warehouse, tables
from reliability_dagster.resources import WarehouseResource
from tests.conftest import DemoRun
from tests.orchestration.conftest import Pipeline, make_resources

DEMO_NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
SUBJECT = "northwind-energy"


def _record(record_id: str, writer: str) -> SearchResultSet:
    return SearchResultSet(
        id=record_id,
        subject_id="acme",
        purpose="candidates",
        query=f"written by {writer}",
        provider="offline-search",
        retrieved_at=DEMO_NOW,
        results=[SearchResult(url=f"https://{writer}.example/", title=writer, rank=1)],
        method_version="0.1.0+test",
    )


@pytest.mark.slow
def test_a_demo_subject_materialised_on_s3_is_served_by_the_api_and_matches_the_local_run(
    s3_root: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PERPLEXITY_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    on_s3 = {**make_resources(tmp_path / "s3run"), "warehouse": WarehouseResource(root=s3_root)}
    with dg.DagsterInstance.ephemeral() as instance:
        s3_result = Pipeline(root=tmp_path / "s3run", instance=instance, resources=on_s3).run(SUBJECT)
        assert s3_result.success, [str(e.event_specific_data) for e in s3_result.all_events if e.is_failure]
    assert not (tmp_path / "s3run" / "warehouse").exists(), "nothing of the S3 run landed on the local disk"

    # The local run is the session's demo run (tests/conftest.py), asked for only now: a worker
    # that waits for another to finish building it has done its own run first.
    demo_run: DemoRun = request.getfixturevalue("demo_run")
    store, local = Warehouse(s3_root), demo_run.warehouse
    report = latest_report(store.read(tables.REPORTS, SUBJECT, Report))
    local_report = demo_run.report(SUBJECT)
    assert report is not None
    assert report.content_hash == local_report.content_hash, "object storage changes nothing in the report"
    assert set(store.tables()) == {table for table in local.tables() if SUBJECT in local.subjects(table)}

    client = TestClient(create_app(ApiSettings(warehouse_root=s3_root, clock=FixedClock(DEMO_NOW))))
    response = client.get(f"/v1/subjects/{SUBJECT}/report")
    assert response.status_code == 200, response.text
    served = ReportEnvelope.model_validate_json(response.content).report
    assert served.content_hash == report.content_hash
    claim_id = served.claims[0]["claim_id"]
    assert client.get(f"/v1/subjects/{SUBJECT}/claims/{claim_id}").status_code == 200

    # The frozen criteria on S3 are never rewritten: a changed body under an existing id is refused.
    ledger = Ledger(store)
    frozen = ledger.read_all(tables.CRITERIA_LEDGER, SUBJECT, ResolutionCriteria)
    assert frozen
    altered = frozen[0].model_copy(update={"method_version": frozen[0].method_version + ".tampered"})
    with pytest.raises(LedgerConflictError):
        ledger.append(tables.CRITERIA_LEDGER, SUBJECT, [(frozen[0].id, altered)])
    assert ledger.get(tables.CRITERIA_LEDGER, SUBJECT, frozen[0].id, ResolutionCriteria) == frozen[0]


def test_ledger_on_s3_refuses_a_different_body_and_accepts_the_same_one(s3_root: str) -> None:
    ledger = Ledger(Warehouse(s3_root))
    first = ledger.append("snapshots", "acme", [("srs_1", _record("srs_1", "first"))])
    again = ledger.append("snapshots", "acme", [("srs_1", _record("srs_1", "first"))])
    assert (first.written, again.written, again.unchanged) == (1, 0, 1)
    with pytest.raises(LedgerConflictError):
        ledger.append("snapshots", "acme", [("srs_1", _record("srs_1", "second"))])
    assert ledger.read_all("snapshots", "acme", SearchResultSet) == [_record("srs_1", "first")]


def test_a_partition_rewritten_on_s3_reads_back_whole(s3_root: str) -> None:
    store = Warehouse(s3_root)
    store.write("search_results", "acme", [_record("a", "one"), _record("b", "one")])
    store.write("search_results", "acme", [_record("c", "two")])
    assert [r.id for r in store.read("search_results", "acme", SearchResultSet)] == ["c"]
    assert store.subjects("search_results") == ["acme"]
    assert store.connect().execute("select count(*) from search_results").fetchall() == [(1,)]


IDS = [f"srs_{i}" for i in range(30)]


def _racing_writer(root: str, writer: str, start: mp.synchronize.Barrier, won: mp.Queue[tuple[str, str]]) -> None:
    ledger = Ledger(Warehouse(root))
    start.wait()
    for record_id in IDS:
        try:
            if ledger.append("snapshots", "acme", [(record_id, _record(record_id, writer))]).written:
                won.put((record_id, writer))
        except LedgerConflictError:
            pass  # the other writer got there first: exactly what must happen


@pytest.mark.slow
def test_two_concurrent_writers_of_the_same_ledger_ids_on_s3_never_both_win(s3_root: str) -> None:
    ctx = mp.get_context("spawn")
    start = ctx.Barrier(2)
    won: mp.Queue[tuple[str, str]] = ctx.Queue()
    writers = [ctx.Process(target=_racing_writer, args=(s3_root, name, start, won)) for name in ("left", "right")]
    for process in writers:
        process.start()
    for process in writers:
        process.join(timeout=120)
        assert process.exitcode == 0
    winners: dict[str, list[str]] = {}
    while not won.empty():
        record_id, writer = won.get()
        winners.setdefault(record_id, []).append(writer)
    assert sorted(winners) == sorted(IDS), "every id was written by someone"
    assert all(len(w) == 1 for w in winners.values()), {k: v for k, v in winners.items() if len(v) > 1}
    stored = {r.id: r for r in Ledger(Warehouse(s3_root)).read_all("snapshots", "acme", SearchResultSet)}
    for record_id, (writer,) in winners.items():
        assert stored[record_id] == _record(record_id, writer), "the stored body is the winner's"


def test_an_s3_warehouse_without_boto3_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from reliability_core.warehouse.conditional import S3ExclusiveWriter

    monkeypatch.setitem(sys.modules, "boto3", None)  # as if the s3 extra were not installed
    with pytest.raises(ImportError, match=r"install the s3 extra \(pip install 'reliability\[s3\]'"):
        S3ExclusiveWriter("s3://bucket/prefix")
