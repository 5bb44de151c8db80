"""[#18] ``make demo`` prints one progress line per subject with each stage, then the
summary; Dagster's full event log only behind ``--log``."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pytest
from dagster._core.storage.tags import REPOSITORY_LABEL_TAG

from reliability_dagster.jobs import QUICK_REPORT_JOB
from reliability_dagster.launch import workspace_job_origin
from tests.conftest import PROJECT_ROOT


def _demo(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "dagster_home"
    home.mkdir(exist_ok=True)
    shutil.copy(PROJECT_ROOT / "dagster.yaml", home / "dagster.yaml")
    env = {
        **os.environ,
        "DAGSTER_HOME": str(home),
        "RELIABILITY_WAREHOUSE": str(tmp_path / "warehouse"),
        # Not the checkout's data/cache: `make test` points RELIABILITY_DATA_DIR at data/, where a
        # run wrote its model cache (shared by both test workers, and by the developer's demo).
        "RELIABILITY_CACHE_DIR": str(tmp_path / "cache"),
        "PYTHONPATH": str(PROJECT_ROOT),
    }
    for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PERPLEXITY_API_KEY"):
        env.pop(key, None)
    return subprocess.run(
        [sys.executable, "-m", "reliability_dagster.demo", *args],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.slow
def test_the_demo_prints_progress_and_summary_without_the_event_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    quiet = _demo(tmp_path, "jonas-pike", "lars-vinter")
    assert quiet.returncode == 0, quiet.stderr[-2000:]
    output = (quiet.stdout + quiet.stderr).splitlines()
    assert not [line for line in output if " - DEBUG - " in line], "no Dagster DEBUG lines"
    progress = [line for line in output if line.strip().startswith("coverage")]
    assert len(progress) == 2 and all("checks 7/7 passed" in line for line in progress)
    assert len(output) <= 15, output
    # [#27] Each subject's run is a run of the workspace's quick_report job (its Runs tab).
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))  # the instance's dagster.yaml reads it
    with dg.DagsterInstance.from_config(str(tmp_path / "dagster_home")) as instance:
        label = workspace_job_origin(QUICK_REPORT_JOB).repository_origin.get_label()
        runs = instance.get_runs(dg.RunsFilter(job_name=QUICK_REPORT_JOB, tags={REPOSITORY_LABEL_TAG: label}))
        assert sorted(r.tags["dagster/partition"] for r in runs) == ["jonas-pike", "lars-vinter"]

    full = _demo(tmp_path, "jonas-pike", "--log")
    assert full.returncode == 0
    assert sum(" - DEBUG - " in line for line in (full.stdout + full.stderr).splitlines()) > 20
