"""[#18] What the data engineer sees in the Dagster UI: every asset's column schema,
row count, owners, code references and description; scores rounded in a table; the
report's claims as a table and its chart on their own; kind badges naming the provider
that runs; sensors and jobs described."""

from pathlib import Path

import dagster as dg
import pytest

from reliability_dagster.definitions import build_definitions, defs
from reliability_dagster.metadata import COLUMN_SCHEMA, ROW_COUNT
from tests.orchestration.conftest import Pipeline, make_providers, make_resources


def test_every_asset_carries_schema_owners_code_references_and_a_description() -> None:
    graph = defs.resolve_asset_graph()
    for key in graph.get_all_asset_keys():
        node = graph.get(key)
        assert isinstance(node.metadata.get(COLUMN_SCHEMA), dg.TableSchema), key
        assert node.metadata[COLUMN_SCHEMA].columns, key
        assert node.owners, key
        assert "dagster/code_references" in node.metadata, key
        assert node.description, key
    repository = defs.get_repository_def()
    for sensor in repository.sensor_defs:
        assert sensor.description, sensor.name
    for job in repository.get_all_jobs():
        if not job.name.startswith("__"):
            assert job.description, job.name



def _code_references(definitions: dg.Definitions) -> dict[str, list[str]]:
    graph = definitions.resolve_asset_graph()
    found = {}
    for key in graph.get_all_asset_keys():
        references = graph.get(key).metadata["dagster/code_references"].code_references
        found[key.to_user_string()] = [
            r.url if isinstance(r, dg.UrlCodeReference) else f"{r.file_path}#L{r.line_number}" for r in references
        ]
    return found


def test_each_asset_links_once_to_the_function_that_defines_it_not_to_the_shared_wrapper() -> None:
    references = _code_references(defs)
    assets_file = str(Path("reliability_dagster/assets.py").resolve())
    for name in ("subject_coverage", "evidence", "subject_report"):
        [reference] = references[name]
        assert reference.startswith(f"{assets_file}#L"), reference
    [stability] = references["rerun_stability"]
    assert stability.startswith(str(Path("reliability_dagster/validation.py").resolve())), stability


def test_with_a_repository_url_the_code_references_link_to_the_file_in_git(tmp_path: Path) -> None:
    local = _code_references(defs)
    linked = _code_references(
        build_definitions(make_resources(tmp_path), git_url="https://github.com/example/reliability", git_branch="v1")
    )
    for name, [reference] in linked.items():
        line = local[name][0].rsplit("#", 1)[1]
        path = local[name][0].split("/reliability_dagster/", 1)[1].split("#")[0]
        assert reference == f"https://github.com/example/reliability/tree/v1/reliability_dagster/{path}#{line}", name

@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ({}, "offline-rules"),
        ({"anthropic_api_key": "k", "openai_api_key": "k", "perplexity_api_key": "k"}, None),
        ({"rehearsal": True}, "rehearsal"),
    ],
    ids=["offline", "vendor keys", "rehearsal"],
)
def test_kind_badges_name_the_provider_that_actually_runs(
    tmp_path: Path, config: dict[str, object], expected: str | None
) -> None:
    resources = make_resources(tmp_path)
    resources["providers"] = make_providers(tmp_path, **config)
    graph = build_definitions(resources).resolve_asset_graph()
    kinds = {key.to_user_string(): graph.get(key).kinds for key in graph.get_all_asset_keys()}
    if expected is None:
        assert "anthropic" in kinds["statements"] and "openai" in kinds["verdicts"]
        assert "perplexity" in kinds["evidence"]
    else:
        for name in ("subject_coverage", "statements", "evidence", "verdicts"):
            assert expected in kinds[name] and not kinds[name] & {"anthropic", "openai", "perplexity"}, name
    assert "python" in kinds["claims"]


def test_a_run_shows_row_counts_rounded_scores_the_claims_table_and_the_chart(pipeline: Pipeline) -> None:
    result = pipeline.run("amara-okafor")
    assert result.success
    for event in result.get_asset_materialization_events():
        materialization = event.step_materialization_data.materialization
        assert ROW_COUNT in materialization.metadata, materialization.asset_key
    report = pipeline.report("amara-okafor")
    scores = result.asset_materializations_for_node("subject_scores")[0].metadata["scores"]
    assert isinstance(scores, dg.TableMetadataValue)
    rows = {r.data["score"]: r.data for r in scores.records}
    assert set(rows) == {"factual", "promise", "prediction", "overall"}
    for row in rows.values():
        assert row["value"] is None or round(row["value"], 1) == row["value"]
        assert row["checked_claims"] >= 0 and row["interval_80"]
    published = result.asset_materializations_for_node("subject_report")[0].metadata
    claims = published["claims"]
    assert isinstance(claims, dg.TableMetadataValue) and len(claims.records) == len(report.claims)
    assert {c.name for c in claims.schema.columns} >= {"claim", "type", "verdict", "basis", "judges", "display", "evidence"}
    held = [r.data for r in claims.records if str(r.data["display"]).startswith("held")]
    assert all("(" in str(r["display"]) for r in held), "a held claim says why"
    assert any(str(r.data["evidence"]).startswith("https://") for r in claims.records)
    assert str(published["chart"].value).startswith("![") and "data:image/png;base64," in str(published["chart"].value)
    assert published[ROW_COUNT].value == 1


def test_long_steps_log_their_progress_on_the_run_page(pipeline: Pipeline) -> None:
    result = pipeline.run("clearwater-evaluators")
    assert result.success
    messages = [e.user_message for e in pipeline.instance.all_logs(result.run_id)]
    report = pipeline.report("clearwater-evaluators")
    for what in ("documents extracted", "claims researched", "claims judged"):
        lines = [m for m in messages if m.startswith(f"{what}: ")]
        assert lines, what
        done, _, total = lines[-1].removeprefix(f"{what}: ").partition(" of ")
        assert done == total, lines[-1]
    judged = next(m for m in reversed(messages) if m.startswith("claims judged: "))
    assert judged == f"claims judged: {report.counts.sampled} of {report.counts.sampled}"
