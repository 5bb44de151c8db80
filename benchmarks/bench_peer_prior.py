"""Benchmark: what the peers' prior costs one run as stored subjects accumulate.

For 10, 100 and 1,000 stored subjects (``--sizes``), each with a stored report of
``--claims`` claims and its peer figures, it times on a throwaway local warehouse:

* **per run, now**: what one subject's run does for the peers' prior: read the
  day's frozen peer snapshot (sums per kind and type) from the ledger and its own
  figures, twice (the scoring step and the blocking recompute check), choose the
  prior of every claim type, and record the published report's figures
  (``reliability_core.scores.peers``);
* **once a day, now**: building and freezing the day's snapshot (the first run of
  the day reads every subject's figures, once);
* **per run, before**: what each run did until issue 19: read every stored report
  of every subject (``Warehouse.read`` + ``publication.latest_report``), twice.

Prints one line per size and last ``per-run peer cost: <10> ms at 10 subjects,
<N> ms at <N> subjects (x<ratio>); before: ...``. Run:
``.venv/bin/python -m benchmarks.bench_peer_prior [--sizes 10 100 1000] [--claims 10]``.
Importing this module runs nothing.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from benchmarks.bench_api_latency import NOW, realistic_report
from reliability_core.clock import FixedClock
from reliability_core.models import CLAIM_TYPES, Report
from reliability_core.scores.peers import (
    SnapshotPriorLookup,
    own_figures,
    peer_cutoff,
    peer_figures_of,
    peer_snapshot,
    record_peer_figures,
)
from reliability_core.scores.publication import latest_report
from reliability_core.scores.scoring import prior_for
from reliability_core.warehouse import Ledger, Warehouse, tables

YESTERDAY = NOW - timedelta(days=1)


def stored_world(root: str, subjects: int, claims: int) -> tuple[Warehouse, list[str], Report]:
    """``subjects`` subjects with a report generated yesterday and its peer figures."""
    warehouse = Warehouse(root)
    template = realistic_report("template", claims, seed=1, at=YESTERDAY)
    ids = [f"peer-{i:04d}" for i in range(subjects)]
    for subject_id in ids:
        report = template.model_copy(update={"subject_id": subject_id, "id": f"rpt_{subject_id}"})
        warehouse.write(tables.REPORTS, subject_id, [report])
        figures = peer_figures_of(report, "company")
        assert figures is not None
        record_peer_figures(warehouse, figures)
    return warehouse, ids, template


def best_of(repeats: int, work: Callable[[], object]) -> float:
    """The median wall time of ``repeats`` calls, in milliseconds."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def measure(subjects: int, claims: int, repeats: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="bench-peers-") as tmp:
        warehouse, ids, template = stored_world(str(Path(tmp) / "w"), subjects, claims)
        ledger = Ledger(warehouse)
        clock = FixedClock(NOW)
        as_of = peer_cutoff(NOW)

        def kinds() -> dict[str, str]:
            return dict.fromkeys(ids, "company")

        started = time.perf_counter()
        peer_snapshot(warehouse, ledger, as_of=as_of, clock=clock, kinds=kinds)  # builds and freezes it
        build_ms = (time.perf_counter() - started) * 1000
        me = template.model_copy(update={"subject_id": "me", "id": "rpt_me", "generated_at": NOW})

        def one_run_now() -> None:
            for _ in range(2):  # the scoring step and the recompute check
                day = peer_snapshot(warehouse, ledger, as_of=as_of, clock=clock, kinds=kinds)
                own = own_figures(warehouse, "me", as_of=as_of, kind="company")
                lookup = SnapshotPriorLookup(kind="company", snapshot=day, own=own)
                for claim_type in CLAIM_TYPES:
                    prior_for(claim_type, lookup)
            figures = peer_figures_of(me, "company")
            assert figures is not None
            record_peer_figures(warehouse, figures)

        def one_run_before() -> None:
            for _ in range(2):
                found = (latest_report(warehouse.read(tables.REPORTS, s, Report)) for s in warehouse.subjects(tables.REPORTS))
                [r for r in found if r is not None]

        return {
            "now": best_of(repeats, one_run_now),
            "build": build_ms,
            "before": best_of(max(1, repeats // 3) if subjects > 100 else repeats, one_run_before),
        }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--claims", type=int, default=10, help="claims per stored report")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    results = {}
    for size in args.sizes:
        results[size] = measure(size, args.claims, args.repeats)
        r = results[size]
        print(
            f"{size:>5} stored subjects: per run now {r['now']:7.1f} ms; once a day (snapshot build) "
            f"{r['build']:7.1f} ms; per run before {r['before']:8.1f} ms",
            flush=True,
        )
    small, large = min(results), max(results)
    print(
        f"per-run peer cost: {results[small]['now']:.1f} ms at {small} subjects, {results[large]['now']:.1f} ms at "
        f"{large} subjects (x{results[large]['now'] / results[small]['now']:.2f}); before: "
        f"{results[small]['before']:.1f} ms -> {results[large]['before']:.1f} ms "
        f"(x{results[large]['before'] / results[small]['before']:.1f})"
    )


if __name__ == "__main__":
    main()
