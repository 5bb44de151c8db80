"""Issue 29: `make test` runs pytest on both cores. A file's tests stay on one worker (a
module-scoped fixture is built once), and the slow files start first so that no worker is
left alone with a five-minute test at the end."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests import conftest
from tests.conftest import PROJECT_ROOT, pytest_collection_modifyitems

WORKER = SimpleNamespace(workerinput={"workerid": "gw0"})


@dataclass
class FakeItem:
    nodeid: str
    marks: set[str] = field(default_factory=set)

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.marks else None


def _items() -> list[FakeItem]:
    return [
        FakeItem("tests/a/test_fast.py::test_one"),
        FakeItem("tests/b/test_mixed.py::test_quick"),
        FakeItem("tests/b/test_mixed.py::test_end_to_end", {"slow"}),
        FakeItem("tests/c/test_fast.py::test_two"),
        FakeItem("tests/d/test_db.py::test_instance", {"postgres"}),
        FakeItem("tests/b/test_mixed.py::test_after"),
    ]


def _order(config: Any) -> list[str]:
    items = _items()
    pytest_collection_modifyitems(config, items)  # type: ignore[arg-type]
    return [item.nodeid for item in items]


def test_on_a_worker_unrecorded_slow_and_postgres_files_come_first_each_whole_in_its_own_order(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(conftest, "DURATIONS", tmp_path / "absent.json")
    assert _order(WORKER) == [
        # The whole file of a slow test moves up, its tests in file order: one work unit under loadfile.
        "tests/b/test_mixed.py::test_quick",
        "tests/b/test_mixed.py::test_end_to_end",
        "tests/b/test_mixed.py::test_after",
        "tests/d/test_db.py::test_instance",
        "tests/a/test_fast.py::test_one",
        "tests/c/test_fast.py::test_two",
    ]


def test_on_a_worker_recorded_files_come_longest_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "durations.json"
    record.write_text(json.dumps({"tests/c/test_fast.py": 300.0, "tests/d/test_db.py": 2.0}))
    monkeypatch.setattr(conftest, "DURATIONS", record)
    assert _order(WORKER) == [
        "tests/c/test_fast.py::test_two",  # recorded longest
        "tests/b/test_mixed.py::test_quick",  # not recorded, slow: counted as a minute
        "tests/b/test_mixed.py::test_end_to_end",
        "tests/b/test_mixed.py::test_after",
        "tests/d/test_db.py::test_instance",  # recorded short, whatever its marks
        "tests/a/test_fast.py::test_one",
    ]


def test_a_run_in_one_process_keeps_the_collection_order() -> None:
    assert _order(SimpleNamespace()) == [item.nodeid for item in _items()]


def test_make_pytest_runs_on_every_core_with_one_file_per_worker() -> None:
    # loadgroup is not an option: with pytest 9.2 it ignores xdist_group marks without a word
    # (pytest-dev/pytest-xdist#1386), so tests meant to stay together would be split.
    try:
        dry_run = subprocess.run(
            ["make", "-n", "-s", "pytest", "STAMP=/dev/null"],
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except FileNotFoundError:
        pytest.skip("make is not installed")
    command = next(line for line in dry_run.splitlines() if "/pytest " in line)
    assert " -n auto " in command and " --dist loadfile " in command, command
    assert "--no-loadscope-reorder" in command, "the slow files, put first, must start first"


def test_the_durations_record_sums_each_files_setup_call_and_teardown_longest_first() -> None:
    sys.path.insert(0, str(PROJECT_ROOT / "tools"))
    from record_test_durations import file_seconds

    report = """
============================== slowest durations ===============================
300.50s call     tests/orchestration/test_queued.py::test_twenty[a@b]
12.00s setup    tests/api/test_demo.py::test_served
3.25s call     tests/api/test_demo.py::test_served
0.75s teardown tests/orchestration/test_queued.py::test_twenty[a@b]
(120 durations < 0.005s hidden.  Use -vv to show these durations.)
1 passed in 1.00s
"""
    seconds = file_seconds(report)
    assert seconds == {"tests/orchestration/test_queued.py": 301.2, "tests/api/test_demo.py": 15.2}
    assert list(seconds) == ["tests/orchestration/test_queued.py", "tests/api/test_demo.py"]


def test_merging_a_re_measured_file_keeps_every_other_files_figure(tmp_path: Path) -> None:
    record = tmp_path / "durations.json"
    record.write_text(json.dumps({"tests/a/test_slow.py": 900.0, "tests/b/test_other.py": 40.0}))
    report = tmp_path / "durations.log"
    report.write_text("12.50s call     tests/a/test_slow.py::test_faster_now\n")
    tool = [sys.executable, str(PROJECT_ROOT / "tools" / "record_test_durations.py"), str(report), "--output", str(record)]
    subprocess.run([*tool, "--merge"], check=True, capture_output=True)
    merged = json.loads(record.read_text())
    assert merged == {"tests/b/test_other.py": 40.0, "tests/a/test_slow.py": 12.5}
    assert list(merged) == ["tests/b/test_other.py", "tests/a/test_slow.py"], "longest first"
    subprocess.run(tool, check=True, capture_output=True)
    assert json.loads(record.read_text()) == {"tests/a/test_slow.py": 12.5}, "without --merge: the reports only"
