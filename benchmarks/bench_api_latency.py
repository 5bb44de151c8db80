"""Benchmark: report reads against a trivial endpoint of the same app, under concurrent load on loopback.

1. Writes a warehouse of ``--subjects`` subjects (default 200), each with a
   realistic report built by ``reliability_core.scores.report.build_report`` from
   generated records (``--claims`` claims per subject, three pieces of evidence
   each, both judges, criteria, a few disputed and held verdicts; ~123 KB of
   JSON), and ``--history`` stored reports per subject (the pipeline keeps
   earlier reports in the partition, so every read has to pick the latest).
2. Starts the API app of ``reliability-api`` plus one trivial endpoint
   (``benchmarks/api_bench_server.py``: same framework, middleware, uvicorn
   server and process) on 127.0.0.1 and a free port, in a subprocess.
3. From this process (the second process), ``--concurrency`` workers (default
   16) send ``--requests`` (default 2,000) requests per round over keep-alive
   connections, alternating rounds of the trivial endpoint and of
   ``GET /v1/subjects/{id}/report`` (ids drawn with a fixed seed), so load from
   elsewhere on a shared machine falls on both. The server's CPU time
   (``/proc/<pid>/stat``) is read around every round.
4. Prints latency and throughput of each, and last the line
   ``report read: server cpu <x> ms/request (trivial <y>), ratio <x/y>; throughput ratio <r>``.
   Absolute latencies say more about the machine than the code: read the ratios.

Run: ``.venv/bin/python benchmarks/bench_api_latency.py [--subjects 200] [--requests 2000]``.
Importing this module runs nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from benchmarks.api_bench_server import TRIVIAL_PATH
from reliability_core.clock import FixedClock
from reliability_core.models import (
    CandidateDocument,
    Claim,
    ClaimVerdict,
    CoverageDecision,
    CriteriaLevels,
    DocumentSelection,
    EvidenceItem,
    GateOutcome,
    JudgeVerdict,
    Report,
    ResolutionCriteria,
    SampleMembership,
    Statement,
)
from reliability_core.models.base import CLAIM_TYPES, SCORED_VERDICTS, Verdict
from reliability_core.scores.report import build_report
from reliability_core.warehouse import Warehouse, tables

PROJECT_ROOT = Path(__file__).resolve().parent.parent
MV = "0.1.0+bench.offline-rules"
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
_PUBLISHERS = ("Wire", "Morning Post", "Energy Regulator", "Statistics Office", "Giving Times")


@dataclass(frozen=True)
class LatencySummary:
    requests: int
    seconds: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    mean_ms: float
    max_ms: float
    statuses: dict[int, int]

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds > 0 else 0.0


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of already sorted values (q in 0..100)."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), math.ceil(q / 100 * len(sorted_values) - 1e-9)))
    return sorted_values[rank - 1]


def summarise(latencies_s: Sequence[float], seconds: float, statuses: Counter[int]) -> LatencySummary:
    ms = sorted(x * 1000 for x in latencies_s)
    return LatencySummary(
        requests=len(ms),
        seconds=seconds,
        p50_ms=percentile(ms, 50),
        p95_ms=percentile(ms, 95),
        p99_ms=percentile(ms, 99),
        mean_ms=statistics.fmean(ms) if ms else float("nan"),
        max_ms=ms[-1] if ms else float("nan"),
        statuses=dict(sorted(statuses.items())),
    )


# --- A realistic warehouse ------------------------------------------------------------


def _subject_records(
    subject_id: str, n_claims: int, rng: random.Random, at: datetime
) -> dict[str, list[Any]]:
    name = subject_id.replace("-", " ").title()
    docs = [f"doc_{subject_id}_{i}" for i in range(max(4, n_claims // 5))]
    years = {d: 2016 + i % 9 for i, d in enumerate(docs)}
    records: dict[str, list[Any]] = {
        k: [] for k in ("statements", "claims", "samples", "criteria", "evidence", "verdicts")
    }
    for i in range(n_claims):
        claim_id = f"clm_{i:03d}"
        doc = docs[i % len(docs)]
        url = f"https://news.example/{subject_id}/{doc}"
        claim_type = CLAIM_TYPES[i % 3]
        quote = f"In {years[doc]} we installed {1 + i % 7}.{i % 10} GW of offshore capacity across {3 + i % 5} markets."
        records["statements"].append(
            Statement(
                method_version=MV,
                id=f"st_{claim_id}",
                subject_id=subject_id,
                document_id=doc,
                url=url,
                snapshot_sha256="ab" * 32,
                quote=quote,
                quote_verified=i % 17 != 0,
                extracted_by="offline-rules",
            )
        )
        records["claims"].append(
            Claim(
                method_version=MV,
                id=claim_id,
                statement_id=f"st_{claim_id}",
                subject_id=subject_id,
                document_id=doc,
                url=url,
                quote=quote,
                quote_verified=i % 17 != 0,
                speaker=name,
                claim_type=claim_type,
                restatement=f"{name} said it installed capacity in {years[doc]}.",
                made_on=date(years[doc], 1 + i % 12, 1),
                triage="resolvable_now",
                triage_reason="dated figure with a public record",
                classified_by="offline-rules",
            )
        )
        sampled = i % 6 != 5
        records["samples"].append(
            SampleMembership(
                method_version=MV,
                claim_id=claim_id,
                subject_id=subject_id,
                claim_type=claim_type,
                triage="resolvable_now",
                sampled=sampled,
                position=i if sampled else None,
                seed=7,
                reason="seeded per-type sample",
            )
        )
        if not sampled:
            continue
        records["criteria"].append(
            ResolutionCriteria(
                method_version=MV,
                id=f"crit_{claim_id}",
                claim_id=claim_id,
                subject_id=subject_id,
                levels=CriteriaLevels(
                    true="within 5% of the stated figure",
                    mostly_true="within 15%",
                    mixed="within 30%",
                    mostly_false="within 50%",
                    false="off by more than 50%",
                ),
                judge_at=date(2026, 6, 1),
                written_at=at - timedelta(days=3),
                written_by="offline-rules",
                content_hash="cd" * 32,
            )
        )
        for k in range(3):
            records["evidence"].append(
                EvidenceItem(
                    method_version=MV,
                    id=f"ev_{claim_id}_{k}",
                    claim_id=claim_id,
                    subject_id=subject_id,
                    url=f"https://wire.example/{subject_id}/{i}/{k}",
                    final_url=None,
                    snapshot_id=f"snap_{claim_id}_{k}",
                    snapshot_sha256=f"{k:02d}" * 32,
                    http_status=200,
                    fetched_at=at - timedelta(days=2),
                    quote=f"In its {years[doc]} annual report, filed {years[doc] + 1}-02-01, {name} "
                    f"reported {1 + i % 7}.{(i + k) % 10} GW of installed offshore capacity.",
                    quote_verified=True,
                    source_class="wire_service" if k else "official_record",
                    publisher=_PUBLISHERS[(i + k) % len(_PUBLISHERS)],
                    independent=True,
                    published_date=date(years[doc] + 1, 2, 1),
                    side="for",
                    stance="supports",
                )
            )
        verdict: Verdict = rng.choice(SCORED_VERDICTS)
        verdict_b: Verdict = verdict if rng.random() > 0.1 else rng.choice(SCORED_VERDICTS)
        shown = rng.random() > 0.05
        judges = [
            JudgeVerdict(
                method_version=MV,
                claim_id=claim_id,
                judge_id=j,
                provider="offline",
                model="offline-rules",  # type: ignore[arg-type]
                verdict=v,
                confidence=0.8,
                basis="independent_source",
                rationale="The filed annual report states the installed figure; it matches the claim.",
                cited_evidence_ids=[f"ev_{claim_id}_0", f"ev_{claim_id}_1"],
                decided_at=at - timedelta(days=1),
            )
            for j, v in (("A", verdict), ("B", verdict_b))
        ]
        records["verdicts"].append(
            ClaimVerdict(
                method_version=MV,
                claim_id=claim_id,
                subject_id=subject_id,
                verdict=verdict,
                judge_a=judges[0],
                judge_b=judges[1],
                judges_disagree=verdict != verdict_b,
                basis="independent_source",
                gate=GateOutcome(
                    shown=shown, failed=[] if shown else ["fewer than 2 independent publishers"]
                ),
                evidence_ids=[f"ev_{claim_id}_{k}" for k in range(3)],
                reason="literal reading",
                decided_at=at - timedelta(days=1),
            )
        )
    records["docs"] = docs
    records["years"] = [years[d] for d in docs]
    return records


def realistic_report(subject_id: str, n_claims: int, seed: int, at: datetime) -> Report:
    """A report as the pipeline builds it, from generated but well-formed records."""
    rng = random.Random(f"{subject_id}:{seed}")
    r = _subject_records(subject_id, n_claims, rng, at)
    coverage = CoverageDecision(
        method_version=MV,
        subject_id=subject_id,
        name=subject_id.title(),
        identity_confirmed=True,
        is_public_figure_or_organisation=True,
        is_serving_politician=False,
        has_consent=False,
        covered=True,
        reasons=["public company, not a politician"],
        evidence=[],
        decided_by="offline-rules",
        decided_at=at,
    )
    docs, years = r["docs"], r["years"]
    return build_report(
        subject_id=subject_id,
        subject_name=subject_id.replace("-", " ").title(),
        coverage=coverage,
        candidates=[
            CandidateDocument(
                method_version=MV,
                id=d,
                subject_id=subject_id,
                url=f"https://news.example/{d}",
                title=d,
                year=y,
                search_result_set_id="srs_1",
                rank=1,
                listed_at=at,
            )
            for d, y in zip(docs, years, strict=True)
        ],
        selections=[
            DocumentSelection(
                method_version=MV,
                subject_id=subject_id,
                document_id=d,
                url=f"https://news.example/{d}",
                position=i,
                slot="spread",
                year=y,
                seed=7,
                reason="spread over years",
            )
            for i, (d, y) in enumerate(zip(docs, years, strict=True))
        ],
        statements=r["statements"],
        dropped=[],
        claims=r["claims"],
        samples=r["samples"],
        criteria=r["criteria"],
        evidence=r["evidence"],
        verdicts=r["verdicts"],
        responses=[],
        rulings=[],
        prior_lookup=None,
        models_used={"judge_a": "offline-rules", "judge_b": "offline-rules"},
        offline=True,
        clock=FixedClock(at),
        method_version=MV,
    )


def write_warehouse(root: str, subjects: int, claims: int, history: int) -> list[str]:
    """Write ``subjects`` subjects, each with ``history`` reports (the latest newest), and return their ids."""
    store = Warehouse(root)
    ids = [f"subject-{i:04d}" for i in range(subjects)]
    template: list[Report] = [
        realistic_report("template", claims, seed=k, at=NOW - timedelta(days=30 * (history - 1 - k)))
        for k in range(history)
    ]
    for subject_id in ids:
        # Re-labelling one built history per subject keeps generation fast; every
        # subject's partition still has the full size and history of a real one.
        reports = [
            rep.model_copy(
                update={
                    "subject_id": subject_id,
                    "id": f"rpt_{subject_id}_{k}",
                    "subject_name": subject_id.replace("-", " ").title(),
                    "content_hash": f"{subject_id}{rep.content_hash}"[:64],
                }
            )
            for k, rep in enumerate(template)
        ]
        store.write(tables.REPORTS, subject_id, reports)
    return ids


# --- Server and load ----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(warehouse_root: str, port: int) -> subprocess.Popen[bytes]:
    """The API app of ``reliability-api`` plus a trivial endpoint (``api_bench_server``), one uvicorn process."""
    env = {
        **os.environ,
        "RELIABILITY_WAREHOUSE": warehouse_root,
        "RELIABILITY_NOW": NOW.isoformat(),
        "PYTHONPATH": str(PROJECT_ROOT),
    }
    env.pop("ANTHROPIC_API_KEY", None)
    env.pop("OPENAI_API_KEY", None)
    return subprocess.Popen(
        [sys.executable, "-m", "benchmarks.api_bench_server", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        cwd=PROJECT_ROOT,
    )


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds the process has used so far (Linux ``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat(5))
    return ticks / os.sysconf("SC_CLK_TCK")


def wait_until_ready(base_url: str, process: subprocess.Popen[bytes], timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the API exited with code {process.returncode} before it was ready")
        try:
            if httpx.get(f"{base_url}/v1/subjects?limit=1", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the API did not answer within {timeout_s:.0f} s")


def report_paths(subject_ids: Sequence[str], total: int, seed: int = 11) -> list[str]:
    """``total`` report reads, subjects drawn with a fixed seed."""
    rng = random.Random(seed)
    return [f"/v1/subjects/{rng.choice(subject_ids)}/report" for _ in range(total)]


async def run_load(
    base_url: str,
    paths: Sequence[str],
    *,
    concurrency: int,
    max_seconds: float,
) -> LatencySummary:
    """``concurrency`` workers share the requests of ``paths``; stops early at ``max_seconds``."""
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    next_index = 0
    started = time.perf_counter()
    stop_at = started + max_seconds
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)

    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=30.0) as client:

        async def worker() -> None:
            nonlocal next_index
            while next_index < len(paths) and time.perf_counter() < stop_at:
                path = paths[next_index]
                next_index += 1
                t0 = time.perf_counter()
                response = await client.get(path)
                await response.aread()
                latencies.append(time.perf_counter() - t0)
                statuses[response.status_code] += 1

        await asyncio.gather(*(worker() for _ in range(concurrency)))
    return summarise(latencies, time.perf_counter() - started, statuses)


def format_table(
    summary: LatencySummary, *, subjects: int, claims: int, history: int, report_kib: float, concurrency: int
) -> str:
    rows = [
        ("subjects x reports per partition", f"{subjects} x {history}"),
        ("claims per report", str(claims)),
        ("report JSON size", f"{report_kib:.0f} KiB"),
        ("concurrent workers", str(concurrency)),
        ("requests", str(summary.requests)),
        ("status codes", ", ".join(f"{k}: {v}" for k, v in summary.statuses.items())),
        ("p50 latency", f"{summary.p50_ms:.1f} ms"),
        ("p95 latency", f"{summary.p95_ms:.1f} ms"),
        ("p99 latency", f"{summary.p99_ms:.1f} ms"),
        ("mean / max", f"{summary.mean_ms:.1f} / {summary.max_ms:.1f} ms"),
        ("throughput", f"{summary.per_second:.0f} requests/s over {summary.seconds:.1f} s"),
    ]
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)


@dataclass(frozen=True)
class Measured:
    """One endpoint's load over all rounds: latencies and the server's CPU for them."""

    summary: LatencySummary
    server_cpu_s: float

    @property
    def cpu_ms_per_request(self) -> float:
        return 1000 * self.server_cpu_s / self.summary.requests if self.summary.requests else float("nan")


def measure(
    base_url: str, server_pid: int, paths: Sequence[str], *, concurrency: int, max_seconds: float
) -> tuple[LatencySummary, float]:
    """One round of load and the server CPU it cost (the server does nothing else meanwhile)."""
    cpu_before = process_cpu_seconds(server_pid)
    summary = asyncio.run(run_load(base_url, paths, concurrency=concurrency, max_seconds=max_seconds))
    return summary, process_cpu_seconds(server_pid) - cpu_before


def combine(rounds: Sequence[tuple[LatencySummary, float]]) -> Measured:
    """Rounds of one endpoint as one measurement (requests and seconds added up; percentiles
    of the rounds' percentiles would be wrong, so the latency figures are the slowest round's)."""
    requests = sum(r.requests for r, _ in rounds)
    seconds = sum(r.seconds for r, _ in rounds)
    statuses: Counter[int] = Counter()
    for r, _ in rounds:
        statuses.update(r.statuses)
    slowest = max((r for r, _ in rounds), key=lambda r: r.p95_ms)
    summary = LatencySummary(
        requests=requests,
        seconds=seconds,
        p50_ms=slowest.p50_ms,
        p95_ms=slowest.p95_ms,
        p99_ms=slowest.p99_ms,
        mean_ms=slowest.mean_ms,
        max_ms=max(r.max_ms for r, _ in rounds),
        statuses=dict(sorted(statuses.items())),
    )
    return Measured(summary=summary, server_cpu_s=sum(cpu for _, cpu in rounds))


def verdict_line(report: Measured, trivial: Measured) -> str:
    """The benchmark's last line: the report read against the trivial endpoint."""
    x, y = report.cpu_ms_per_request, trivial.cpu_ms_per_request
    ratio = x / y if y > 0 else float("inf")
    throughput = report.summary.per_second / trivial.summary.per_second if trivial.summary.per_second else 0.0
    return (
        f"report read: server cpu {x:.3f} ms/request (trivial {y:.3f}), ratio {ratio:.2f}; "
        f"throughput ratio {throughput:.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--subjects", type=int, default=200)
    parser.add_argument("--claims", type=int, default=40)
    parser.add_argument("--history", type=int, default=3)
    parser.add_argument("--requests", type=int, default=2000, help="per endpoint per round")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of each endpoint")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--max-seconds", type=float, default=30.0, help="per round")
    parser.add_argument(
        "--warehouse", help="reuse or keep the generated warehouse here (default: a temporary dir)"
    )
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="bench-api-") as tmp:
        root = args.warehouse or str(Path(tmp) / "warehouse")
        t0 = time.perf_counter()
        ids = write_warehouse(root, args.subjects, args.claims, args.history)
        report_kib = len(Warehouse(root).read(tables.REPORTS, ids[0], Report)[-1].model_dump_json()) / 1024
        print(f"warehouse: {len(ids)} subjects written in {time.perf_counter() - t0:.1f} s", flush=True)
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        server = start_server(root, port)
        reads: list[tuple[LatencySummary, float]] = []
        trivials: list[tuple[LatencySummary, float]] = []
        try:
            wait_until_ready(base_url, server)
            # Warm the interpreter and the connections on the trivial endpoint only: the
            # report reads include each report's first (preparing) read.
            measure(base_url, server.pid, [TRIVIAL_PATH] * 200, concurrency=args.concurrency, max_seconds=10)
            # Alternating rounds, so a neighbour's load on this shared machine falls on both.
            for k in range(args.rounds):
                trivials.append(
                    measure(
                        base_url,
                        server.pid,
                        [TRIVIAL_PATH] * args.requests,
                        concurrency=args.concurrency,
                        max_seconds=args.max_seconds,
                    )
                )
                reads.append(
                    measure(
                        base_url,
                        server.pid,
                        report_paths(ids, args.requests, seed=11 + k),
                        concurrency=args.concurrency,
                        max_seconds=args.max_seconds,
                    )
                )
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    report, trivial = combine(reads), combine(trivials)
    for name, measured in (("report read", report), ("trivial endpoint", trivial)):
        print(f"\n{name}")
        print(
            format_table(
                measured.summary,
                subjects=args.subjects,
                claims=args.claims,
                history=args.history,
                report_kib=report_kib,
                concurrency=args.concurrency,
            )
        )
        print(f"server cpu: {measured.cpu_ms_per_request:.3f} ms/request")
    print(verdict_line(report, trivial))
    return 0 if report.summary.statuses.keys() == {200} == trivial.summary.statuses.keys() else 1


if __name__ == "__main__":
    raise SystemExit(main())
