"""Queued runs on PostgreSQL with the daemon, as a shared deployment runs them:
the shipped deploy/dagster.postgres.yaml, the CLI backfill submitting every
partition at once, the default run launcher starting each run in its own
process."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import dagster as dg
import pytest

from reliability_dagster.pools import PROVIDER_POOLS
from tests.orchestration.queued import Deployment, copy_registry, queued_deployment
from tests.orchestration.queued import run_failures as _failures

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def _in_flight_peaks(probe: Path) -> dict[str, int]:
    """The most calls any provider had in flight at once, from the probe's ``pool start end pid`` lines."""
    events: dict[str, list[tuple[float, int]]] = {}
    for line in probe.read_text().splitlines():
        pool, start, end, _ = line.split()
        events.setdefault(pool, []).extend([(float(start), 1), (float(end), -1)])
    peaks = {}
    for pool, points in events.items():
        level = peak = 0
        for _, step in sorted(points, key=lambda p: (p[0], p[1])):  # an end before a start at the same instant
            level += step
            peak = max(peak, level)
        peaks[pool] = peak
    return peaks


def test_with_a_pool_limit_of_two_six_runs_never_put_more_than_two_calls_in_flight_at_any_provider(
    require_postgres: None, tmp_path: Path
) -> None:
    probe = tmp_path / "probe.log"
    # Two covered subjects call all four providers; four refused ones call Anthropic and
    # Perplexity for their coverage decision, all six at once at the start.
    originals = ["clearwater-evaluators", "amara-okafor", "lars-vinter", "jonas-pike", "lars-vinter", "jonas-pike"]
    subjects = [f"pool-{i}" for i in range(6)]
    data = copy_registry(tmp_path, dict(zip(subjects, originals, strict=True)))
    env = {"RELIABILITY_TEST_POOLED": "1", "RELIABILITY_TEST_PROBE": str(probe), "RELIABILITY_TEST_MODEL_LATENCY": "0.02"}
    with queued_deployment(tmp_path, data_dir=data, env=env) as deployment:
        for pool in PROVIDER_POOLS:
            deployment.instance.event_log_storage.set_concurrency_slots(pool, 2)
        started = time.monotonic()
        deployment.backfill(subjects)
        runs = deployment.wait_for_runs(len(subjects), timeout=900)
        wall = time.monotonic() - started
        assert not _failures(deployment, runs), _failures(deployment, runs)
        peaks = _in_flight_peaks(probe)
        print(f"6 runs, pool limit 2: {wall:.0f} s wall; in flight at most {peaks}")
        assert set(peaks) == set(PROVIDER_POOLS), "every provider was called"
        assert all(peak <= 2 for peak in peaks.values()), peaks
        assert all(peak == 2 for peak in peaks.values()), "the runs overlapped enough to reach every limit"
        for pool in PROVIDER_POOLS:
            info = deployment.instance.event_log_storage.get_concurrency_info(pool)
            assert not info.claimed_slots and not info.pending_steps, (pool, info)


def _pid_of(deployment: Deployment, run_id: str) -> int | None:
    for entry in deployment.instance.all_logs(run_id):
        if entry.dagster_event is not None and entry.dagster_event.pid:
            return int(entry.dagster_event.pid)
    return None


def _step_started(deployment: Deployment, partition: str, step: str) -> bool:
    for run in deployment.instance.get_runs(filters=dg.RunsFilter(tags={"dagster/partition": partition})):
        for entry in deployment.instance.all_logs(run.run_id):
            event = entry.dagster_event
            if event is not None and event.event_type_value == "STEP_START" and event.step_key == step:
                return True
    return False


def _wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"not within {timeout:.0f} s: {what}")


def test_a_run_killed_with_sigkill_is_marked_failed_and_the_run_waiting_on_its_slot_proceeds(
    require_postgres: None, tmp_path: Path
) -> None:
    # Every call takes 2 s, so the first run holds the only anthropic slot for seconds at a time;
    # the second is a refused subject (two anthropic calls), quick once it gets the slot.
    data = copy_registry(tmp_path, {"kill-first": "northwind-energy", "kill-second": "lars-vinter"})
    env = {"RELIABILITY_TEST_POOLED": "1", "RELIABILITY_TEST_MODEL_LATENCY": "2"}
    with queued_deployment(tmp_path, data_dir=data, env=env) as deployment:
        storage = deployment.instance.event_log_storage
        storage.set_concurrency_slots("anthropic", 1)

        def holders() -> set[str]:
            return {c.run_id for c in storage.get_concurrency_info("anthropic").claimed_slots}

        deployment.backfill(["kill-first"])
        _wait_until(lambda: bool(holders()), 600, "the first run holds the anthropic slot")
        (first,) = holders()
        deployment.backfill(["kill-second"])
        _wait_until(
            lambda: _step_started(deployment, "kill-second", "subject_coverage"), 600, "the second run needs the slot"
        )
        time.sleep(5)  # its first anthropic call is waiting: the first run keeps the only slot busy
        _wait_until(lambda: holders() == {first}, 60, "the first run holds the slot")
        pid = _pid_of(deployment, first)
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        assert first in holders(), "the killed run died holding the slot"

        runs = {r.run_id: r for r in deployment.wait_for_runs(2, timeout=600)}
        assert runs[first].status == dg.DagsterRunStatus.FAILURE, "the killed run is marked failed"
        (second,) = [r for run_id, r in runs.items() if run_id != first]
        assert second.status == dg.DagsterRunStatus.SUCCESS, _failures(deployment, [second])
        _wait_until(lambda: first not in holders(), 60, "the dead run's slot is freed")
