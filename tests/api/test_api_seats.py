"""[#18] The API as an evaluator and a subject meet it: errors in words, the documented
auth order, a CLI backtest reaching /v1/methodology, offline docs, gzip."""

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from reliability_api.app import ApiSettings, create_app
from reliability_core.cli import main as reliability_cli
from reliability_core.clock import parse_clock_override
from reliability_core.warehouse import Warehouse

STARTER = Path(__file__).resolve().parents[2] / "data" / "gold" / "starter.jsonl"
RESPONSES = "/v1/subjects/acme/claims/clm_1/responses"


def test_a_blank_response_body_is_refused_in_words_not_with_a_regular_expression(
    client: TestClient, subject_token: str
) -> None:
    refused = client.post(RESPONSES, json={"body": " \t "}, headers={"Authorization": f"Bearer {subject_token}"})
    assert refused.status_code == 422
    message = refused.json()["error"]["message"]
    assert "blank" in message and "[^" not in message and "\\u" not in message, message


@pytest.mark.parametrize(
    "body",
    [{"body": ""}, {"text": "wrong field"}, {"body": 5}, b"{not json"],
    ids=["blank", "wrong field", "wrong type", "malformed json"],
)
def test_a_wrong_body_without_a_token_is_401_and_with_a_wrong_token_403(
    client: TestClient, body: dict[str, object] | bytes
) -> None:
    def post(path: str, headers: dict[str, str]) -> int:
        if isinstance(body, bytes):
            return client.post(path, content=body, headers={"Content-Type": "application/json", **headers}).status_code
        return client.post(path, json=body, headers=headers).status_code

    assert post(RESPONSES, {}) == 401
    assert post("/v1/subjects/acme/claims/clm_1/rulings", {}) == 401
    assert post(RESPONSES, {"Authorization": "Bearer not-a-token"}) == 403


def test_a_malformed_subject_id_without_a_token_is_401_and_never_looked_up(client: TestClient) -> None:
    answer = client.post("/v1/subjects/BAD..ID/claims/clm_1/responses", json={"body": "x"})
    assert answer.status_code == 401


def test_a_backtest_run_from_the_cli_reaches_the_methodology_with_agreement_in_percent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PERPLEXITY_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("RELIABILITY_NOW", "2026-11-30T12:00:00Z")
    root = str(tmp_path / "warehouse")
    assert reliability_cli(["gold", "backtest", str(STARTER), "--warehouse", root]) == 0
    summary = json.loads(capsys.readouterr().out)
    share = summary["metrics"]["judge_agreement_percent"]
    assert 0 < share <= 1, "the backtest metric is a share"

    app = create_app(ApiSettings(warehouse_root=root, clock=parse_clock_override("2026-11-30T12:00:00Z")))
    with TestClient(app) as client:
        body = client.get("/v1/methodology").json()
    assert body["method_version"] == summary["method_version"]
    agreement = body["judge_agreement"]
    assert agreement != "not yet measured", "the CLI's backtest must reach the methodology"
    assert agreement["gold_set"] == "starter" and agreement["judges"] == "offline-rules"
    assert agreement["judge_agreement_percent"] == pytest.approx(100 * share, abs=0.05)


def test_the_docs_page_loads_its_assets_from_the_api_itself(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assert "cdn" not in page.text.lower() and "https://" not in page.text
    script = next(line for line in page.text.splitlines() if "swagger-ui-bundle.js" in line)
    src = script.split('src="', 1)[1].split('"', 1)[0]
    asset = client.get(src)
    assert asset.status_code == 200 and len(asset.content) > 100_000


def test_answers_are_gzip_compressed_for_a_client_that_accepts_it(client: TestClient) -> None:
    compressed = client.get("/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert compressed.headers.get("content-encoding") == "gzip"
    plain = client.get("/openapi.json", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.json()["info"]["title"] == "Reliability API"


def test_the_warehouse_fixture_is_untouched_by_refused_writes(client: TestClient, api_warehouse: Warehouse) -> None:
    client.post(RESPONSES, json={"body": ""})
    assert client.get("/v1/subjects/acme/claims/clm_1").json()["responses"] == []


def test_make_api_serves_on_the_real_clock() -> None:
    """A pinned clock stamps every response and ruling with a false time (and refuses a
    steward's second ruling as a duplicate): only the offline pipeline pins it."""
    import subprocess

    root = Path(__file__).resolve().parents[2]
    dry_run = subprocess.run(
        ["make", "-n", "-s", "api", "STAMP=/dev/null"], cwd=root, capture_output=True, text=True, check=True
    ).stdout
    command = next(line for line in dry_run.splitlines() if "reliability_api.server" in line)
    assert "RELIABILITY_NOW" not in command
