"""Issue 27: a steward's ruling through the API is refused when it is a mistake (a demotion
without its new verdict, a second ruling on the same verdict) and records the same method
version as the same ruling made from the CLI."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from reliability_cli.main import main as reliability_cli
from reliability_core.scores.rulings import read_rulings
from reliability_core.warehouse import Ledger, Warehouse, tables
from tests.api.conftest import VERSION, claim_verdict

URL = "/v1/subjects/acme/claims/clm_1/rulings"


def test_a_demotion_without_a_new_verdict_is_refused_not_made_unresolvable(
    client: TestClient, steward_token: str, api_warehouse: Warehouse
) -> None:
    headers = {"Authorization": f"Bearer {steward_token}"}
    answer = client.post(
        URL, json={"action": "demote", "steward": "ana", "reason": "misread"}, headers=headers
    )
    assert answer.status_code == 409
    assert "'demote' needs the verdict to demote to" in answer.json()["error"]["message"]
    assert read_rulings(Ledger(api_warehouse), "acme") == []


def test_a_second_ruling_on_the_same_verdict_is_refused(
    client: TestClient, steward_token: str, api_warehouse: Warehouse
) -> None:
    headers = {"Authorization": f"Bearer {steward_token}"}
    first = {"action": "uphold", "steward": "ana", "reason": "checked the filing"}
    assert client.post(URL, json=first, headers=headers).status_code == 201
    second = {"action": "retract", "steward": "bo", "reason": "changed my mind"}
    refused = client.post(URL, json=second, headers=headers)
    assert refused.status_code == 409 and "already ruled on" in refused.json()["error"]["message"]
    assert [r.action for r in read_rulings(Ledger(api_warehouse), "acme")] == ["uphold"]


def test_rulings_from_the_cli_and_the_api_record_the_same_method_version(
    client: TestClient,
    steward_token: str,
    api_warehouse: Warehouse,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RELIABILITY_NOW", "2026-11-30T12:00:00Z")
    api_warehouse.write(
        tables.VERDICTS, "acme", [claim_verdict("acme", "clm_1"), claim_verdict("acme", "clm_2")]
    )
    headers = {"Authorization": f"Bearer {steward_token}"}
    by_api = client.post(URL, json={"action": "uphold", "steward": "ana", "reason": "ok"}, headers=headers)
    assert by_api.status_code == 201
    assert reliability_cli(
        ["steward", "rule", "--warehouse", api_warehouse.root, "--subject", "acme", "--claim", "clm_2",
         "--action", "uphold", "--steward", "ana", "--reason", "ok"]
    ) == 0  # fmt: skip
    by_cli = json.loads(capsys.readouterr().out)["ruling"]
    assert by_api.json()["method_version"] == by_cli["method_version"] == VERSION
