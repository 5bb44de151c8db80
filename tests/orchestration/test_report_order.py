"""[#18] One rule orders a subject's reports, and it cannot tie: a re-run on the pinned
offline clock is served by the pipeline, the demo summary and the API alike."""

from datetime import UTC, datetime, timedelta, timezone

import duckdb
from fastapi.testclient import TestClient

from reliability_api.app import ApiSettings, create_app
from reliability_core.clock import FixedClock
from reliability_core.models import Report, SubjectResponse
from reliability_core.scores.publication import (
    NEWEST_REPORT_FIRST_SQL,
    REPORT_ORDER_COLUMNS,
    latest_report,
    report_order_key,
    stored_report_order_key,
)
from reliability_core.warehouse import Ledger, tables
from tests.orchestration.conftest import Pipeline

SUBJECT = "amara-okafor"


def test_a_rerun_on_the_pinned_clock_is_the_report_every_reader_serves(pipeline: Pipeline) -> None:
    assert pipeline.run(SUBJECT).success
    first = latest_report(pipeline.warehouse.read(tables.REPORTS, SUBJECT, Report))
    assert first is not None and first.claims
    claim_id = str(first.claims[0]["claim_id"])
    response = SubjectResponse(
        id="resp_order_test",
        subject_id=SUBJECT,
        claim_id=claim_id,
        body="We published the corrected figure in our 2025 annual report.",
        received_at=first.generated_at,
        method_version=first.method_version,
    )
    Ledger(pipeline.warehouse).append(tables.RESPONSES_LEDGER, SUBJECT, [(response.id, response)])
    assert pipeline.run(SUBJECT).success

    stored = pipeline.warehouse.read(tables.REPORTS, SUBJECT, Report)
    assert len(stored) == 2 and stored[0].generated_at == stored[1].generated_at, "the offline clock is pinned"
    newest = latest_report(stored)
    assert newest is not None and newest.content_hash != first.content_hash
    assert newest.sequence == first.sequence + 1

    app = create_app(
        ApiSettings(warehouse_root=pipeline.warehouse.root, clock=FixedClock(first.generated_at + timedelta(days=1)))
    )
    with TestClient(app) as client:
        served = client.get(f"/v1/subjects/{SUBJECT}/report")
        claim = client.get(f"/v1/subjects/{SUBJECT}/claims/{claim_id}").json()["claim"]
    assert served.json()["report"]["content_hash"] == newest.content_hash
    assert served.headers["ETag"].strip('"').startswith(newest.content_hash[:32])
    assert [r["id"] for r in claim["responses"]] == [response.id]


def test_the_order_of_reports_is_by_publication_not_storage_position() -> None:
    at = datetime(2026, 11, 30, tzinfo=UTC)
    base = {
        "subject_id": "s",
        "subject_name": "S",
        "covered": True,
        "coverage_reasons": [],
        "generated_at": at,
        "served_until": at + timedelta(days=90),
        "method_version": "v",
    }
    older, newer = Report(id="a", sequence=1, **base), Report(id="b", sequence=2, **base)
    assert latest_report([newer, older]) is newer and latest_report([older, newer]) is newer


def test_the_sql_order_and_the_python_order_are_one_rule() -> None:
    """``NEWEST_REPORT_FIRST_SQL`` is derived from ``REPORT_ORDER_COLUMNS``: DuckDB over the
    stored columns orders reports exactly as ``report_order_key`` and the API's
    ``stored_report_order_key`` do, ties in ``generated_at`` and time zones included."""
    at = datetime(2026, 11, 30, 12, tzinfo=UTC)
    plus_two = timezone(timedelta(hours=2))
    base = {"subject_id": "s", "subject_name": "S", "covered": True, "coverage_reasons": [], "method_version": "v"}
    # Stored oldest first, so an order that only kept storage order would fail; 13:00 UTC is
    # later than 14:00 at +02:00, though its text sorts first.
    stamps = [(0, at - timedelta(days=1)), (0, at), (1, at), (2, at.astimezone(plus_two)),
              (2, at + timedelta(hours=1)), (2, at + timedelta(days=5)), (3, at)]  # fmt: skip
    reports = [
        Report(id=f"r{n}", sequence=seq, generated_at=when, served_until=when + timedelta(days=90), **base)
        for n, (seq, when) in enumerate(stamps)
    ]
    rows = [(r.id, r.sequence or None, r.generated_at.isoformat()) for r in reports]  # 0: stored before sequences
    duckdb.execute("CREATE OR REPLACE TEMP TABLE part (id VARCHAR, sequence BIGINT, generated_at VARCHAR)")
    duckdb.executemany("INSERT INTO part VALUES (?, ?, ?)", rows)
    by_sql = [row[0] for row in duckdb.sql(f"SELECT id FROM part {NEWEST_REPORT_FIRST_SQL}").fetchall()]
    by_key = [r.id for r in sorted(reports, key=report_order_key, reverse=True)]
    stored = {row[0]: dict(zip(("sequence", "generated_at"), row[1:], strict=True)) for row in rows}
    by_stored = sorted(stored, key=lambda i: stored_report_order_key(stored[i]), reverse=True)
    assert by_sql == by_key == by_stored
    assert latest_report(reports) is reports[6]
    assert REPORT_ORDER_COLUMNS == ("sequence", "generated_at")
