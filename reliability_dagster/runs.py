"""The run coordinator: Dagster's queued coordinator, refusing a subject run whose
partition is not in the registry before the run starts.

A subject partition can be typed into the UI's Materialize dialog ("Add partition").
A mistyped one used to start a run that failed in its first step and left every asset
"87% filled (1 failed)". Here the run is refused at submission: it is deleted (with
its planned materialisations, so no asset shows it as failed), the stray partition is
removed, and the launch answers with why. ``partition_sync_sensor`` removes partitions
that leave the registry later."""

import dagster as dg

from reliability_core.settings import settings
from reliability_core.subjects.registry import load_registry
from reliability_dagster.partitions import SUBJECTS_PARTITIONS

PARTITION_TAG = "dagster/partition"


def unregistered_subject(instance: dg.DagsterInstance, run: dg.DagsterRun) -> str | None:
    """The run's subject partition if it is a subject partition not in the registry."""
    key = run.tags.get(PARTITION_TAG)
    if not key or not instance.has_dynamic_partition(SUBJECTS_PARTITIONS, key):
        return None
    registered = {e.id for e in load_registry(settings().registry_path)}
    return None if key in registered else key


class RegistryRunCoordinator(dg.QueuedRunCoordinator):
    """``QueuedRunCoordinator`` that refuses runs of subjects not in data/subjects.yaml."""

    def submit_run(self, context: dg.SubmitRunContext) -> dg.DagsterRun:
        run = context.dagster_run
        stray = unregistered_subject(self._instance, run)
        if stray is not None:
            self._instance.delete_run(run.run_id)
            self._instance.delete_dynamic_partition(SUBJECTS_PARTITIONS, stray)
            raise dg.DagsterInvariantViolationError(
                f"subject {stray!r} is not in the registry data/subjects.yaml, so no run was started and the "
                "partition was removed. Add the subject with `reliability subjects add ...` (it validates the "
                "entry) and the registry sensor adds its partition."
            )
        return super().submit_run(context)
