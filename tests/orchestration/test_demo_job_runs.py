"""[#27] ``make demo``'s runs are runs of the ``quick_report`` job on the instance: the UI
lists a job's runs by its name and the workspace's repository label
(``dagster_graphql``'s ``GraphenePipeline.resolve_runs``), and the Overview groups runs by
their origin in the workspace. ``execute_in_process`` records neither."""

from pathlib import Path

import dagster as dg
from dagster._core.storage.tags import REPOSITORY_LABEL_TAG

from reliability_dagster.dead_runs import PROCESS_TAG, process_tags
from reliability_dagster.definitions import build_definitions
from reliability_dagster.jobs import QUICK_REPORT_JOB
from reliability_dagster.launch import WORKSPACE, run_job_partition, workspace_job_origin
from tests.orchestration.conftest import make_resources


def _ui_job_runs(instance: dg.DagsterInstance, label: str) -> list[dg.DagsterRun]:
    """The runs the UI's job page lists (the filter of ``GraphenePipeline.resolve_runs``)."""
    return list(
        instance.get_runs(dg.RunsFilter(job_name=QUICK_REPORT_JOB, tags={REPOSITORY_LABEL_TAG: label}))
    )


def test_a_demo_run_is_a_run_of_the_workspace_job(tmp_path: Path) -> None:
    origin = workspace_job_origin(QUICK_REPORT_JOB)
    label = origin.repository_origin.get_label()
    # The code location of workspace.yaml, as `make ui` and `make daemon` load it.
    assert label == "__repository__@reliability_dagster.definitions"
    assert "reliability_dagster.definitions" in WORKSPACE.read_text()
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("subjects", ["jonas-pike"])
        job = build_definitions(make_resources(tmp_path)).resolve_job_def(QUICK_REPORT_JOB)
        result = run_job_partition(instance, job, "jonas-pike", origin=origin, tags=process_tags())
        assert result.success
        assert len(result.get_asset_materialization_events()) == 13  # the subject pipeline with its steward queue
        run = instance.get_run_by_id(result.run_id)
        assert run is not None and run.remote_job_origin == origin
        assert run.tags["dagster/partition"] == "jonas-pike" and PROCESS_TAG in run.tags
        assert [r.run_id for r in _ui_job_runs(instance, label)] == [result.run_id]

        # What the demo did before: a run the job's page does not list.
        before = job.execute_in_process(instance=instance, partition_key="jonas-pike", raise_on_error=False)
        assert before.run_id not in {r.run_id for r in _ui_job_runs(instance, label)}
