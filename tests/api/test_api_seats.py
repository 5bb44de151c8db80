"""[#18] The API as an evaluator and a subject meet it: errors in words, the documented
auth order, a CLI backtest reaching /v1/methodology, offline docs, gzip."""

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from reliability_api.app import ApiSettings, create_app
from reliability_cli.main import main as reliability_cli
from reliability_core.clock import parse_clock_override
from reliability_core.models import Report
from reliability_core.warehouse import Warehouse, tables

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
    assert reliability_cli(["gold", "backtest", str(STARTER), "--warehouse", root, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    # Issue 27: one unit everywhere. The backtest said 0.844 where the API said 84.4; both
    # now say percent (this test asserted the share before).
    percent = summary["metrics"]["judge_agreement_percent"]
    assert 1 < percent <= 100, "the backtest metric is in percent"

    app = create_app(ApiSettings(warehouse_root=root, clock=parse_clock_override("2026-11-30T12:00:00Z")))
    with TestClient(app) as client:
        body = client.get("/v1/methodology").json()
    assert body["method_version"] == summary["method_version"]
    agreement = body["judge_agreement"]
    assert agreement != "not yet measured", "the CLI's backtest must reach the methodology"
    assert agreement["gold_set"] == "starter" and agreement["judges"] == "offline-rules"
    assert agreement["judge_agreement_percent"] == pytest.approx(percent, abs=0.05)


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
    command = next(line for line in dry_run.splitlines() if "reliability api" in line)
    assert "RELIABILITY_NOW" not in command


def _report_with_claims(n: int, sequence: int, score: float) -> Report:
    from tests.api.conftest import report

    claims: list[dict[str, object]] = [
        {
            "claim_id": f"clm_{i:03d}",
            "quote": f"We will build {i} GW by 2030, a long quote to make the page heavy. " * 4,
            "claim_type": "promise",
            "verdict": "true" if i % 3 else "false",
            "gate": {"shown": i % 5 != 0, "failed": [] if i % 5 else ["fewer than two independent publishers"]},
        }
        for i in range(n)
    ]
    return report("acme", score).model_copy(update={"claims": claims, "sequence": sequence, "content_hash": f"h{sequence}"})


def test_claims_are_served_a_page_at_a_time_and_filtered(client: TestClient, api_warehouse: Warehouse) -> None:
    api_warehouse.write(tables.REPORTS, "acme", [_report_with_claims(60, 1, 64.0)])
    first = client.get("/v1/subjects/acme/claims", params={"limit": 25}).json()
    assert first["total"] == 60 and len(first["items"]) == 25 and first["items"][0]["claim_id"] == "clm_000"
    last = client.get("/v1/subjects/acme/claims", params={"offset": 50, "limit": 25}).json()
    assert [c["claim_id"] for c in last["items"]] == [f"clm_{i:03d}" for i in range(50, 60)]
    held = client.get("/v1/subjects/acme/claims", params={"shown": False, "limit": 100}).json()
    assert held["total"] == 12 and all(not c["gate"]["shown"] for c in held["items"])
    false = client.get("/v1/subjects/acme/claims", params={"verdict": "false", "limit": 100}).json()
    assert false["total"] == 20
    compressed = client.get("/v1/subjects/acme/claims", headers={"Accept-Encoding": "gzip"})
    assert compressed.headers.get("content-encoding") == "gzip"
    assert client.get("/v1/subjects/nobody/claims").status_code == 404


def test_the_chart_and_the_markdown_report_are_served(client: TestClient) -> None:
    chart = client.get("/v1/subjects/acme/report/chart.png")
    assert chart.status_code == 200 and chart.headers["content-type"] == "image/png"
    assert chart.content.startswith(b"\x89PNG")
    markdown = client.get("/v1/subjects/acme/report.md")
    assert markdown.status_code == 200 and markdown.headers["content-type"].startswith("text/markdown")
    assert markdown.text.startswith("# Reliability report: Acme")
    assert client.get("/v1/subjects/nobody/report/chart.png").status_code == 404


def test_score_history_lists_every_published_report_in_order(client: TestClient, api_warehouse: Warehouse) -> None:
    api_warehouse.write(
        tables.REPORTS, "acme", [_report_with_claims(3, 2, 71.0), _report_with_claims(3, 1, 64.0)]
    )
    history = client.get("/v1/subjects/acme/history").json()
    assert [e["sequence"] for e in history["items"]] == [1, 2]
    overall = [next(p for p in e["scores"] if p["score"] == "overall") for e in history["items"]]
    assert [p["value"] for p in overall] == [64.0, 71.0] and overall[0]["interval_low"] == 54.0
    assert client.get("/v1/subjects/nobody/history").status_code == 404


def test_a_reports_partition_written_before_the_sequence_existed_is_still_served(
    client: TestClient, api_warehouse: Warehouse
) -> None:
    import pyarrow.parquet as pq

    from tests.api.conftest import GENERATED, report

    path = api_warehouse.partition_path(tables.REPORTS, "acme")
    older, newer = report("acme", 64.0), report("acme", 71.0, GENERATED.replace(day=5))
    api_warehouse.write(tables.REPORTS, "acme", [older, newer])
    legacy = pq.read_table(path)
    pq.write_table(legacy.drop_columns(["sequence"]), path)  # as stored before this change
    assert "sequence" not in pq.read_table(path).column_names
    assert client.get("/v1/subjects/acme/report").json()["report"]["overall"]["score"] == 71.0
    assert client.get("/v1/subjects/acme").json()["overall_score"] == 71.0
    assert [e["sequence"] for e in client.get("/v1/subjects/acme/history").json()["items"]] == [0, 0]
