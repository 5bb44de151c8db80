"""Backtest, stability and steward assets through Dagster on the offline providers."""

import itertools
from pathlib import Path

import dagster as dg
import pytest

from reliability_core.providers.base import ModelRequest, ModelResponse
from reliability_core.stand_in.model import OfflineRulesProvider
from reliability_core.stewardship.steward import StewardQueueItem
from reliability_core.validation.backtest import BacktestResult
from reliability_core.validation.stability import StabilityReport, stability_cache_dir
from reliability_core.warehouse import tables
from reliability_dagster.definitions import build_definitions
from tests.orchestration.conftest import Pipeline


def test_backtest_over_the_starter_gold_set_measures_every_metric_and_evaluates_gates(
    pipeline: Pipeline,
) -> None:
    definitions = build_definitions(pipeline.resources)
    key = dg.MultiPartitionKey({"gold_set": "starter", "judges": "configured"})
    pipeline.instance.add_dynamic_partitions("gold_sets", ["starter"])  # as the gold-set sensor adds it
    result = definitions.resolve_job_def("backtest_gold_set").execute_in_process(
        instance=pipeline.instance, partition_key=key
    )
    assert result.success
    stored = [
        r
        for partition in pipeline.warehouse.subjects(tables.BACKTESTS)
        for r in pipeline.warehouse.read(tables.BACKTESTS, partition, BacktestResult)
    ]
    assert len(stored) == 1
    backtest = stored[0]
    assert backtest.metrics.items >= 80
    assert backtest.offline and backtest.error_rates == "not yet measured"
    assert {g.gate for g in backtest.gates} == {
        "accuracy_on_shown",
        "wrong_verdicts_shown",
        "settled_without_help",
        "calibration_error",
        "kappa_with_humans",
    }
    metadata = result.asset_materializations_for_node("gold_set_backtest")[0].metadata
    assert "data:image/png;base64," in str(metadata["reliability_diagram"].value)
    # Issue 27: each gate is an asset check, so a failing gate is red in the UI.
    evaluations = {e.check_name: e for e in result.get_asset_check_evaluations()}
    assert {name: e.passed for name, e in evaluations.items()} == {f"gate_{g.gate}": g.passed for g in backtest.gates}
    failed = [e for e in evaluations.values() if not e.passed]
    assert failed and all(e.severity == dg.AssetCheckSeverity.ERROR for e in failed)
    figures = str(metadata["figures"].value)
    assert "Precision and recall per verdict" in figures and "rows: human label; columns: method verdict" in figures
    assert "data:image/png;base64," in str(metadata["confusion_matrix"].value)
    assert 1 < float(metadata["judge_agreement_percent"].value) <= 100
    # Issue 27: every figure is a number or absent, never "n/a" in a number's place.
    assert not [k for k, v in metadata.items() if isinstance(v.value, str) and v.value == "n/a"]
    assert "gold_set_sensor" in (definitions.resolve_job_def("backtest_gold_set").description or "")


def _files(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in directory.rglob("*") if p.is_file()}


def test_stability_and_steward_queue_after_a_subject_run(
    pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert pipeline.run("northwind-energy").success
    report_answers = pipeline.root / "cache" / "models"
    before = _files(report_answers)
    assert before, "the report's model answers are cached"

    # From here on every answer differs from the last in its usage, as a live model's
    # do: a re-run that wrote into the report's cache would change its bytes.
    answer = OfflineRulesProvider.complete
    calls = itertools.count(1)

    async def varying(self: OfflineRulesProvider, request: ModelRequest) -> ModelResponse:
        response = await answer(self, request)
        return response.model_copy(
            update={"usage": response.usage.model_copy(update={"output_tokens": next(calls)})}
        )

    monkeypatch.setattr(OfflineRulesProvider, "complete", varying)
    definitions = build_definitions(pipeline.resources)
    stability = definitions.resolve_job_def("stability_check").execute_in_process(
        instance=pipeline.instance, partition_key="northwind-energy"
    )
    assert stability.success
    reports = pipeline.warehouse.read(tables.STABILITY, "northwind-energy", StabilityReport)
    assert len(reports) == 1 and reports[0].runs == 3
    # The offline rules over the offline search cannot move: no 100% is reported.
    assert reports[0].share_unchanged is None and not reports[0].measured
    assert "cannot move" in reports[0].note
    # Issue 27: a figure that cannot be measured is left out of the metadata, never a word in
    # the place of a number, so the UI can plot the key across partitions.
    stability_metadata = stability.asset_materializations_for_node("rerun_stability")[0].metadata
    assert "share_unchanged" not in stability_metadata
    assert not [k for k, v in stability_metadata.items() if k.startswith("movement.") and isinstance(v.value, str)]
    # The re-runs made fresh calls in their own namespace; the answers the report
    # rests on are byte for byte what they were.
    assert _files(report_answers) == before
    assert _files(stability_cache_dir(pipeline.root / "cache") / "models")

    steward = definitions.resolve_job_def("steward_sampling").execute_in_process(instance=pipeline.instance)
    assert steward.success
    queued = pipeline.warehouse.read(tables.STEWARD_QUEUE, "northwind-energy", StewardQueueItem)
    assert queued, "disputed, held or sampled verdicts reach the steward queue"
    assert all(item.reasons for item in queued)


def test_methodology_reports_error_rates_only_from_live_judges(pipeline: Pipeline) -> None:
    from fastapi.testclient import TestClient

    from reliability_api.app import ApiSettings, create_app
    from reliability_core.validation.backtest import BacktestResult, store_backtest_result
    from reliability_core.warehouse import Ledger

    definitions = build_definitions(pipeline.resources)
    key = dg.MultiPartitionKey({"gold_set": "starter", "judges": "configured"})
    pipeline.instance.add_dynamic_partitions("gold_sets", ["starter"])  # as the gold-set sensor adds it
    assert (
        definitions.resolve_job_def("backtest_gold_set")
        .execute_in_process(instance=pipeline.instance, partition_key=key)
        .success
    )
    client = TestClient(create_app(ApiSettings(warehouse_root=pipeline.warehouse.root, offline=True)))
    body = client.get("/v1/methodology").json()
    assert body["error_rates"] == "not yet measured"
    assert body["judge_agreement"]["judges"] == "offline-rules"

    # The same figures from live judges would be reported as measured error rates.
    offline_result = pipeline.warehouse.read(
        tables.BACKTESTS, pipeline.warehouse.subjects(tables.BACKTESTS)[0], BacktestResult
    )[0]
    live = offline_result.model_copy(update={"id": f"{offline_result.id}-live", "offline": False, "error_rates": "measured"})
    store_backtest_result(Ledger(pipeline.warehouse), live)
    measured = client.get("/v1/methodology").json()["error_rates"]
    assert measured["items"] == offline_result.metrics.items
    assert set(measured["gates"]) == {g.gate for g in offline_result.gates}


def test_backtest_over_the_averitec_dev_set_read_in_place(pipeline: Pipeline) -> None:
    import pytest

    from reliability_core.settings import settings
    from reliability_core.validation.backtest import BacktestResult

    if not settings().averitec.exists():
        pytest.skip("the AVeriTeC dev set is not beside the project (../shared/data/averitec/dev.json)")
    definitions = build_definitions(pipeline.resources)
    key = dg.MultiPartitionKey({"gold_set": "averitec-dev", "judges": "configured"})
    pipeline.instance.add_dynamic_partitions("gold_sets", ["averitec-dev"])
    assert definitions.resolve_job_def("backtest_gold_set").execute_in_process(
        instance=pipeline.instance, partition_key=key
    ).success
    (partition,) = pipeline.warehouse.subjects(tables.BACKTESTS)
    (result,) = pipeline.warehouse.read(tables.BACKTESTS, partition, BacktestResult)
    assert result.gold_set == "averitec-dev" and result.metrics.items == 500
    assert not (pipeline.root / "warehouse" / "dev.json").exists()
