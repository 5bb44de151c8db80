"""The latency benchmark's own pieces (the full run needs a server; see docs/architecture/api.md)."""

from collections import Counter
from pathlib import Path

import pytest

from benchmarks.bench_api_latency import NOW, percentile, summarise, write_warehouse
from reliability_api.store import ReportStore
from reliability_core.warehouse import Warehouse, tables


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 50), percentile(values, 95), percentile(values, 99)) == (50.0, 95.0, 99.0)
    assert percentile([7.0], 99) == 7.0


def test_summary_reports_milliseconds_and_throughput() -> None:
    summary = summarise([0.010, 0.020, 0.030, 0.040], 2.0, Counter({200: 4}))
    assert summary.p50_ms == pytest.approx(20.0) and summary.max_ms == pytest.approx(40.0)
    assert summary.per_second == 2.0 and summary.statuses == {200: 4}


def test_generated_warehouse_holds_a_history_and_the_api_serves_the_newest(tmp_path: Path) -> None:
    ids = write_warehouse(str(tmp_path / "w"), subjects=2, claims=9, history=2)
    warehouse = Warehouse(str(tmp_path / "w"))
    assert len(warehouse.read_arrow(tables.REPORTS, ids[1]) or []) == 2
    latest = ReportStore(warehouse).latest_report(ids[1])
    assert latest is not None and latest.generated_at == NOW and latest.subject_id == ids[1]
    assert len(latest.claims) == 9 and latest.overall is not None


def test_last_line_compares_the_report_read_with_the_trivial_endpoint() -> None:
    from benchmarks.bench_api_latency import Measured, verdict_line

    report = Measured(summary=summarise([0.01] * 100, 1.0, Counter({200: 100})), server_cpu_s=0.06)
    trivial = Measured(summary=summarise([0.01] * 200, 1.0, Counter({200: 200})), server_cpu_s=0.04)
    assert verdict_line(report, trivial) == (
        "report read: server cpu 0.600 ms/request (trivial 0.200), ratio 3.00; throughput ratio 0.50"
    )
