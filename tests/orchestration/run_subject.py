"""Run one subject's quick report in its own process (crash and concurrency tests).

``python -m tests.orchestration.run_subject SUBJECT`` with RELIABILITY_TEST_ROOT
(warehouse and cache), DAGSTER_HOME (the shared instance), and optionally
RELIABILITY_TEST_EXECUTOR=multiprocess and RELIABILITY_TEST_MODEL_LATENCY."""

import os
import sys
from pathlib import Path

import dagster as dg

from reliability_dagster.definitions import build_definitions
from reliability_dagster.jobs import SUBJECT_PIPELINE_GROUP
from tests.orchestration.conftest import make_providers, make_resources


def _definitions() -> dg.Definitions:
    root = Path(os.environ["RELIABILITY_TEST_ROOT"])
    resources = make_resources(root)
    latency = float(os.environ.get("RELIABILITY_TEST_MODEL_LATENCY", "0"))
    if latency:
        resources["providers"] = make_providers(root, simulated_model_latency=latency)
    base = build_definitions(resources)
    multiprocess = dg.define_asset_job(
        "quick_report_multiprocess",
        selection=dg.AssetSelection.groups(SUBJECT_PIPELINE_GROUP),
        # Each step still runs in a process of its own, forked from a server that imported this
        # module once: spawned afresh, every step re-imported Dagster and the project (about 2 min
        # of CPU for a refused subject, 7 min of wall time on a loaded 2-core machine).
        executor_def=dg.multiprocess_executor.configured(
            {"max_concurrent": 2, "start_method": {"forkserver": {}}}
        ),
    )
    return dg.Definitions.merge(base, dg.Definitions(jobs=[multiprocess]))


def multiprocess_job() -> dg.JobDefinition:
    return _definitions().resolve_job_def("quick_report_multiprocess")


def main(subject: str) -> int:
    with dg.DagsterInstance.get() as instance:
        if not instance.has_dynamic_partition("subjects", subject):
            instance.add_dynamic_partitions("subjects", [subject])
        if os.environ.get("RELIABILITY_TEST_EXECUTOR") == "multiprocess":
            result = dg.execute_job(
                dg.reconstructable(multiprocess_job), instance=instance, tags={"dagster/partition": subject}
            )
            return 0 if result.success else 1
        job = _definitions().resolve_job_def("quick_report")
        return 0 if job.execute_in_process(instance=instance, partition_key=subject).success else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
