"""[#18] A subject partition not in the registry is refused before any run starts."""

import dagster as dg
import pytest

from reliability_dagster.definitions import defs
from reliability_dagster.runs import RegistryRunCoordinator, unregistered_subject

COORDINATOR = {"run_coordinator": {"module": "reliability_dagster.runs", "class": "RegistryRunCoordinator"}}


def _submit(instance: dg.DagsterInstance, partition: str) -> dg.DagsterRun:
    job = defs.resolve_job_def("quick_report")
    run = instance.create_run_for_job(job, tags={"dagster/partition": partition})
    return instance.run_coordinator.submit_run(dg.SubmitRunContext(run, workspace=None))  # type: ignore[arg-type]


def test_a_mistyped_partition_is_refused_at_submission_and_leaves_no_failed_run_or_partition() -> None:
    with dg.instance_for_test(overrides=COORDINATOR) as instance:
        assert isinstance(instance.run_coordinator, RegistryRunCoordinator)
        instance.add_dynamic_partitions("subjects", ["northwnd-energy"])  # typed in the Materialize dialog
        with pytest.raises(dg.DagsterInvariantViolationError, match="not in the registry"):
            _submit(instance, "northwnd-energy")
        assert instance.get_runs() == [], "the refused run is deleted with its planned materialisations"
        assert not instance.has_dynamic_partition("subjects", "northwnd-energy")


def test_a_registered_subject_or_a_run_without_a_subject_partition_passes() -> None:
    job = defs.resolve_job_def("quick_report")
    with dg.instance_for_test(overrides=COORDINATOR) as instance:
        instance.add_dynamic_partitions("subjects", ["northwind-energy", "northwnd-energy"])
        registered = instance.create_run_for_job(job, tags={"dagster/partition": "northwind-energy"})
        stray = instance.create_run_for_job(job, tags={"dagster/partition": "northwnd-energy"})
        backtest = instance.create_run_for_job(job, tags={"dagster/partition": "starter|configured"})
        assert unregistered_subject(instance, registered) is None
        assert unregistered_subject(instance, backtest) is None
        assert unregistered_subject(instance, stray) == "northwnd-energy"


def test_the_repository_instance_uses_the_registry_coordinator() -> None:
    import yaml

    from tests.conftest import PROJECT_ROOT

    for path in (PROJECT_ROOT / "dagster.yaml", PROJECT_ROOT / "deploy" / "dagster.postgres.yaml"):
        config = yaml.safe_load(path.read_text())["run_coordinator"]
        assert (config["module"], config["class"]) == ("reliability_dagster.runs", "RegistryRunCoordinator"), path
