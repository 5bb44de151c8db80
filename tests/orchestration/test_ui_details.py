"""[#27] What the data engineer sees in the UI: the run's model cost as run tags,
numeric metadata that keeps one type across partitions (so Dagster can plot it), and
every table an asset writes shown with its schema."""

from collections import defaultdict
from pathlib import Path
from typing import Any

import dagster as dg
import pytest

from reliability_core.models import Report
from reliability_core.stewardship.steward import StewardQueueItem
from reliability_core.validation.backtest import BacktestResult
from reliability_core.validation.stability import StabilityReport
from reliability_core.warehouse import Warehouse, tables
from reliability_dagster.assets import (
    ALSO_STORED,
    RUN_CALLS_TAG,
    RUN_COST_PER_CLAIM_TAG,
    RUN_COST_TAG,
    STORED,
    run_cost_tags,
)
from reliability_dagster.definitions import build_definitions
from reliability_dagster.metadata import COLUMN_SCHEMA, measure
from tests.orchestration.conftest import make_resources


def test_run_cost_tags_are_text_with_the_per_claim_cost_only_when_claims_were_checked() -> None:
    assert run_cost_tags(0.123456, 40, 8) == {
        RUN_COST_TAG: "0.1235",
        RUN_CALLS_TAG: "40",
        RUN_COST_PER_CLAIM_TAG: "0.0154",
    }
    assert RUN_COST_PER_CLAIM_TAG not in run_cost_tags(0.5, 3, 0)


def test_a_missing_measure_is_left_out_never_a_word_in_its_place() -> None:
    assert measure("score.factual", None, 1) == {}
    assert measure("score.factual", 62.04, 1) == {"score.factual": 62.0}
    assert isinstance(measure("checkable_share", 1, 3)["checkable_share"], float)


@pytest.fixture(scope="module")
def every_subject(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, dict[str, Any]]]:
    """Metadata of every per-subject asset, by asset and subject, over the demo subjects."""
    root = tmp_path_factory.mktemp("every_subject")
    resources = make_resources(root)
    definitions = build_definitions(resources, automation=False)
    job = definitions.resolve_job_def("quick_report")
    # Every scored, one type short of a record, not covered.
    subjects = ["amara-okafor", "northwind-energy", "jonas-pike"]
    found: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("subjects", subjects)
        for subject in subjects:
            result = job.execute_in_process(instance=instance, partition_key=subject, raise_on_error=False)
            assert result.success, subject
            for event in result.get_asset_materialization_events():
                materialization = event.step_materialization_data.materialization
                found[materialization.asset_key.to_user_string()][subject] = dict(materialization.metadata)
            run = instance.get_run_by_id(result.run_id)
            assert run is not None
            log = [e.user_message for e in instance.all_logs(result.run_id)]
            found["_runs"][subject] = {"tags": dict(run.tags), "log": log}
    found["_root"] = {"path": {"root": root}}
    return found


def test_a_runs_model_cost_is_a_run_tag_and_a_line_of_its_log(
    every_subject: dict[str, dict[str, dict[str, Any]]],
) -> None:
    for subject, run in every_subject["_runs"].items():
        tags = run["tags"]
        published = every_subject["subject_report"][subject]
        assert tags[RUN_COST_TAG] == f"{published['run_model_cost_usd'].value:.4f}"
        by_step = published["run_model_usage_by_step"].value
        assert isinstance(by_step, dict)
        assert tags[RUN_CALLS_TAG] == str(int(sum(u["calls"] for u in by_step.values())))
        checked = published["checked_claims"].value
        if checked:
            assert tags[RUN_COST_PER_CLAIM_TAG] == f"{published['cost_per_checked_claim_usd'].value:.4f}"
        logged = [m for m in run["log"] if m.startswith("run model cost:")]
        assert logged == [
            f"run model cost: {tags[RUN_COST_TAG]} USD over {tags[RUN_CALLS_TAG]} model calls; {checked} claims checked"
        ]
    assert every_subject["subject_report"]["amara-okafor"]["checked_claims"].value > 0


def test_numeric_metadata_keeps_one_type_across_partitions(
    every_subject: dict[str, dict[str, dict[str, Any]]],
) -> None:
    scores = every_subject["subject_scores"]
    # The demo subjects include an insufficient record, so the rule is exercised.
    assert any(
        m.get(f"record.{t}") and m[f"record.{t}"].value == "insufficient record"
        for m in scores.values()
        for t in ("factual", "promise", "prediction")
    )
    for asset, by_subject in every_subject.items():
        if asset.startswith("_"):
            continue
        types: dict[str, set[str]] = defaultdict(set)
        for metadata in by_subject.values():
            for key, value in metadata.items():
                types[key].add(type(value).__name__)
        mixed = {k: t for k, t in types.items() if len(t) > 1}
        assert not mixed, (asset, mixed)


def test_every_table_an_asset_writes_is_shown_with_its_schema(
    every_subject: dict[str, dict[str, dict[str, Any]]],
) -> None:
    root: Path = every_subject["_root"]["path"]["root"]
    written = {p.name for p in (root / "warehouse").iterdir() if p.is_dir() and not p.name.startswith("_")}
    definitions = build_definitions(make_resources(root), automation=False)
    graph = definitions.resolve_asset_graph()
    shown: set[str] = set()
    for name, (table, _) in STORED.items():
        metadata = graph.get(dg.AssetKey(name)).metadata
        assert isinstance(metadata[COLUMN_SCHEMA], dg.TableSchema)
        shown.add(table)
        for other, _model in ALSO_STORED.get(name, []):
            schema = metadata[f"table.{other}"]
            assert isinstance(schema, dg.TableSchemaMetadataValue) and schema.schema.columns
            assert other in metadata["warehouse_tables"].data
            shown.add(other)
    # Tables written by the per-subject pipeline (validation and steward tables have their own assets).
    subject_tables = written - {tables.BACKTESTS, tables.STABILITY, tables.STEWARD_QUEUE}
    assert subject_tables <= shown, subject_tables - shown
    assert Warehouse(str(root / "warehouse")).read(tables.REPORTS, "jonas-pike", Report)


def test_column_descriptions_come_from_the_pydantic_field_descriptions() -> None:
    graph = build_definitions(make_resources(Path("/nonexistent")), automation=False).resolve_asset_graph()
    # The per-subject tables, and the validation tables of their own assets.
    validation = {
        "gold_set_backtest": (tables.BACKTESTS, BacktestResult),
        "rerun_stability": (tables.STABILITY, StabilityReport),
        "steward_queue": (tables.STEWARD_QUEUE, StewardQueueItem),
    }
    for name, (_table, model) in {**STORED, **validation}.items():
        columns = {
            c.name: c.description for c in graph.get(dg.AssetKey(name)).metadata[COLUMN_SCHEMA].columns
        }
        for field_name, field in model.model_fields.items():
            assert field.description, f"{model.__name__}.{field_name} has no description"
            assert columns[field_name] == field.description, (name, field_name)
