"""A run executed in process that holds a provider pool slot, then waits to be killed.

``python -m tests.orchestration.killed_run MARKER`` with DAGSTER_HOME: executes a one-op
job in process with the tags ``make demo`` gives its runs, claims a ``perplexity`` slot
as a pooled call does, writes the run id to MARKER (the fixed point the test kills at)
and sleeps."""

import asyncio
import sys
import time
from pathlib import Path

import dagster as dg

from reliability_dagster.dead_runs import process_tags
from reliability_dagster.pools import PERPLEXITY, PoolLimiter


@dg.op
def hold_a_pool_slot(context: dg.OpExecutionContext) -> None:
    limiter = PoolLimiter(instance=context.instance, run_id=context.run_id, step="hold_a_pool_slot")
    asyncio.run(limiter.acquire(PERPLEXITY))
    Path(sys.argv[1]).write_text(context.run_id, encoding="utf-8")
    time.sleep(600)


@dg.job
def holds_a_slot() -> None:
    hold_a_pool_slot()


if __name__ == "__main__":
    with dg.DagsterInstance.get() as instance:
        holds_a_slot.execute_in_process(instance=instance, tags=process_tags())
