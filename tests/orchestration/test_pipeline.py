"""The quick report end to end on the demo corpus with the offline providers."""

import dagster as dg
import pytest

from reliability_core.models import ClaimVerdict, ResolutionCriteria, Statement
from reliability_core.warehouse import Ledger, tables
from reliability_dagster.demo import model_usage
from tests.conftest import DemoRun
from tests.orchestration.conftest import Pipeline


def _check_results(result: dg.ExecuteInProcessResult) -> dict[str, bool]:
    return {
        e.asset_check_evaluation_data.check_name: e.asset_check_evaluation_data.passed
        for e in result.all_events
        if e.event_type == dg.DagsterEventType.ASSET_CHECK_EVALUATION and e.asset_check_evaluation_data
    }


def test_quick_report_stores_a_report_and_passes_every_method_check(pipeline: Pipeline) -> None:
    result = pipeline.run("northwind-energy")
    assert result.success
    checks = _check_results(result)
    assert len(checks) == 7 and all(checks.values()), checks
    report = pipeline.report("northwind-energy")
    assert report.covered and report.offline_rules
    assert report.method_version.endswith(".offline-rules")
    assert report.counts.extracted > 0 and report.counts.sampled > 0
    assert report.documents_sampled == 8
    published = result.asset_materializations_for_node("subject_report")[0]
    assert "offline-rules" in str(published.metadata["report"].value)


def test_refused_subject_stops_after_coverage_with_a_report_that_says_why(pipeline: Pipeline) -> None:
    result = pipeline.run("lars-vinter")
    assert result.success
    report = pipeline.report("lars-vinter")
    assert not report.covered
    assert any("politician" in r for r in report.coverage_reasons)
    assert report.claims == [] and report.type_scores == []
    evidence = result.asset_materializations_for_node("evidence")[0]
    assert evidence.metadata["covered"].value is False
    assert pipeline.warehouse.read(tables.STATEMENTS, "lars-vinter", Statement) == []


def test_the_refresh_job_searches_afresh_and_a_quick_report_does_not(pipeline: Pipeline) -> None:
    for job, afresh in (("quick_report", False), ("refresh", True)):
        result = pipeline.run("lars-vinter", job=job)
        assert result.success
        coverage = result.asset_materializations_for_node("subject_coverage")[0]
        assert coverage.metadata["searched_afresh"].value is afresh, job


def test_rerun_reproduces_the_report_and_never_rewrites_criteria(pipeline: Pipeline) -> None:
    assert pipeline.run("clearwater-evaluators").success
    first = pipeline.report("clearwater-evaluators")
    ledger = Ledger(pipeline.warehouse)
    criteria_before = ledger.read_all(tables.CRITERIA_LEDGER, "clearwater-evaluators", ResolutionCriteria)
    rerun = pipeline.run("clearwater-evaluators")
    assert rerun.success
    calls, hits = model_usage(rerun)
    assert calls == 0 and hits > 0, "a re-run with unchanged inputs makes no model call"
    second = pipeline.report("clearwater-evaluators")
    assert second.content_hash == first.content_hash
    assert ledger.read_all(tables.CRITERIA_LEDGER, "clearwater-evaluators", ResolutionCriteria) == criteria_before
    verdicts = pipeline.warehouse.read(tables.VERDICTS, "clearwater-evaluators", ClaimVerdict)
    assert len({v.claim_id for v in verdicts}) == len(verdicts)


def test_run_completes_under_20_percent_provider_faults_with_the_same_report(
    pipeline: Pipeline, request: pytest.FixtureRequest
) -> None:
    # Every fault here is one the retries must absorb: one call fails at most four attempts
    # in a row, the policy makes five. A call that fails all five is the other test below.
    result = pipeline.run("amara-okafor", fault_rate=0.2, fault_seed=7, fault_max_consecutive=4)
    assert result.success
    # The same report as a run without faults: the session's demo run (asked for only now, so a
    # worker that waits for another to finish building it has done its own run first).
    clean: DemoRun = request.getfixturevalue("demo_run")
    assert pipeline.report("amara-okafor").content_hash == clean.report("amara-okafor").content_hash


def test_calls_that_exhaust_their_retries_fail_their_items_not_the_subject(pipeline: Pipeline) -> None:
    # At 50% unbounded faults a call fails all five attempts with probability 1 in 32, so
    # over a run's calls many do: each must stay with its document, page or claim, and the
    # subject's report is still published with the failures counted.
    result = pipeline.run("amara-okafor", fault_rate=0.5, fault_seed=3)
    assert result.success
    report = pipeline.report("amara-okafor")
    counts = report.counts
    verdicts = pipeline.warehouse.read(tables.VERDICTS, "amara-okafor", ClaimVerdict)
    failed_claims = [v for v in verdicts if v.model_failure]
    assert counts.model_failures == len(failed_claims)
    assert counts.model_failures + counts.documents_failed > 0
    assert all(v.verdict == "unresolvable" for v in failed_claims)
