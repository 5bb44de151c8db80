"""Issue 26 in the API: one corrupt file stays local (item 5), an unexpected error is a
JSON 500 (item 7), every answer carries security headers, subject tokens expire and can
be revoked, and a replayed response is stored once (item 10)."""

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from reliability_api import cli
from reliability_api.app import ApiSettings, create_app
from reliability_api.auth import SUBJECT_TOKEN_DAYS, issue_token
from reliability_api.headers import API_CSP, DOCS_CSP
from reliability_api.store import ReportStore
from reliability_core.clock import FixedClock
from reliability_core.warehouse import Ledger, Warehouse, tables
from tests.api.conftest import GENERATED, coverage, report

RESPONSES = "/v1/subjects/acme/claims/clm_1/responses"


def _client(warehouse: Warehouse, clock: FixedClock) -> TestClient:
    return TestClient(create_app(ApiSettings(warehouse_root=warehouse.root, clock=clock)))


@pytest.fixture
def damaged(api_warehouse: Warehouse) -> Iterator[Warehouse]:
    """acme's reports file overwritten with junk; globex whole beside it."""
    api_warehouse.write(tables.COVERAGE, "globex", [coverage("globex", True)])
    api_warehouse.write(tables.REPORTS, "globex", [report("globex", 55.0)])
    Path(api_warehouse.partition_path(tables.REPORTS, "acme")).write_bytes(b"\x00" * 100)
    yield api_warehouse


# --- item 5 ------------------------------------------------------------------------------


def test_a_corrupt_reports_file_leaves_the_listing_serving_every_other_subject(
    damaged: Warehouse, client: TestClient
) -> None:
    listing = client.get("/v1/subjects")
    assert listing.status_code == 200
    assert [s["id"] for s in listing.json()["items"]] == ["globex", "mp-jones"]
    assert client.get("/v1/subjects/globex/report").status_code == 200


@pytest.mark.parametrize(
    "path", ["/v1/subjects/acme", "/v1/subjects/acme/report", "/v1/subjects/acme/claims", "/v1/subjects/acme/history"]
)
def test_a_subject_whose_file_is_corrupt_answers_a_json_error_naming_the_problem(
    damaged: Warehouse, client: TestClient, path: str
) -> None:
    answer = client.get(path)
    assert answer.status_code == 500
    assert answer.headers["content-type"] == "application/json"
    error = answer.json()["error"]
    assert error["code"] == "stored_data_corrupt"
    assert "'reports'" in error["message"] and "'acme'" in error["message"]
    assert damaged.base not in error["message"]  # where the files live stays in the log


# --- item 7 ------------------------------------------------------------------------------


def test_an_unexpected_error_is_a_json_500_without_a_traceback(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("secret internals at /srv/warehouse")

    monkeypatch.setattr(ReportStore, "subject_ids", broken)
    answer = client.get("/v1/subjects")
    assert answer.status_code == 500
    assert answer.json() == {
        "error": {"code": "internal_error", "message": "an unexpected error; it has been logged"}
    }
    assert "secret" not in answer.text and "Traceback" not in answer.text
    assert answer.headers["x-content-type-options"] == "nosniff"


# --- item 10: headers --------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/v1/subjects", "/v1/subjects/acme/report", "/v1/subjects/nobody", "/v1/subjects/A%20B"])
def test_every_api_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    headers = client.get(path).headers
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["content-security-policy"] == API_CSP
    assert "frame-ancestors 'none'" in API_CSP


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_offline_docs_pages_load_under_their_policy(client: TestClient, page: str) -> None:
    answer = client.get(page)
    assert answer.status_code == 200 and answer.headers["content-security-policy"] == DOCS_CSP
    # Every script and style the page names is served by the app itself ('self').
    assert all(url.startswith("/") for url in re.findall(r'(?:src|href)="([^"]+)"', answer.text))
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css") if page == "/docs" else ("redoc.standalone.js",):
        assert f"/static-offline-docs/{asset}" in answer.text
        assert client.get(f"/static-offline-docs/{asset}").status_code == 200


# --- item 10: tokens ---------------------------------------------------------------------


def test_a_subject_token_expires_after_its_lifetime(api_warehouse: Warehouse) -> None:
    token = issue_token(Ledger(api_warehouse), "acme", GENERATED)
    headers = {"Authorization": f"Bearer {token}"}
    day_before = GENERATED + timedelta(days=SUBJECT_TOKEN_DAYS) - timedelta(seconds=1)
    assert _client(api_warehouse, FixedClock(day_before)).post(RESPONSES, json={"body": "a"}, headers=headers).status_code == 201
    expired = FixedClock(GENERATED + timedelta(days=SUBJECT_TOKEN_DAYS))
    assert _client(api_warehouse, expired).post(RESPONSES, json={"body": "b"}, headers=headers).status_code == 403


def test_a_token_stored_before_expiry_existed_ages_from_its_issue(api_warehouse: Warehouse) -> None:
    token = issue_token(Ledger(api_warehouse), "acme", GENERATED)
    stored = next((Path(api_warehouse.base) / "_ledger" / "api_tokens" / "subject=acme").glob("*.json"))
    text = stored.read_text()
    stored.write_text(text.replace(text[text.index(',"expires_at"') : -1], ""))  # the old record shape
    assert "expires_at" not in stored.read_text()
    late = FixedClock(GENERATED + timedelta(days=SUBJECT_TOKEN_DAYS + 1))
    headers = {"Authorization": f"Bearer {token}"}
    assert _client(api_warehouse, late).post(RESPONSES, json={"body": "a"}, headers=headers).status_code == 403


def test_the_admin_cli_revokes_a_token_and_lists_it_revoked(
    client: TestClient, api_warehouse: Warehouse, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RELIABILITY_WAREHOUSE", api_warehouse.root)
    assert cli.main(["issue-token", "acme", "--days", "365"]) == 0
    issued = capsys.readouterr()
    token, token_id = issued.out.strip(), issued.err.split()[0]
    assert cli.main(["issue-token", "acme"]) == 0
    other = capsys.readouterr().out.strip()
    assert client.post(RESPONSES, json={"body": "a"}, headers={"Authorization": f"Bearer {token}"}).status_code == 201

    assert cli.main(["revoke-token", "acme", "--id", token_id]) == 0
    assert token_id in capsys.readouterr().out
    assert client.post(RESPONSES, json={"body": "b"}, headers={"Authorization": f"Bearer {token}"}).status_code == 403
    assert client.post(RESPONSES, json={"body": "c"}, headers={"Authorization": f"Bearer {other}"}).status_code == 201
    assert cli.main(["list-tokens", "acme"]) == 0
    states = {line.split("\t")[0]: line.split("\t")[3] for line in capsys.readouterr().out.splitlines()}
    assert states[token_id] == "revoked" and sorted(states.values()) == ["revoked", "valid"]
    assert cli.main(["revoke-token", "acme", "--id", "tok_unknown"]) == 2
    assert cli.main(["revoke-token", "acme", "--all"]) == 0
    assert client.post(RESPONSES, json={"body": "d"}, headers={"Authorization": f"Bearer {other}"}).status_code == 403


# --- item 10: replayed responses ---------------------------------------------------------


def test_a_replayed_response_returns_the_stored_one_and_stores_no_duplicate(
    client: TestClient, subject_token: str, api_clock: FixedClock
) -> None:
    headers = {"Authorization": f"Bearer {subject_token}"}
    first = client.post(RESPONSES, json={"body": "We delivered 2.1 GW."}, headers=headers)
    api_clock.advance(timedelta(minutes=5))  # a replay later: the time differs, the content not
    again = client.post(RESPONSES, json={"body": "We delivered 2.1 GW."}, headers=headers)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    other = client.post(RESPONSES, json={"body": "And 0.4 GW more."}, headers=headers)
    assert other.status_code == 201
    stored = client.get("/v1/subjects/acme/claims/clm_1").json()["responses"]
    assert [r["body"] for r in stored].count("We delivered 2.1 GW.") == 1 and len(stored) == 2
