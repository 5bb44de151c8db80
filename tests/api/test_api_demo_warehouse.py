"""The API over a warehouse the demo pipeline produced (``make demo``).

Opt in with ``RELIABILITY_DEMO_WAREHOUSE=<warehouse root>`` (e.g. ``data/warehouse``
after ``make demo``); without it these tests are skipped, so the suite never runs
the pipeline itself. Nothing is written to that warehouse."""

import os
import re
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from reliability_api.app import ApiSettings, create_app
from reliability_api.schemas import CLAIM_ID_PATTERN, ReportEnvelope
from reliability_core.clock import FixedClock
from reliability_core.warehouse import Warehouse, tables

DEMO_NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)  # the demo's fixed "now"
DEMO_WAREHOUSE = os.environ.get("RELIABILITY_DEMO_WAREHOUSE", "")

pytestmark = pytest.mark.skipif(
    not DEMO_WAREHOUSE, reason="set RELIABILITY_DEMO_WAREHOUSE to a warehouse made by `make demo`"
)


@pytest.fixture(scope="module")
def demo_client() -> TestClient:
    return TestClient(create_app(ApiSettings(warehouse_root=DEMO_WAREHOUSE, clock=FixedClock(DEMO_NOW))))


def test_every_demo_subject_with_a_report_is_served_in_full(demo_client: TestClient) -> None:
    subjects = Warehouse(DEMO_WAREHOUSE).subjects(tables.REPORTS)
    assert subjects, "the demo warehouse has no reports"
    listed = {s["id"] for s in demo_client.get("/v1/subjects", params={"limit": 200}).json()["items"]}
    assert set(subjects) <= listed
    for subject in subjects:
        response = demo_client.get(f"/v1/subjects/{subject}/report")
        assert response.status_code == 200, subject
        envelope = ReportEnvelope.model_validate_json(response.content)
        assert envelope.report.subject_id == subject and envelope.stale is False
        assert (
            demo_client.get(
                f"/v1/subjects/{subject}/report", headers={"If-None-Match": response.headers["ETag"]}
            ).status_code
            == 304
        )


def test_every_demo_claim_is_served_with_its_trail(demo_client: TestClient) -> None:
    for subject in Warehouse(DEMO_WAREHOUSE).subjects(tables.REPORTS):
        report = demo_client.get(f"/v1/subjects/{subject}/report").json()["report"]
        for claim in report["claims"]:
            claim_id = claim["claim_id"]
            assert re.match(CLAIM_ID_PATTERN, claim_id), claim_id
            detail = demo_client.get(f"/v1/subjects/{subject}/claims/{claim_id}").json()
            served = detail["claim"]
            assert served["quote"] == claim["quote"] and "quote_verified" in served
            if served["criteria"] is not None:
                assert served["criteria"]["written_at"]
            for evidence in served["evidence"]:
                assert evidence["source_class"] and evidence["fetched_at"] and "fetch_sha256" in evidence
