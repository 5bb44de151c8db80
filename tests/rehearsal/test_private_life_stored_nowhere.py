"""The live rehearsal (live provider classes against the local vendor servers, live
search cached) leaves no private-life statement in any file: warehouse, ledger
(page snapshots), the model response cache and the search cache."""

from pathlib import Path

import pytest
import yaml

from reliability_core.warehouse import tables
from reliability_dagster.rehearsal import rehearse
from reliability_rehearsal import FaultRates
from tests.conftest import PROJECT_ROOT
from tests.orchestration.private_scan import everything_left_behind, leaks, private_statements

pytestmark = pytest.mark.slow
KEY = yaml.safe_load((PROJECT_ROOT / "data" / "corpus" / "answer_key.yaml").read_text(encoding="utf-8"))


def test_no_private_life_statement_is_in_any_file_the_rehearsal_leaves_behind(tmp_path: Path) -> None:
    # One subject whose pages hold private-life statements (three of them): the demo
    # scan covers the rest; a rehearsed subject takes about a minute here.
    subjects = ["northwind-energy"]
    private = [s for s in private_statements(KEY) if s["subject_id"] in subjects]
    assert len(private) >= 3
    # Not every run need succeed (a scripted refusal can stop the verdicts step): the
    # scan is of whatever the runs left behind, and must have reached every store.
    # Vendor faults only add retry waits here; the scripted model's mistakes stay.
    outcomes, _ = rehearse(subjects, tmp_path, faults=FaultRates.none())
    assert [o.subject_id for o in outcomes] == subjects
    files = everything_left_behind(tmp_path)
    for kind, prefix in {
        "warehouse": "warehouse/statements/",
        "snapshot ledger": f"warehouse/_ledger/{tables.SNAPSHOT_LEDGER}/",
        "model cache": "cache/models/",
        "search cache": "cache/search/",
    }.items():
        assert any(where.startswith(prefix) for where in files), f"the scan reached no {kind} file"
    assert not leaks(files, private)
