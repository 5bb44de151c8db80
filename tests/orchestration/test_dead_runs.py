"""Issue 26 §1: a run executed in process whose process is killed is marked failed and its
pool slots are freed, by a real process killed with SIGKILL at a fixed point."""

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest

from reliability_dagster.dead_runs import PROCESS_TAG, dead_run_sensor, fail_dead_runs, process_tags
from reliability_dagster.pools import PERPLEXITY
from tests.conftest import PROJECT_ROOT

pytestmark = pytest.mark.slow  # a separate Python process with Dagster loaded


@pytest.fixture
def home(tmp_path: Path) -> Iterator[tuple[Path, dg.DagsterInstance]]:
    directory = tmp_path / "dagster_home"
    directory.mkdir()
    with dg.DagsterInstance.local_temp(str(directory)) as instance:
        instance.event_log_storage.set_concurrency_slots(PERPLEXITY, 2)
        yield directory, instance


def _killed_run(directory: Path, marker: Path) -> str:
    """Start the run in its own process, SIGKILL it once it holds its slot, return its run id."""
    environment = {**os.environ, "DAGSTER_HOME": str(directory)}
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.orchestration.killed_run", str(marker)],
        cwd=PROJECT_ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert marker.exists(), process.communicate(timeout=5)[1].decode()[-2000:]
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    return marker.read_text(encoding="utf-8")


def test_a_killed_in_process_run_is_marked_failed_and_its_pool_slots_are_freed(
    home: tuple[Path, dg.DagsterInstance], tmp_path: Path
) -> None:
    directory, instance = home
    run_id = _killed_run(directory, tmp_path / "holding")
    run = instance.get_run_by_id(run_id)
    assert run is not None and run.status == dg.DagsterRunStatus.STARTED, "the kill left the run started"
    assert instance.event_log_storage.get_concurrency_info(PERPLEXITY).claimed_slots, "and its slot held"

    result = dead_run_sensor(dg.build_sensor_context(instance=instance))
    assert isinstance(result, dg.SkipReason) and run_id in str(result.skip_message)
    run = instance.get_run_by_id(run_id)
    assert run is not None and run.status == dg.DagsterRunStatus.FAILURE
    info = instance.event_log_storage.get_concurrency_info(PERPLEXITY)
    assert not info.claimed_slots and not info.pending_steps
    failure = instance.all_logs(run_id, of_type=dg.DagsterEventType.RUN_FAILURE)
    assert failure and "is gone" in str(failure[-1].message)
    assert fail_dead_runs(instance) == [], "a run is failed once"


def test_a_run_of_a_live_process_or_another_host_is_left_alone(home: tuple[Path, dg.DagsterInstance]) -> None:
    _, instance = home
    alive = {PROCESS_TAG: process_tags()[PROCESS_TAG]}
    elsewhere = {PROCESS_TAG: "another-host/999999"}
    ids = []
    for tags in (alive, elsewhere):
        run = instance.create_run_for_job(dg.GraphDefinition(name="noop").to_job(), tags=tags)
        instance.handle_new_event(
            dg.EventLogEntry(  # type: ignore[no-untyped-call]
                error_info=None,
                level="debug",
                user_message="",
                run_id=run.run_id,
                timestamp=time.time(),
                dagster_event=dg.DagsterEvent(dg.DagsterEventType.RUN_START.value, job_name="noop"),
            )
        )
        ids.append(run.run_id)
    assert fail_dead_runs(instance) == []
    assert all(instance.get_run_by_id(i).status == dg.DagsterRunStatus.STARTED for i in ids)  # type: ignore[union-attr]
