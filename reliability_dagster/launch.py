"""A run of a job executed in this process that is a run of the code location's job.

``JobDefinition.execute_in_process`` records a run with no origin in the workspace: the
UI lists a job's runs by the workspace's repository label (``.dagster/repository``, from
the run's remote origin), so ``make demo``'s runs did not show on the ``quick_report``
job's Runs tab nor in the Overview (issue 27). Here the run is created on the instance
with the origin the UI knows the job by (the code location of ``workspace.yaml``, the
Definitions' one repository), then executed in this process, as a run launched from the
UI would be by its run worker. Same executor (in process), same speed."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import dagster as dg
from dagster._core.definitions.job_base import InMemoryJob
from dagster._core.definitions.repository_definition import SINGLETON_REPOSITORY_NAME
from dagster._core.execution.api import create_execution_plan, execute_run
from dagster._core.execution.execution_result import ExecutionResult
from dagster._core.remote_origin import RemoteJobOrigin, RemoteRepositoryOrigin
from dagster._core.workspace.load_target import WorkspaceFileTarget

# The workspace `make ui` and `make daemon` load (one code location).
WORKSPACE = Path(__file__).resolve().parent.parent / "workspace.yaml"


def workspace_job_origin(job_name: str, workspace: Path = WORKSPACE) -> RemoteJobOrigin:
    """The origin of ``job_name`` as the UI and daemon know it: the workspace's code
    location and the Definitions' repository (Dagster names it ``__repository__``)."""
    origins = WorkspaceFileTarget(paths=[str(workspace)]).create_origins()
    if len(origins) != 1:
        raise ValueError(
            f"{workspace} names {len(origins)} code locations; the demo runs the one location's jobs"
        )
    return RemoteRepositoryOrigin(origins[0], SINGLETON_REPOSITORY_NAME).get_job_origin(job_name)


def run_job_partition(
    instance: dg.DagsterInstance,
    job: dg.JobDefinition,
    partition_key: str,
    *,
    origin: RemoteJobOrigin,
    run_config: Mapping[str, object] | None = None,
    tags: Mapping[str, str] | None = None,
) -> ExecutionResult:
    """Execute one partition of ``job`` in this process as a run of the workspace's job
    (``origin``): the run carries the origin and its repository label, the job's own tags
    and the partition's, then ``tags``. Failures are in the result, not raised."""
    run_tags = {
        **job.run_tags,
        **job.get_tags_for_partition_key(partition_key, selected_asset_keys=None),
        **(tags or {}),
    }
    in_memory = InMemoryJob(job)
    plan = create_execution_plan(
        in_memory,
        run_config=run_config,
        instance_ref=instance.get_ref() if instance.is_persistent else None,
        tags=run_tags,
    )
    run = instance.create_run_for_job(
        job_def=job,
        execution_plan=plan,
        run_config=run_config,
        tags=run_tags,
        remote_job_origin=origin,
    )
    return execute_run(in_memory, run, instance, raise_on_error=False)
