"""Scoring 10,000 subjects on an old commit and on the new one, side by side (issue 29).

The same 10,000 synthetic records (seeded: per subject and claim type, 0-40 checked claims
with values from the verdict table, a prior of mean 50 or a peer mean) are scored by each
side's own ``reliability_core.scores.scoring`` in a fresh process: the per-type score and
80% interval of every subject and type (the old side one record at a time through
``posterior_score`` / ``posterior_interval``; the new side all at once through
``score_records``), and the overall score with its seeded interval (``overall_posterior``,
one subject at a time on both sides). CPU seconds are ``time.process_time`` around each
part; the import of the scoring module is timed apart. The sides alternate ``--reps``
times. Every figure of the new side is compared with the old side's (largest absolute
difference; the target is 1e-9).

Run: ``.venv/bin/python -m benchmarks.bench_scoring_speed [--old adaa889] [--new HEAD]
[--subjects 10000] [--overall-subjects 1000] [--reps 2]``. Writes
``benchmarks/results/bench_scoring_speed.json``. Importing this module runs nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_demo_speed import export_commit

PROJECT_ROOT = Path(__file__).resolve().parent.parent
RESULTS = PROJECT_ROOT / "benchmarks" / "results" / "bench_scoring_speed.json"

# Runs inside each side's process (its tree first on PYTHONPATH).
WORKER = r"""
import json, sys, time
import numpy as np
t0 = time.process_time()
from reliability_core.scores import scoring
from reliability_core.constants import PRIOR_STRENGTH
from reliability_core.models.reports import Prior
import_s = time.process_time() - t0
subjects, overall_subjects, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = np.random.default_rng(29)
values = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
n = rng.integers(0, 41, size=(subjects, 3))
total = np.array([[values[rng.integers(0, 5, size=k)].sum() for k in row] for row in n])
peer = rng.random(subjects) < 0.5
mean = np.where(peer, rng.uniform(0.3, 0.9, subjects), 0.5)
alpha = np.repeat((PRIOR_STRENGTH * mean)[:, None], 3, axis=1)
beta = np.repeat((PRIOR_STRENGTH * (1 - mean))[:, None], 3, axis=1)
t0 = time.process_time()
if hasattr(scoring, "score_records"):
    path = "score_records (vectorised)"
    scores, lows, highs = scoring.score_records(alpha, beta, n, total)
else:
    path = "posterior_score + posterior_interval per record"
    scores, lows, highs = np.empty(n.shape), np.empty(n.shape), np.empty(n.shape)
    for i in range(subjects):
        for t in range(3):
            args = (float(alpha[i, t]), float(beta[i, t]), int(n[i, t]), float(total[i, t]))
            scores[i, t] = scoring.posterior_score(*args)
            lows[i, t], highs[i, t] = scoring.posterior_interval(*args)
types_s = time.process_time() - t0
types = ("factual", "promise", "prediction")
overall = np.full((overall_subjects, 3), np.nan)
t0 = time.process_time()
for i in range(overall_subjects):
    posteriors = [
        scoring.TypePosterior(
            claim_type=types[t], n=int(n[i, t]), sum_values=float(total[i, t]),
            prior=Prior(alpha=float(alpha[i, t]), beta=float(beta[i, t]), mean=100 * float(mean[i]), source="bench"),
            documents=1, mean=float(scores[i, t]), interval_low=float(lows[i, t]), interval_high=float(highs[i, t]),
        )
        for t in range(3)
    ]
    o = scoring.overall_posterior(posteriors)
    if o.mean is not None:
        overall[i] = (o.mean, o.interval_low, o.interval_high)
overall_s = time.process_time() - t0
np.savez(out, scores=scores, lows=lows, highs=highs, overall=overall)
print(json.dumps({"path": path, "import_s": import_s, "types_s": types_s, "overall_s": overall_s}))
"""


def run_side(tree: Path, subjects: int, overall_subjects: int, out: Path) -> dict[str, float | str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-c", WORKER, str(subjects), str(overall_subjects), str(out)],
        env=env,
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float | str] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default="adaa889")
    parser.add_argument("--new", default="HEAD")
    parser.add_argument("--subjects", type=int, default=10_000)
    parser.add_argument("--overall-subjects", type=int, default=1_000, help="subjects whose overall is timed")
    parser.add_argument("--reps", type=int, default=2)
    args = parser.parse_args(argv)
    import numpy as np

    work = Path(tempfile.mkdtemp(prefix="bench_scoring_speed_"))
    try:
        trees = {"old": work / "old", "new": work / "new"}
        commits = {side: export_commit(getattr(args, side), tree) for side, tree in trees.items()}
        runs: dict[str, list[dict[str, float | str]]] = {"old": [], "new": []}
        loads = []
        for rep in range(args.reps):
            for side in ["old", "new"] if rep % 2 == 0 else ["new", "old"]:
                loads.append(os.getloadavg()[0])
                runs[side].append(run_side(trees[side], args.subjects, args.overall_subjects, work / f"{side}.npz"))
        old_arrays, new_arrays = np.load(work / "old.npz"), np.load(work / "new.npz")
        differences = {
            key: float(np.nanmax(np.abs(old_arrays[key] - new_arrays[key]))) for key in old_arrays.files
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)

    scale = args.subjects / args.overall_subjects
    figures: dict[str, dict[str, float]] = {}
    for side, mine in runs.items():
        types_s = statistics.median(float(r["types_s"]) for r in mine)
        overall_s = statistics.median(float(r["overall_s"]) for r in mine) * scale
        figures[side] = {
            "import_scoring_cpu_s": round(statistics.median(float(r["import_s"]) for r in mine), 3),
            "scores_and_intervals_cpu_s": round(types_s, 3),
            "overall_cpu_s": round(overall_s, 2),
            "all_cpu_s": round(types_s + overall_s, 2),
        }
    print(f"{args.subjects} subjects x 3 types; overall timed on {args.overall_subjects} and scaled x{scale:g}")
    print(f"old path: {runs['old'][0]['path']}; new path: {runs['new'][0]['path']}")
    print(f"{'CPU seconds':<28}{'old':>10}{'new':>10}{'new/old':>10}")
    for key in figures["old"]:
        old, new = figures["old"][key], figures["new"][key]
        print(f"{key:<28}{old:>10}{new:>10}{round(new / old, 4) if old else float('nan'):>10}")
    print("largest |new - old|:", ", ".join(f"{k} {v:.2e}" for k, v in differences.items()))
    print(f"load average (1 min) before the runs: {min(loads):.1f}-{max(loads):.1f}")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "benchmark": "bench_scoring_speed",
                "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "commits": commits,
                "subjects": args.subjects,
                "overall_timed_on": args.overall_subjects,
                "reps": args.reps,
                "old": figures["old"],
                "new": figures["new"],
                "largest_abs_difference": differences,
                "load_average_1min": {"min": min(loads), "max": max(loads)},
                "runs": runs,
            },
            indent=2,
        )
        + "\n"
    )
    print(f"written {RESULTS.relative_to(PROJECT_ROOT)}")
    return 0 if max(differences.values()) <= 1e-9 else 1


if __name__ == "__main__":
    sys.exit(main())
