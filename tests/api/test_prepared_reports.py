"""A report read is served from bytes prepared once per stored version of the subject's reports."""

import gzip
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.middleware.gzip import GZipMiddleware

from reliability_api import store as store_module
from reliability_api.app import ApiSettings, accepts_gzip, create_app
from reliability_api.schemas import ReportEnvelope
from reliability_api.store import PreparedReports, ReportStore
from reliability_core.clock import FixedClock
from reliability_core.models import Report
from reliability_core.warehouse import Warehouse, tables
from tests.api.conftest import report


def _score(store: ReportStore, subject_id: str = "acme") -> float | None:
    found = store.latest_report(subject_id)
    assert found is not None and found.overall is not None
    return found.overall.score


def test_a_report_is_prepared_once_per_stored_version_not_per_read(api_warehouse: Warehouse) -> None:
    store = ReportStore(api_warehouse)
    for _ in range(5):
        assert _score(store) == 64.0
    assert store.prepared.prepared_count == 1
    prepared = store.latest_report_prepared("acme")
    stored_json = api_warehouse.read_arrow(tables.REPORTS, "acme", columns=["_json"])
    assert prepared is not None and stored_json is not None
    assert prepared.json_text == stored_json.column("_json")[0].as_py()  # the stored text, byte for byte
    api_warehouse.write(tables.REPORTS, "acme", [report("acme", 64.0), report("acme", 71.0, datetime(2026, 11, 2, tzinfo=UTC))])
    assert _score(store) == 71.0 and _score(store) == 71.0
    assert store.prepared.prepared_count == 2
    store.prepared.close()


def test_a_rewrite_of_the_same_size_in_the_same_instant_is_still_a_new_version(api_warehouse: Warehouse) -> None:
    # 64.0 and 70.0 give partitions of equal size, rewritten back to back: the version must
    # come from the file's identity (a new inode each write; the entry keeps the old file
    # open so its inode is not reused), not from the size or the path.
    store = ReportStore(api_warehouse)
    for score in (70.0, 64.0, 70.0, 64.0, 70.0):
        api_warehouse.write(tables.REPORTS, "acme", [report("acme", score)])
        assert _score(store) == score
    store.prepared.close()


def _refresh_inside(
    monkeypatch: pytest.MonkeyPatch, target: Any, name: str, warehouse: Warehouse, landed: list[bool]
) -> None:
    original: Callable[..., Any] = getattr(target, name)

    def refresh_then(*args: Any, **kwargs: Any) -> Any:
        if not landed:
            landed.append(True)
            warehouse.write(tables.REPORTS, "acme", [report("acme", 70.0)])
        return original(*args, **kwargs)

    monkeypatch.setattr(target, name, refresh_then)


@pytest.mark.parametrize(
    ("where", "first_read"),
    [("between the version check and opening the file", 70.0), ("after the file was opened", 64.0)],
)
def test_a_refresh_landing_mid_read_serves_one_whole_version_and_the_next_read_the_new_one(
    api_warehouse: Warehouse, monkeypatch: pytest.MonkeyPatch, where: str, first_read: float
) -> None:
    store = ReportStore(api_warehouse)
    landed: list[bool] = []
    if where.startswith("between"):
        _refresh_inside(monkeypatch, PreparedReports, "_read_local", api_warehouse, landed)
    else:
        _refresh_inside(monkeypatch, store_module.pq, "read_table", api_warehouse, landed)
    prepared = store.latest_report_prepared("acme")
    assert landed and prepared is not None
    whole = Report.model_validate_json(prepared.json_text)
    assert whole.overall is not None and whole.overall.score == first_read
    assert whole.content_hash == prepared.content_hash == f"hash{first_read}"
    assert _score(store) == 70.0
    store.prepared.close()


def test_a_report_that_disappears_is_not_served_from_its_prepared_bytes(api_warehouse: Warehouse) -> None:
    store = ReportStore(api_warehouse)
    assert _score(store) == 64.0
    Path(api_warehouse.partition_path(tables.REPORTS, "acme")).unlink()
    assert store.latest_report("acme") is None


def test_prepared_entries_are_bounded_and_close_their_files(api_warehouse: Warehouse) -> None:
    for i in range(5):
        api_warehouse.write(tables.REPORTS, f"s{i}", [report(f"s{i}", float(10 + i))])
    prepared = PreparedReports(api_warehouse, capacity=2)
    for i in range(5):
        assert prepared.get(f"s{i}") is not None
    assert len(prepared._entries) == 2 and list(prepared._entries) == ["s3", "s4"]
    prepared.close()
    assert not prepared._entries


@pytest.mark.parametrize(
    ("header", "gzip_ok"),
    [
        ("gzip, deflate", True),
        ("br;q=1.0, gzip;q=0.5", True),
        ("*", True),
        ("gzip;q=0", False),
        ("identity", False),
        (None, False),
        ("gzip;q=nonsense", False),
    ],
)
def test_gzip_is_sent_only_when_the_client_accepts_it(header: str | None, gzip_ok: bool) -> None:
    assert accepts_gzip(header) is gzip_ok


def _raw(client: TestClient, accept_encoding: str) -> tuple[dict[str, str], bytes]:
    with client.stream("GET", "/v1/subjects/acme/report", headers={"Accept-Encoding": accept_encoding}) as response:
        assert response.status_code == 200
        return dict(response.headers), b"".join(response.iter_raw())


@pytest.mark.parametrize("with_gzip_middleware", [False, True])
def test_the_gzip_answer_is_the_envelope_compressed_exactly_once(
    api_warehouse: Warehouse, api_clock: FixedClock, with_gzip_middleware: bool
) -> None:
    app = create_app(ApiSettings(warehouse_root=api_warehouse.root, clock=api_clock))
    if with_gzip_middleware:  # a gzip middleware passes an answer that already has Content-Encoding through
        app.add_middleware(GZipMiddleware, minimum_size=10)
    stored = api_warehouse.read(tables.REPORTS, "acme", Report)[0]
    envelope = ReportEnvelope(stale=False, refresh_requested_at=None, served_until=stored.served_until, report=stored)
    with TestClient(app) as client:
        headers, body = _raw(client, "gzip")
        assert headers["content-encoding"] == "gzip" and "Accept-Encoding" in headers["vary"]
        assert gzip.decompress(body) == envelope.model_dump_json().encode("utf-8")
        plain_headers, plain = _raw(client, "identity")
        assert "content-encoding" not in plain_headers and plain == envelope.model_dump_json().encode("utf-8")
        # Issue 27: each representation has its own strong tag (was: one tag for both).
        assert headers["etag"] != plain_headers["etag"]
