"""[#18] A steward's ruling takes effect at once: a retraction or demotion re-scores the
stored verdicts and the API serves the new score; "re-run the quote check" reads the
pages again and holds a verdict whose quote no longer verifies."""

import json
from datetime import timedelta

import dagster as dg
import pytest
from fastapi.testclient import TestClient

from reliability_api.app import ApiSettings, create_app
from reliability_api.auth import STEWARD_SCOPE, issue_token
from reliability_cli.main import main as reliability_cli
from reliability_core.clock import FixedClock
from reliability_core.models import Claim, Report
from reliability_core.scores.publication import latest_report
from reliability_core.scores.rulings import read_rulings
from reliability_core.stewardship.steward import QuoteRecheckOutcome, StewardQueueItem, read_quote_rechecks
from reliability_core.warehouse import Ledger, tables
from reliability_dagster.sensors import steward_rescore_sensor
from tests.conftest import PROJECT_ROOT
from tests.orchestration.conftest import Pipeline

SUBJECT = "amara-okafor"


def _scored_claim(report: Report) -> dict[str, object]:
    return next(c for c in report.claims if c["scored"] and c["verdict"] in ("true", "mostly_true"))


def _type_score(report: Report, claim_type: object) -> float | None:
    return next(t.score for t in report.type_scores if t.claim_type == claim_type)


def test_a_retraction_through_the_api_reaches_the_served_score_at_once(pipeline: Pipeline) -> None:
    assert pipeline.run(SUBJECT).success
    before = pipeline.report(SUBJECT)
    claim = _scored_claim(before)
    token = issue_token(Ledger(pipeline.warehouse), STEWARD_SCOPE, before.generated_at)
    app = create_app(
        ApiSettings(
            warehouse_root=pipeline.warehouse.root,
            clock=FixedClock(before.generated_at + timedelta(days=3)),
            registry_path=PROJECT_ROOT / "data" / "subjects.yaml",
        )
    )
    with TestClient(app) as client:
        ruled = client.post(
            f"/v1/subjects/{SUBJECT}/claims/{claim['claim_id']}/rulings",
            json={"action": "retract", "steward": "ada", "reason": "the source was misread"},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert ruled.status_code == 201, ruled.text
        served = client.get(f"/v1/subjects/{SUBJECT}/report").json()["report"]
    entry = next(c for c in served["claims"] if c["claim_id"] == claim["claim_id"])
    assert entry["scored"] is False and entry["value"] is None
    assert "retracted by a steward" in entry["gate"]["failed"]
    assert served["sequence"] == before.sequence + 1
    after = next(t for t in served["type_scores"] if t["claim_type"] == claim["claim_type"])
    assert after["n"] == next(t.n for t in before.type_scores if t.claim_type == claim["claim_type"]) - 1
    assert after["score"] != _type_score(before, claim["claim_type"])
    assert served["generated_at"] == before.generated_at.isoformat().replace("+00:00", "Z"), "no new research"


def test_a_demotion_from_the_cli_reaches_the_served_score_at_once(
    pipeline: Pipeline, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert pipeline.run(SUBJECT).success
    before = pipeline.report(SUBJECT)
    claim = _scored_claim(before)
    monkeypatch.setenv("RELIABILITY_NOW", (before.generated_at + timedelta(days=1)).isoformat())
    code = reliability_cli(
        ["steward", "rule", "--warehouse", pipeline.warehouse.root, "--subject", SUBJECT,
         "--claim", str(claim["claim_id"]), "--action", "demote", "--new-verdict", "false",
         "--steward", "ada", "--reason", "the figure was for another year"]
    )  # fmt: skip
    printed = json.loads(capsys.readouterr().out)
    assert code == 0 and printed["rescored_report_id"]
    after = pipeline.report(SUBJECT)
    entry = next(c for c in after.claims if c["claim_id"] == claim["claim_id"])
    assert entry["verdict"] == "false" and entry["value"] == 0.0
    assert _type_score(after, claim["claim_type"]) < _type_score(before, claim["claim_type"])  # type: ignore[operator]


def test_rechecking_a_quote_fetches_its_pages_again_and_holds_a_verdict_whose_quote_fails(
    pipeline: Pipeline, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert pipeline.run(SUBJECT).success
    before = pipeline.report(SUBJECT)
    monkeypatch.setenv("RELIABILITY_NOW", (before.generated_at + timedelta(days=1)).isoformat())
    honest, tampered = [c for c in before.claims if c["scored"]][:2]
    # The stored record says "verified", but the words are not on the page (a quote an
    # extraction invented and a faulty check let through).
    claims = pipeline.warehouse.read(tables.CLAIMS, SUBJECT, Claim)
    pipeline.warehouse.write(
        tables.CLAIMS,
        SUBJECT,
        [c.model_copy(update={"quote": c.quote + " and we tripled it since"}) if c.id == tampered["claim_id"] else c
         for c in claims],
    )  # fmt: skip

    def recheck(claim_id: object) -> dict[str, object]:
        code = reliability_cli(
            ["steward", "rule", "--warehouse", pipeline.warehouse.root, "--subject", SUBJECT,
             "--claim", str(claim_id), "--action", "recheck_quote", "--steward", "ada", "--reason", "spot check"]
        )  # fmt: skip
        assert code == 0
        return dict(json.loads(capsys.readouterr().out)["ruling"])

    assert recheck(honest["claim_id"])["quote_recheck_failed"] == []
    failed = recheck(tampered["claim_id"])["quote_recheck_failed"]
    assert len(failed) == 1 and "claim quote" in failed[0] and "not found" in failed[0]

    outcomes: list[QuoteRecheckOutcome] = read_quote_rechecks(Ledger(pipeline.warehouse), SUBJECT)
    assert {o.claim_id for o in outcomes} == {honest["claim_id"], tampered["claim_id"]}
    for outcome in outcomes:
        assert outcome.checks and all(c.fetch_outcome == "ok" and c.sha256 for c in outcome.checks), "pages re-read"
        assert any(c.quote_of == "evidence" for c in outcome.checks)

    after = latest_report(pipeline.warehouse.read(tables.REPORTS, SUBJECT, Report))
    assert after is not None
    held = next(c for c in after.claims if c["claim_id"] == tampered["claim_id"])
    assert held["scored"] is False and any("quote re-check failed" in f for f in held["gate"]["failed"])  # type: ignore[index, union-attr]
    kept = next(c for c in after.claims if c["claim_id"] == honest["claim_id"])
    assert kept["scored"] is True


def test_the_run_builds_the_subjects_steward_queue_and_shows_it_as_a_table(
    pipeline: Pipeline, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 27: right after the demo `steward list` printed `[]`; the queue filled only
    after a `steward build` the README did not mention."""
    result = pipeline.run(SUBJECT)
    assert result.success
    [materialisation] = result.asset_materializations_for_node("subject_steward_queue")
    queue = str(materialisation.metadata["queue"].value)
    assert queue.startswith("| subject / claim | claim | quote | judges | gate | why queued | evidence |")
    queued = pipeline.warehouse.read(tables.STEWARD_QUEUE, SUBJECT, StewardQueueItem)
    assert queued and all(item.claim and item.quote for item in queued)
    assert reliability_cli(["steward", "list", "--warehouse", pipeline.warehouse.root, "--json"]) == 0
    assert {i["claim_id"] for i in json.loads(capsys.readouterr().out)} == {i.claim_id for i in queued}


def test_a_rescore_is_recorded_on_subject_scores_with_the_new_figures(
    pipeline: Pipeline, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27: after a ruling the API served the re-scored report while subject_scores'
    latest metadata in the UI still showed the old scores."""
    assert pipeline.run(SUBJECT).success
    before = pipeline.report(SUBJECT)
    claim = _scored_claim(before)
    monkeypatch.setenv("RELIABILITY_NOW", (before.generated_at + timedelta(days=1)).isoformat())
    assert reliability_cli(
        ["steward", "rule", "--warehouse", pipeline.warehouse.root, "--subject", SUBJECT,
         "--claim", str(claim["claim_id"]), "--action", "retract", "--steward", "ada", "--reason", "misread"]
    ) == 0  # fmt: skip
    capsys.readouterr()
    after = pipeline.report(SUBJECT)
    [ruling] = read_rulings(Ledger(pipeline.warehouse), SUBJECT)
    assert after.rescored_at is not None and after.rescored_after_ruling == ruling.id
    assert after.generated_at == before.generated_at, "no new research: only the re-score is new"
    assert pipeline.warehouse.read(tables.SCORED_REPORTS, SUBJECT, Report)[-1].content_hash == after.content_hash

    resources = {"warehouse": pipeline.resources["warehouse"]}
    context = dg.build_sensor_context(instance=pipeline.instance, resources=resources)
    result = steward_rescore_sensor(context)
    assert isinstance(result, dg.SensorResult)
    [observation] = result.asset_events
    assert isinstance(observation, dg.AssetObservation)
    assert observation.asset_key == dg.AssetKey("subject_scores") and observation.partition == SUBJECT
    kind = str(claim["claim_type"])
    assert observation.metadata[f"n.{kind}"].value == next(t.n for t in after.type_scores if t.claim_type == kind)
    assert observation.metadata[f"n.{kind}"].value != next(t.n for t in before.type_scores if t.claim_type == kind)
    assert observation.metadata["rescored_at"].value == after.rescored_at.isoformat()

    again = steward_rescore_sensor(dg.build_sensor_context(instance=pipeline.instance, resources=resources, cursor=result.cursor))
    assert isinstance(again, dg.SensorResult) and not again.asset_events, "a re-score is recorded once"
