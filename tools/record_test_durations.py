"""Record how long each test file takes, for the order in which `make test` starts them.

pytest-xdist (``--dist loadfile``) hands each worker one file at a time, in collection order;
tests/conftest.py puts the files recorded here first, longest first, so the longest file is
never the last one started. Regenerate after a full run with durations:

    .venv/bin/pytest -q -n auto --dist loadfile --no-loadscope-reorder --durations=0 | tee /tmp/durations.log
    .venv/bin/python tools/record_test_durations.py /tmp/durations.log        # writes tests/durations.json

Several reports (e.g. runs that were each stopped part of the way): a file's figure is its
largest total in any of them. ``--merge`` keeps the recorded figure of every file the reports
do not cover (after re-measuring only the files a change made faster or slower).

Only the order depends on this file: a stale or missing entry makes a run slower, never wrong.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tests" / "durations.json"
# A line of pytest's --durations report: "12.34s call     tests/x/test_y.py::test_z[param]".
DURATION_LINE = re.compile(r"^\s*(?P<seconds>\d+(?:\.\d+)?)s\s+(?:setup|call|teardown)\s+(?P<nodeid>\S+)")


def file_seconds(report: str) -> dict[str, float]:
    """Seconds per test file (setup, call and teardown of all its tests), longest first."""
    totals: dict[str, float] = defaultdict(float)
    for line in report.splitlines():
        match = DURATION_LINE.match(line)
        if match:
            totals[match["nodeid"].split("::")[0]] += float(match["seconds"])
    return dict(
        sorted(((path, round(seconds, 1)) for path, seconds in totals.items()), key=lambda kv: -kv[1])
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("reports", type=Path, nargs="+", help="outputs of pytest runs with --durations=0")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument(
        "--merge", action="store_true", help="keep the recorded figures of files the reports do not cover"
    )
    args = parser.parse_args()
    seconds: dict[str, float] = {}
    for report in args.reports:
        found = file_seconds(report.read_text(encoding="utf-8", errors="replace"))
        if not found:
            raise SystemExit(f"no --durations lines in {report}")
        for path, total in found.items():
            seconds[path] = max(seconds.get(path, 0.0), total)
    if args.merge and args.output.exists():
        recorded = json.loads(args.output.read_text(encoding="utf-8"))
        seconds = {**{path: float(value) for path, value in recorded.items()}, **seconds}
    seconds = dict(sorted(seconds.items(), key=lambda kv: -kv[1]))
    args.output.write_text(json.dumps(seconds, indent=1) + "\n", encoding="utf-8")
    print(f"{len(seconds)} files, {sum(seconds.values()):.0f} s in all -> {args.output}")


if __name__ == "__main__":
    main()
