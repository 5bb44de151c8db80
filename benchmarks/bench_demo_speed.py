"""A warm ``make demo`` on an old commit and on the new one, side by side in one run (issue 29).

Each side is an export of its commit (``git archive``, so the shared repository's list of
worktrees is left alone) in a temporary folder, with its own Dagster instance and data
folder (the committed corpus and registry), run with this checkout's virtualenv and the
side's tree first on ``PYTHONPATH``. Each side runs the demo once untimed (cold: it fills
the model cache and the warehouse, and the new side writes its compiled lexicons), then the
sides run alternately, ``--reps`` times each, so both see the same load from other work on
the machine. Timed: the wall time of the whole ``python -m reliability_dagster.demo``
process (start, imports, every subject) and its CPU (user + system of the process and its
children). The load average is recorded before each run.

With ``--same-workload`` both sides run with the new tree's method hash (the hash seeds the
document selection and the claim sample, so two commits otherwise read different documents
and do different amounts of work): the timing then compares the code on one workload, and
the sides' summaries say whether the workload was the same.

Run: ``.venv/bin/python -m benchmarks.bench_demo_speed [--old adaa889] [--new HEAD]
[--reps 3] [--same-workload] [SUBJECT ...]``. Prints old, new and new/old for each figure, and writes
``benchmarks/results/bench_demo_speed.json``. Importing this module runs nothing.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
RESULTS = PROJECT_ROOT / "benchmarks" / "results" / "bench_demo_speed.json"
RESULTS_SAME_WORKLOAD = RESULTS.with_name("bench_demo_speed_same_workload.json")
POOL_LIMITS = {"anthropic": 16, "openai": 8, "perplexity": 8, "web": 16}  # the Makefile's POOL_LIMITS


@dataclass(frozen=True)
class Timing:
    side: str
    wall_s: float
    cpu_s: float
    load_before: float
    ok: bool
    summary: str  # the subjects' summaries the demo printed (its tree's path written <tree>)


def export_commit(ref: str, into: Path) -> str:
    """Unpack ``ref``'s tree into ``into``; returns the full commit id."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{ref}^{{commit}}"],
        cwd=PROJECT_ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    archive = subprocess.run(
        ["git", "archive", commit], cwd=PROJECT_ROOT, check=True, capture_output=True
    ).stdout
    into.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return commit


def side_env(tree: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(
        PYTHONPATH=str(tree),
        DAGSTER_HOME=str(tree / ".dagster_home"),
        RELIABILITY_DATA_DIR=str(tree / "data"),
    )
    return env


def prepare(tree: Path) -> None:
    """What ``make home pools`` does for the side: its instance, migrated, with the pools."""
    env = side_env(tree)
    home = tree / ".dagster_home"
    home.mkdir()
    shutil.copy(tree / "dagster.yaml", home / "dagster.yaml")
    dagster = str(Path(sys.executable).parent / "dagster")
    subprocess.run([dagster, "instance", "migrate"], env=env, cwd=tree, check=True, capture_output=True)
    for pool, limit in POOL_LIMITS.items():
        subprocess.run(
            [dagster, "instance", "concurrency", "set", pool, str(limit)],
            env=env,
            cwd=tree,
            check=True,
            capture_output=True,
        )


# Runs the side's demo with its method hash replaced by ``argv[1]`` (tools/pinned_run.py's
# way, inlined so an old tree without that tool runs too): both sides then draw the same
# documents, claims and evidence, and the timing compares the code on one workload.
_PINNED_DEMO = """
import runpy, sys
import reliability_core.version as version
pinned = sys.argv.pop(1)
version.tree_hash = lambda root, trees=(): pinned
version.method_version.cache_clear()
sys.argv[0] = "reliability_dagster.demo"
runpy.run_module("reliability_dagster.demo", run_name="__main__")
"""


def tree_hash_of(tree: Path) -> str:
    """The method hash the tree's own code computes for itself."""
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "from pathlib import Path; import sys; from reliability_core.version import tree_hash; "
            "print(tree_hash(Path(sys.argv[1])))",
            str(tree),
        ],
        env=side_env(tree),
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def run_demo(side: str, tree: Path, subjects: list[str], pinned: str | None = None) -> Timing:
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    command = ["-c", _PINNED_DEMO, pinned] if pinned else ["-m", "reliability_dagster.demo"]
    done = subprocess.run(
        [sys.executable, *command, *subjects],
        env=side_env(tree),
        cwd=tree,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        print(done.stdout[-2000:], done.stderr[-4000:], file=sys.stderr)
    summary = done.stdout.split("\n\n", 1)[-1].replace(str(tree), "<tree>")
    return Timing(side, round(wall, 2), round(cpu, 2), load, done.returncode == 0, summary)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "subjects", nargs="*", help="subject ids (default: every registry entry, as make demo)"
    )
    parser.add_argument("--old", default="adaa889", help="the old side's commit (default adaa889)")
    parser.add_argument("--new", default="HEAD", help="the new side's commit (default HEAD)")
    parser.add_argument("--reps", type=int, default=3, help="timed runs of each side (default 3)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary trees")
    parser.add_argument(
        "--same-workload",
        action="store_true",
        help="run both sides with the new tree's method hash, so both read the same documents, claims and "
        "evidence (without it each commit's own hash seeds its own sample, as make demo does)",
    )
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="bench_demo_speed_"))
    trees = {"old": work / "old", "new": work / "new"}
    commits = {side: export_commit(getattr(args, side), tree) for side, tree in trees.items()}
    for tree in trees.values():
        prepare(tree)
    pinned = tree_hash_of(trees["new"]) if args.same_workload else None
    timings: list[Timing] = []
    try:
        # The cold runs (untimed) of both sides at once, to save wall time.
        with ThreadPoolExecutor(max_workers=2) as pool:
            colds = list(pool.map(lambda side: run_demo(side, trees[side], args.subjects, pinned), trees))
        for cold in colds:
            print(f"{cold.side} cold (untimed set-up): {cold.wall_s} s wall, ok={cold.ok}")
        for rep in range(args.reps):
            # Alternate which side goes first, so neither always follows the other.
            order = ["old", "new"] if rep % 2 == 0 else ["new", "old"]
            for side in order:
                timing = run_demo(side, trees[side], args.subjects, pinned)
                timings.append(timing)
                print(
                    f"rep {rep + 1} {side}: {timing.wall_s} s wall, {timing.cpu_s} s CPU, "
                    f"load {timing.load_before:.1f}, ok={timing.ok}"
                )
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    def figures(side: str) -> dict[str, float]:
        mine = [t for t in timings if t.side == side]
        return {
            "wall_median_s": round(statistics.median(t.wall_s for t in mine), 2),
            "cpu_median_s": round(statistics.median(t.cpu_s for t in mine), 2),
            "wall_min_s": min(t.wall_s for t in mine),
            "cpu_min_s": min(t.cpu_s for t in mine),
        }

    old, new = figures("old"), figures("new")
    ratios = {key: round(new[key] / old[key], 3) for key in old}
    print(f"\n{'figure':<16}{'old':>10}{'new':>10}{'new/old':>10}")
    for key in old:
        print(f"{key:<16}{old[key]:>10}{new[key]:>10}{ratios[key]:>10}")
    # Each side must print the same reports on every run (a warm run replays its cold run). The two
    # sides' reports differ when their method versions do: the version (a hash of the code) seeds
    # the document selection and the claim sample ([M] "The seed is derived from the subject and
    # the method version"), so two commits read different documents by design.
    summaries = {side: {t.summary for t in timings if t.side == side} for side in trees}
    stable = all(len(texts) == 1 for texts in summaries.values())
    same_reports = len(summaries["old"] | summaries["new"]) == 1
    print(
        f"each side printed the same summaries on every run: {stable}; old and new the same: {same_reports}"
    )
    loads = [t.load_before for t in timings]
    print(f"load average (1 min) before the timed runs: {min(loads):.1f}-{max(loads):.1f}")
    results = RESULTS_SAME_WORKLOAD if pinned else RESULTS
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(
        json.dumps(
            {
                "benchmark": "bench_demo_speed",
                "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "subjects": args.subjects or "all registry entries (make demo)",
                "commits": commits,
                "reps": args.reps,
                "same_workload_method_hash": pinned,
                "old": old,
                "new": new,
                "new_over_old": ratios,
                "stable_summaries_within_each_side": stable,
                "same_summaries": same_reports,
                "summaries": {side: sorted(texts) for side, texts in summaries.items()},
                "load_average_1min": {"min": min(loads), "max": max(loads)},
                "cpus": os.cpu_count(),
                "runs": [{k: v for k, v in asdict(t).items() if k != "summary"} for t in timings],
            },
            indent=2,
        )
        + "\n"
    )
    print(f"written {results.relative_to(PROJECT_ROOT)}")
    return 0 if stable and all(t.ok for t in timings) else 1


if __name__ == "__main__":
    sys.exit(main())
