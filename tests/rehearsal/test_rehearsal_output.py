"""[#27 A5] The rehearsal prints what ``make demo`` prints: one line per subject and stage
with its run id, Dagster's event log only behind ``--log``; its runs stay on an instance
the UI can open afterwards."""

from __future__ import annotations

import re
from pathlib import Path

import dagster as dg
import pytest

from reliability_dagster.instance import dagster_home
from reliability_dagster.rehearsal import main


@pytest.mark.slow
def test_the_rehearsal_prints_progress_and_run_ids_and_keeps_its_runs(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    assert main(["jonas-pike", "--root", str(tmp_path)]) == 0
    captured = capfd.readouterr()
    output = (captured.out + captured.err).splitlines()
    assert not [line for line in output if " - DEBUG - " in line or " - INFO - " in line], (
        "no Dagster event log"
    )
    runs = [re.match(r"jonas-pike: run ([0-9a-f]{8}) ok", line) for line in output]
    run_prefix = next(m.group(1) for m in runs if m)
    progress = [line for line in output if line.strip().startswith("coverage")]
    assert len(progress) == 1 and "checks" in progress[0]
    home = tmp_path / "dagster_home"
    assert any(f"DAGSTER_HOME={home}" in line for line in output)
    with dagster_home(home), dg.DagsterInstance.from_config(str(home)) as instance:
        kept = [r for r in instance.get_runs() if r.run_id.startswith(run_prefix)]
        assert len(kept) == 1 and kept[0].status == dg.DagsterRunStatus.SUCCESS
    assert len(output) <= 40, output
