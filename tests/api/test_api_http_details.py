"""[#27] The API's HTTP details: 415 for a body that is not JSON, HEAD wherever GET
works, one ``Vary``, an ETag per representation (gzip apart) on the report, its Markdown
and its chart, unknown verdict filters refused with the valid ones listed, tags and a
bearer scheme in the OpenAPI document, docs pages that load nothing from outside, and a
subject's response shown on its claim wherever the claim is shown."""

import re
import typing

import pytest
from fastapi.testclient import TestClient

from reliability_api.app import REDOC_JS_PATH, is_json_media_type
from reliability_api.headers import single_vary
from reliability_api.schemas import ClaimVerdictFilter
from reliability_core.models import Verdict
from reliability_core.scores.claim_entries import HELD_VERDICT, RESPONSE_STATUS

RESPONSES = "/v1/subjects/acme/claims/clm_1/responses"
GETS = [
    "/v1/methodology",
    "/v1/subjects",
    "/v1/subjects/acme",
    "/v1/subjects/acme/report",
    "/v1/subjects/acme/report.md",
    "/v1/subjects/acme/report/chart.png",
    "/v1/subjects/acme/history",
    "/v1/subjects/acme/claims",
    "/v1/subjects/acme/claims/clm_1",
    "/v1/subjects/nobody",
    "/openapi.json",
    "/docs",
    "/redoc",
]


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]
)
def test_a_body_that_is_not_json_is_refused_as_unsupported_media_type(
    client: TestClient, subject_token: str, content_type: str
) -> None:
    answer = client.post(
        RESPONSES,
        content=b'{"body": "We disagree"}',
        headers={"Authorization": f"Bearer {subject_token}", "Content-Type": content_type},
    )
    assert answer.status_code == 415, answer.text
    assert answer.json()["error"]["code"] == "unsupported_media_type"
    assert answer.headers["accept-post"] == "application/json"


def test_a_json_body_with_a_json_media_type_is_still_read(client: TestClient, subject_token: str) -> None:
    answer = client.post(
        RESPONSES,
        content=b'{"body": "We disagree"}',
        headers={
            "Authorization": f"Bearer {subject_token}",
            "Content-Type": "application/merge-patch+json; charset=utf-8",
        },
    )
    assert answer.status_code == 201
    assert (
        is_json_media_type(None)
        and is_json_media_type("Application/JSON")
        and not is_json_media_type("text/json")
    )


def test_the_media_type_is_judged_after_the_token(client: TestClient) -> None:
    answer = client.post(RESPONSES, content=b"x", headers={"Content-Type": "text/plain"})
    assert answer.status_code == 401


@pytest.mark.parametrize("path", GETS)
def test_head_answers_wherever_get_does_with_the_same_headers_and_no_body(
    client: TestClient, path: str
) -> None:
    got = client.get(path, headers={"Accept-Encoding": "gzip"})
    head = client.head(path, headers={"Accept-Encoding": "gzip"})
    assert head.status_code == got.status_code
    assert head.content == b""
    for name in ("content-type", "etag", "content-encoding", "vary", "content-length"):
        assert head.headers.get(name) == got.headers.get(name), name


def test_head_is_refused_where_get_is(client: TestClient) -> None:
    assert client.head(RESPONSES).status_code == client.get(RESPONSES).status_code == 405


@pytest.mark.parametrize("encoding", ["gzip", "identity"])
@pytest.mark.parametrize("path", ["/v1/subjects/acme/report", "/v1/subjects/acme/report.md", "/openapi.json"])
def test_vary_names_accept_encoding_once(client: TestClient, path: str, encoding: str) -> None:
    answer = client.get(path, headers={"Accept-Encoding": encoding})
    varies = answer.headers.get_list("vary")
    assert len(varies) == 1
    assert [f.strip().lower() for f in varies[0].split(",")] == ["accept-encoding"]


def test_vary_fields_are_merged_case_insensitively() -> None:
    headers = single_vary(
        [(b"vary", b"Accept-Encoding"), (b"etag", b'"x"'), (b"Vary", b"accept-encoding, Origin")]
    )
    assert headers == [(b"etag", b'"x"'), (b"vary", b"Accept-Encoding, Origin")]


@pytest.mark.parametrize("path", ["/v1/subjects/acme/report", "/v1/subjects/acme/report.md"])
def test_the_gzip_and_plain_bodies_carry_different_etags(client: TestClient, path: str) -> None:
    plain = client.get(path, headers={"Accept-Encoding": "identity"})
    packed = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
    assert plain.content == packed.content  # the client decodes: the same representation underneath
    assert plain.headers["etag"] != packed.headers["etag"]
    # Each tag revalidates its own representation only.
    assert (
        client.get(
            path, headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["etag"]}
        ).status_code
        == 304
    )
    assert (
        client.get(
            path, headers={"Accept-Encoding": "identity", "If-None-Match": plain.headers["etag"]}
        ).status_code
        == 304
    )
    assert (
        client.get(
            path, headers={"Accept-Encoding": "identity", "If-None-Match": packed.headers["etag"]}
        ).status_code
        == 200
    )


@pytest.mark.parametrize("path", ["/v1/subjects/acme/report.md", "/v1/subjects/acme/report/chart.png"])
def test_markdown_and_chart_carry_etags_and_answer_304(client: TestClient, path: str) -> None:
    first = client.get(path)
    assert first.status_code == 200 and first.headers["etag"].startswith('"')
    again = client.get(path, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == first.headers["etag"]


def test_the_chart_is_never_gzipped(client: TestClient) -> None:
    answer = client.get("/v1/subjects/acme/report/chart.png", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in answer.headers and answer.content.startswith(b"\x89PNG")


def test_an_unknown_verdict_filter_is_refused_with_the_valid_ones_listed(client: TestClient) -> None:
    answer = client.get("/v1/subjects/acme/claims", params={"verdict": "flase"})
    assert answer.status_code == 422
    message = answer.json()["error"]["message"]
    for value in typing.get_args(ClaimVerdictFilter):
        assert f"'{value}'" in message
    assert client.get("/v1/subjects/acme/claims", params={"verdict": "held"}).status_code == 200


def test_the_verdict_filter_lists_every_verdict_a_claim_can_carry() -> None:
    assert set(typing.get_args(ClaimVerdictFilter)) == {*typing.get_args(Verdict), HELD_VERDICT}


def test_the_openapi_document_has_tags_and_a_bearer_scheme(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    declared = {t["name"] for t in document["tags"]}
    operations = [
        (path, method, op) for path, item in document["paths"].items() for method, op in item.items()
    ]
    assert all(op.get("tags") and set(op["tags"]) <= declared for _, _, op in operations)
    schemes = document["components"]["securitySchemes"]
    assert [s for s in schemes.values() if s == {**s, "type": "http", "scheme": "bearer"}]
    secured = {(path, method) for path, method, op in operations if op.get("security")}
    assert secured == {
        ("/v1/subjects/{subject_id}/claims/{claim_id}/responses", "post"),
        ("/v1/steward/queue", "get"),
        ("/v1/subjects/{subject_id}/claims/{claim_id}/rulings", "post"),
    }
    # The token is declared once, as the scheme, not also as a header parameter.
    for _, _, op in operations:
        assert not [p for p in op.get("parameters", []) if p["name"].lower() == "authorization"]


def test_swagger_ui_sends_the_authorized_token(client: TestClient, steward_token: str) -> None:
    # What /docs' Authorize button sends: the Authorization header the scheme names.
    assert (
        client.get("/v1/steward/queue", headers={"Authorization": f"Bearer {steward_token}"}).status_code
        == 200
    )
    assert client.get("/v1/steward/queue").status_code == 401


_OUTSIDE_LOAD = re.compile(r"""(?:\bsrc\s*[:=]\s*|url\(\s*)["']?(https?:)?//""")


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_docs_pages_load_nothing_from_outside(client: TestClient, page: str) -> None:
    html = client.get(page).text
    assets = re.findall(r'(?:src|href)="([^"]+)"', html) + re.findall(r"url: '([^']+)'", html)
    assert assets and all(a.startswith("/") for a in assets), assets
    for asset in assets:
        answer = client.get(asset)
        assert answer.status_code == 200, asset
        assert not _OUTSIDE_LOAD.search(answer.text), (asset, _OUTSIDE_LOAD.search(answer.text))
    if page == "/docs":
        # Swagger UI's validator badge is an image from validator.swagger.io unless turned off.
        assert '"validatorUrl": null' in html
    else:
        assert REDOC_JS_PATH in html


def test_a_response_shows_on_its_claim_wherever_the_claim_is_shown(
    client: TestClient, subject_token: str
) -> None:
    before = client.get("/v1/subjects/acme/report").headers["etag"]
    assert RESPONSE_STATUS not in client.get("/v1/subjects/acme/report.md").text
    posted = client.post(
        RESPONSES,
        json={"body": "The 2 GW were built in March 2024."},
        headers={"Authorization": f"Bearer {subject_token}"},
    )
    assert posted.status_code == 201
    response_id = posted.json()["id"]

    def listed(claim: dict[str, typing.Any]) -> list[str]:
        return [r["id"] for r in claim.get("responses", []) if r["status"] == RESPONSE_STATUS]

    report = client.get("/v1/subjects/acme/report")
    assert report.headers["etag"] != before  # a cache must not keep the copy without it
    assert listed(report.json()["report"]["claims"][0]) == [response_id]
    gz = client.get("/v1/subjects/acme/report", headers={"Accept-Encoding": "gzip"})
    assert gz.headers["content-encoding"] == "gzip" and gz.json() == report.json()
    assert listed(client.get("/v1/subjects/acme/claims").json()["items"][0]) == [response_id]
    detail = client.get("/v1/subjects/acme/claims/clm_1").json()
    assert listed(detail["claim"]) == [response_id] and [r["id"] for r in detail["responses"]] == [
        response_id
    ]
    assert RESPONSE_STATUS in client.get("/v1/subjects/acme/report.md").text
