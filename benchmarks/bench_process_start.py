"""What a new process costs before it does any work, on an old commit and on the new one,
side by side in one run (issue 29): queued runs and CLI calls each pay a process start.

Three probes, each a fresh ``python`` with the side's tree first on ``PYTHONPATH`` (the
sides' trees are ``git archive`` exports, so both read the same way; each probe runs once
untimed first, so Python's bytecode caches are written before timing):

- ``help``: ``reliability --help`` (``python -m reliability_cli --help``);
- ``scoring``: ``import reliability_core.scores.scoring``;
- ``run_path``: import the code location (``reliability_dagster.definitions``), build the
  offline model gateway and search, and run one search: where a run makes its first call;
  also records whether scipy, matplotlib or a vendor SDK was imported by then.

Each figure is the process's wall time and its CPU (user + system), the median of
``--reps`` runs, the sides alternating. The load average is recorded.

Run: ``.venv/bin/python -m benchmarks.bench_process_start [--old adaa889] [--new HEAD]
[--reps 5]``. Writes ``benchmarks/results/bench_process_start.json``. Importing this module
runs nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_demo_speed import export_commit

PROJECT_ROOT = Path(__file__).resolve().parent.parent
RESULTS = PROJECT_ROOT / "benchmarks" / "results" / "bench_process_start.json"
HEAVY = ("scipy", "matplotlib", "anthropic", "openai", "perplexity")

PROBES: dict[str, list[str]] = {
    "help": ["-m", "reliability_cli", "--help"],
    "scoring": ["-c", "import reliability_core.scores.scoring"],
    "run_path": [
        "-c",
        "import asyncio, json, sys\n"
        "from pathlib import Path\n"
        "import reliability_dagster.definitions\n"
        "from reliability_core.providers.base import SearchQuery\n"
        "from reliability_core.wiring import build_gateway, build_search\n"
        "build_gateway({}, None)\n"
        "search = build_search({}, Path('data/corpus'))\n"
        "asyncio.run(search.search('northwind-energy', 'identity', SearchQuery(query='Northwind Energy'), 'bench'))\n"
        f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({list(HEAVY)!r}))))\n",
    ],
}


def probe(tree: Path, args: list[str]) -> tuple[float, float, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(PYTHONPATH=str(tree), RELIABILITY_DATA_DIR=str(tree / "data"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *args], env=env, cwd=tree, capture_output=True, text=True, check=True
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default="adaa889")
    parser.add_argument("--new", default="HEAD")
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench_process_start_"))
    figures: dict[str, dict[str, dict[str, float]]] = {"old": {}, "new": {}}
    heavy: dict[str, str] = {}
    loads: list[float] = []
    try:
        trees = {"old": work / "old", "new": work / "new"}
        commits = {side: export_commit(getattr(args, side), tree) for side, tree in trees.items()}
        for name, probe_args in PROBES.items():
            for tree in trees.values():
                probe(tree, probe_args)  # untimed: writes the bytecode caches
            samples: dict[str, list[tuple[float, float]]] = {"old": [], "new": []}
            for rep in range(args.reps):
                for side in ["old", "new"] if rep % 2 == 0 else ["new", "old"]:
                    loads.append(os.getloadavg()[0])
                    wall, cpu, out = probe(trees[side], probe_args)
                    samples[side].append((wall, cpu))
                    if name == "run_path":
                        heavy[side] = out
            for side, mine in samples.items():
                figures[side][name] = {
                    "wall_s": round(statistics.median(w for w, _ in mine), 3),
                    "cpu_s": round(statistics.median(c for _, c in mine), 3),
                }
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{'probe':<10}{'figure':<8}{'old':>9}{'new':>9}{'new/old':>9}")
    for name in PROBES:
        for key in ("wall_s", "cpu_s"):
            old, new = figures["old"][name][key], figures["new"][name][key]
            print(f"{name:<10}{key:<8}{old:>9}{new:>9}{round(new / old, 3):>9}")
    print(f"heavy modules imported by the first search: old {heavy['old']}, new {heavy['new']}")
    print(f"load average (1 min): {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} CPUs")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "benchmark": "bench_process_start",
                "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "commits": commits,
                "reps": args.reps,
                "old": figures["old"],
                "new": figures["new"],
                "heavy_modules_at_first_search": heavy,
                "load_average_1min": {"min": min(loads), "max": max(loads)},
                "cpus": os.cpu_count(),
            },
            indent=2,
        )
        + "\n"
    )
    print(f"written {RESULTS.relative_to(PROJECT_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
