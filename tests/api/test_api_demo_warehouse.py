"""The API over a warehouse the demo pipeline produced.

By default the warehouse is the session's demo run (tests/conftest.py: the five demo
subjects, offline, in a throwaway warehouse, run once for every file that reads it). ``RELIABILITY_DEMO_WAREHOUSE=<warehouse root>`` points
the same tests at an existing one instead (e.g. ``data/warehouse`` after
``make demo``); nothing is written to that warehouse."""

import os
import re
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from reliability_api.app import ApiSettings, create_app
from reliability_api.schemas import CLAIM_ID_PATTERN, ReportEnvelope
from reliability_core.clock import FixedClock
from reliability_core.warehouse import Warehouse, tables
from tests.conftest import DemoRun

DEMO_NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)  # the demo's fixed "now"
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def demo_warehouse(request: pytest.FixtureRequest) -> str:
    existing = os.environ.get("RELIABILITY_DEMO_WAREHOUSE", "")
    if existing:
        return existing
    demo_run: DemoRun = request.getfixturevalue("demo_run")  # run once per session, read only here
    return str(demo_run.warehouse.root)


@pytest.fixture(scope="module")
def demo_client(demo_warehouse: str) -> TestClient:
    return TestClient(create_app(ApiSettings(warehouse_root=demo_warehouse, clock=FixedClock(DEMO_NOW))))


def test_every_demo_subject_with_a_report_is_served_in_full(
    demo_client: TestClient, demo_warehouse: str
) -> None:
    subjects = Warehouse(demo_warehouse).subjects(tables.REPORTS)
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


def test_every_demo_claim_is_served_with_its_trail(demo_client: TestClient, demo_warehouse: str) -> None:
    for subject in Warehouse(demo_warehouse).subjects(tables.REPORTS):
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
