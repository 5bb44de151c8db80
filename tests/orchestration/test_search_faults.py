"""Issue 26 §3: at a high injected rate of search faults every demo subject still publishes
its report, each search that failed for good recorded on its query or claim."""

from typing import Any

import dagster as dg
import pytest

from reliability_core.models import ClaimVerdict
from reliability_core.subjects.candidates import CandidateListing
from reliability_core.subjects.registry import load_registry
from reliability_core.warehouse import tables
from tests.orchestration.conftest import CORPUS, Pipeline

pytestmark = pytest.mark.slow  # five subjects end to end (about two minutes on a quiet machine)


def _metadata(result: dg.ExecuteInProcessResult, asset: str, key: str) -> object:
    return result.asset_materializations_for_node(asset)[0].metadata[key].value


def test_at_seventy_percent_search_faults_every_subject_publishes_with_its_failed_searches_recorded(
    pipeline: Pipeline,
) -> None:
    # Unbounded faults: a query fails all five attempts with probability 0.7**5 (about 1 in 6).
    # Retries do not sleep here; their number is the live policy's.
    faults: dict[str, Any] = {"search_fault_rate": 0.7, "fault_seed": 11, "search_fault_retry_delay": 0.0}
    failed_queries = failed_research = 0
    for entry in load_registry(CORPUS.parent / "subjects.yaml"):
        result = pipeline.run(entry.id, **faults)
        assert result.success, entry.id
        report = pipeline.report(entry.id)
        listing = pipeline.warehouse.read(tables.CANDIDATE_LISTINGS, entry.id, CandidateListing)
        if report.covered:
            (stored,) = listing
            assert _metadata(result, "candidate_documents", "search_failures") == len(stored.search_failures)
            failed_queries += len(stored.search_failures)
        failed_queries += int(str(_metadata(result, "subject_coverage", "search_failures")))
        verdicts = pipeline.warehouse.read(tables.VERDICTS, entry.id, ClaimVerdict)
        searched_out = [v for v in verdicts if v.model_failure and "search" in v.model_failure]
        assert report.counts.model_failures >= len(searched_out)
        failed_research += len(searched_out)
    assert failed_queries > 0 and failed_research > 0
