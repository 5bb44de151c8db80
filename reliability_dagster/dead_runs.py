"""Runs whose process died: marked failed and their pool slots freed (issue 26 §1).

Dagster's run monitoring watches the runs the daemon launched (their run worker's
health); a run executed in process (``make demo``, ``execute_in_process``) has no
worker it knows of, so after a SIGKILL it stayed STARTED until ``max_runtime_seconds``
(two hours), counted against the run queue and kept its provider pool slots. Such a
run carries the host and process id that executes it (``process_tags``); when that
process is gone from this host, ``fail_dead_runs`` reports the run failed through the
instance's public ``report_run_failed`` and frees every slot and pending claim the run
holds (the event log storage's ``free_concurrency_slots_for_run``, what run monitoring
calls for a run that ended). It runs when ``make demo`` starts and every 30 seconds in
``dead_run_sensor`` (the daemon), so a dead run is failed within a minute.

A process id is only read on the host that recorded it; a run whose host is another
machine is left to that machine (or to ``max_runtime_seconds``).
"""

from __future__ import annotations

import os
import socket

import dagster as dg

# "<host>/<pid>" of the process executing a run in process.
PROCESS_TAG = "reliability/process"
# Statuses of a run that a live process is still executing.
_IN_FLIGHT = [dg.DagsterRunStatus.STARTING, dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.CANCELING]


def process_tags() -> dict[str, str]:
    """The tags an in-process run carries: this host and process id."""
    return {PROCESS_TAG: f"{socket.gethostname()}/{os.getpid()}"}


def process_is_alive(pid: int) -> bool:
    """Whether a process with this id exists on this host (signal 0 checks, sends nothing)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive
    return True


def dead_process(tag: str | None, host: str) -> int | None:
    """The process id in ``tag`` when it is on ``host`` and no longer alive, else None."""
    if not tag:
        return None
    tag_host, _, pid_text = tag.rpartition("/")
    if tag_host != host or not pid_text.isdigit():
        return None
    pid = int(pid_text)
    return pid if pid != os.getpid() and not process_is_alive(pid) else None


def fail_dead_runs(instance: dg.DagsterInstance) -> list[str]:
    """Every in-flight run whose recorded process on this host is gone: reported failed
    with the reason, its pool slots and pending claims freed. Returns their run ids."""
    host = socket.gethostname()
    failed: list[str] = []
    for run in instance.get_runs(filters=dg.RunsFilter(statuses=_IN_FLIGHT)):
        pid = dead_process(run.tags.get(PROCESS_TAG), host)
        if pid is None:
            continue
        instance.report_run_failed(
            run,
            message=f"the process that executed this run (pid {pid} on {host}) is gone (killed or crashed); "
            "its pool slots are freed",
        )
        instance.event_log_storage.free_concurrency_slots_for_run(run.run_id)
        failed.append(run.run_id)
    return failed


@dg.sensor(
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
    description="Marks failed a run executed in process (make demo) whose process died, and frees its provider "
    "pool slots: Dagster's run monitoring only watches runs the daemon launched. Requests no run.",
)
def dead_run_sensor(context: dg.SensorEvaluationContext) -> dg.SkipReason:
    failed = fail_dead_runs(context.instance)
    return dg.SkipReason(f"failed {len(failed)} dead run(s): {', '.join(failed)}" if failed else "no dead runs")
