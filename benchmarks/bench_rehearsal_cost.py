"""Benchmark: the cost per checked claim of the live rehearsal, per step.

Runs covered demo subjects through the quick-report job on the live provider
classes against the rehearsal servers (``reliability_core.rehearsal``): prompts
are counted as sent, outputs as the scripted model writes them (the answer JSON
plus thinking/reasoning tokens at the step's effort), priced at the list prices
of ``data/config/prices.yaml`` with the default model assignment. Prints calls,
tokens and cost per step, each step's share, and the cost per checked claim
against the target of $0.10 (issue 14 section 4).

Run: ``.venv/bin/python benchmarks/bench_rehearsal_cost.py [subject ...]``
(default: amara-okafor clearwater-evaluators; about a minute each on this machine).
Importing this module runs nothing.
"""

from __future__ import annotations

import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from reliability_dagster.rehearsal import rehearse, step_table

TARGET_USD_PER_CHECKED_CLAIM = 0.10
DEFAULT_SUBJECTS = ("amara-okafor", "clearwater-evaluators")


def main(argv: list[str]) -> int:
    subjects = argv or list(DEFAULT_SUBJECTS)
    with tempfile.TemporaryDirectory(prefix="bench-rehearsal-") as tmp:
        outcomes, servers = rehearse(subjects, Path(tmp))
    totals: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for outcome in outcomes:
        status = "ok" if outcome.success else "FAILED"
        per = outcome.cost_per_checked_claim
        shown = f"${per:.4f}" if per is not None else "n/a"
        print(f"{outcome.subject_id}: {status}, {outcome.checked_claims} checked claims, ${outcome.cost_usd:.4f} ({shown} per claim)")
        for step, usage in outcome.by_step.items():
            for key, value in usage.items():
                totals[step][key] += value
    checked = sum(o.checked_claims for o in outcomes)
    cost = sum(o.cost_usd for o in outcomes)
    print(step_table({s: dict(u) for s, u in sorted(totals.items())}, checked))
    for step, usage in sorted(totals.items(), key=lambda kv: -kv[1]["cost_usd"]):
        print(f"   {step:<20} {100 * usage['cost_usd'] / cost if cost else 0:5.1f}% of cost")
    print(f"scripted model's mistakes: {dict(sorted(servers.log.mistakes.items()))}")
    print(f"server responses by status: {dict(sorted(servers.log.statuses.items()))}")
    unpriced = sorted({m for o in outcomes for m in o.unpriced_models})
    if unpriced:
        print(f"INCOMPLETE: no list price for {', '.join(unpriced)} in data/config/prices.yaml; its calls count $0")
    per_claim = cost / checked if checked else float("nan")
    batch = sum(o.batch_cost_usd for o in outcomes) / checked if checked else float("nan")
    print(f"the same calls at the vendors' batch prices (priced, not run on the batch APIs): ${batch:.4f} per checked claim")
    verdict = "within" if per_claim <= TARGET_USD_PER_CHECKED_CLAIM else "ABOVE"
    print(
        f"rehearsal cost per checked claim: ${per_claim:.4f} over {checked} claims "
        f"({verdict} the ${TARGET_USD_PER_CHECKED_CLAIM:.2f} target)"
    )
    return 0 if all(o.success for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
