"""The code location loads as the Dagster UI loads it (`make ui`)."""

import os
import subprocess
import sys

import dagster as dg

from reliability_dagster.definitions import defs
from tests.conftest import PROJECT_ROOT


def test_code_location_loads_with_every_job_sensor_and_schedule() -> None:
    dg.Definitions.validate_loadable(defs)
    repository = defs.get_repository_def()
    jobs = {job.name for job in repository.get_all_jobs()}
    assert {
        "quick_report",
        "refresh",
        "recheck_due_claims",
        "backtest_gold_set",
        "stability_check",
        "steward_sampling",
    } <= jobs
    assert {s.name for s in repository.sensor_defs} == {
        "subject_registry_sensor",
        "first_report_sensor",
        "staleness_sensor",
        "due_date_sensor",
        "gold_set_sensor",
        "dead_run_sensor",
        "report_freshness_sensor",
        "steward_rescore_sensor",  # issue 27: a steward's re-score is recorded in the UI
    }
    assert [s.name for s in repository.schedule_defs] == ["steward_sampling_schedule"]


def test_every_per_subject_asset_declares_kinds_and_the_subjects_partitions() -> None:
    graph = defs.resolve_asset_graph()
    for key in graph.get_all_asset_keys():
        node = graph.get(key)
        if node.group_name == "subject_report":
            assert node.partitions_def is not None and node.partitions_def.name == "subjects"  # type: ignore[attr-defined]
            assert node.kinds, key


def test_loading_the_code_location_and_an_offline_gateway_imports_no_vendor_sdk() -> None:
    # Every run process and code server loads the location: the Anthropic and OpenAI SDKs cost
    # ~1.2 s of CPU to import, for nothing when every step runs offline. A fresh interpreter,
    # since this test process may have imported them for other tests.
    code = (
        "import sys; from reliability_dagster.definitions import defs; "
        "from reliability_dagster.resources import default_resources; "
        "default_resources()['providers'].gateway('quick_report'); "
        "print(sorted(m for m in ('anthropic', 'openai') if m in sys.modules))"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PERPLEXITY_API_KEY")}
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=PROJECT_ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout
