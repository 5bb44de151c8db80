"""[#27 A4] A real subject without keys: ``subjects add`` says the offline stand-in knows
only the demo corpus; a run publishes no coverage decision about the subject (its report
says it needs live providers); the API labels the stand-in's output and no longer serves a
subject removed from the registry."""

import json
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from reliability_api.app import ApiSettings, create_app
from reliability_cli.main import main as reliability_cli
from reliability_core.clock import parse_clock_override
from reliability_core.models import CoverageDecision, SearchResultSet
from reliability_core.scores.render import report_markdown
from reliability_core.scores.report import OFFLINE_NOTICE
from reliability_core.stand_in.corpus import DEMO_CORPUS_NOW
from reliability_core.warehouse import tables
from reliability_dagster.demo import stage_progress, summary
from tests.conftest import PROJECT_ROOT
from tests.orchestration.conftest import Pipeline

ORSTED = ["subjects", "add", "--name", "Ørsted A/S", "--id", "orsted", "--kind", "company",
          "--url", "https://orsted.com/", "--time-zone", "Europe/Copenhagen"]  # fmt: skip


@pytest.fixture
def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(PROJECT_ROOT / "data" / "subjects.yaml", data / "subjects.yaml")
    shutil.copytree(PROJECT_ROOT / "data" / "corpus", data / "corpus")
    monkeypatch.setenv("RELIABILITY_DATA_DIR", str(data))
    return data / "subjects.yaml"


def _api(pipeline: Pipeline, registry: Path) -> TestClient:
    changelog = pipeline.root / "CHANGELOG-METHOD.md"
    changelog.write_text("# Method changelog\n")
    return TestClient(
        create_app(
            ApiSettings(
                warehouse_root=str(pipeline.root / "warehouse"),
                changelog_path=changelog,
                clock=parse_clock_override(DEMO_CORPUS_NOW),
                describe_models=lambda: {},
                registry_path=registry,
            )
        )
    )


def test_a_subject_outside_the_demo_corpus_gets_no_coverage_decision_from_the_stand_in(
    registry: Path, pipeline: Pipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    assert reliability_cli(ORSTED) == 0
    said = capsys.readouterr()
    assert "knows only the demo corpus" in said.err
    assert "needs live providers" in json.loads(said.out)["providers"]

    run = pipeline.run("orsted")
    assert run.success
    # The run's progress line does not read as a refusal either.
    progress = stage_progress(run)
    assert "coverage no" not in progress and "needs live providers" in progress
    report = pipeline.report("orsted")
    assert report.needs_live_providers and not report.covered and report.offline_rules
    (decision,) = pipeline.warehouse.read(tables.COVERAGE, "orsted", CoverageDecision)
    assert decision.needs_live_providers and decision.evidence == []
    assert pipeline.warehouse.read(tables.IDENTITY_SEARCHES, "orsted", SearchResultSet) == []
    printed = summary(report, "data/warehouse") + report_markdown(report)
    # Nothing that reads as a verdict on the company.
    for verdict in ("not covered", "identity not confirmed", "public figure"):
        assert verdict not in printed.lower()
    assert "needs live providers" in printed

    # A demo subject still gets its decision from the stand-in.
    assert pipeline.run("jonas-pike").success
    assert not pipeline.report("jonas-pike").needs_live_providers

    with _api(pipeline, registry) as client:
        answer = client.get("/v1/subjects/orsted").json()
        assert answer["needs_live_providers"] is True and answer["model_notice"] == OFFLINE_NOTICE
        assert client.get("/v1/subjects/jonas-pike").json()["model_notice"] == OFFLINE_NOTICE
        # Removed from the registry: no longer listed or served, though its files remain.
        text = registry.read_text(encoding="utf-8")
        registry.write_text(text[: text.index("- id: orsted")], encoding="utf-8")
        assert client.get("/v1/subjects/orsted").status_code == 404
        assert client.get("/v1/subjects/orsted/report").status_code == 404
        listed = [s["id"] for s in client.get("/v1/subjects").json()["items"]]
        assert "orsted" not in listed and "jonas-pike" in listed
    assert "orsted" in pipeline.warehouse.subjects(tables.REPORTS)
