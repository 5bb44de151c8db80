"""[#18] Each blocking asset check fails its run on bad data.

After a good run of one subject, a stand-in for the checked asset (same key, same
partitions) writes the asset's table with one realistic fault; the real check then
runs on it in the same run, and the run must fail on that check."""

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import dagster as dg
import pytest

from reliability_core.models import Claim, ClaimVerdict, EvidenceItem, Report, ResolutionCriteria
from reliability_core.stages import SnapshotRef
from reliability_core.warehouse import Warehouse, tables
from reliability_dagster import checks
from reliability_dagster.partitions import subjects_partitions
from tests.orchestration.conftest import Pipeline, make_resources
from tests.verdicts.builders import snapshot
from tests.verdicts.factories import make_claim, make_item

SUBJECT = "northwind-energy"
INVENTED = "https://invented.example/never-returned-by-search"


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pipeline]:
    root = tmp_path_factory.mktemp("checks")
    with dg.DagsterInstance.ephemeral() as instance:
        pipeline = Pipeline(root=root, instance=instance, resources=make_resources(root))
        assert pipeline.run(SUBJECT).success
        yield pipeline


def _snapshot_url_not_from_search(w: Warehouse) -> None:
    refs = w.read(tables.SNAPSHOT_INDEX, SUBJECT, SnapshotRef)
    w.write(tables.SNAPSHOT_INDEX, SUBJECT, [refs[0].model_copy(update={"url": INVENTED}), *refs[1:]])


def _evidence_url_not_from_search(w: Warehouse) -> None:
    items = w.read(tables.EVIDENCE, SUBJECT, EvidenceItem)
    w.write(tables.EVIDENCE, SUBJECT, [items[0].model_copy(update={"url": INVENTED}), *items[1:]])


def _criteria_written_after_research(w: Warehouse) -> None:
    criteria = w.read(tables.CRITERIA, SUBJECT, ResolutionCriteria)
    late = criteria[0].model_copy(update={"written_at": datetime(2031, 1, 1, tzinfo=UTC)})
    w.write(tables.CRITERIA, SUBJECT, [late, *criteria[1:]])


def _evidence_from_the_claims_own_page(w: Warehouse) -> None:
    claims = {c.id: c for c in w.read(tables.CLAIMS, SUBJECT, Claim)}
    items = w.read(tables.EVIDENCE, SUBJECT, EvidenceItem)
    admitted = next(i for i in items if not i.excluded)
    own = admitted.model_copy(update={"url": claims[admitted.claim_id].url})
    w.write(tables.EVIDENCE, SUBJECT, [own if i.id == admitted.id else i for i in items])


def _judged_on_evidence_it_may_not_see(w: Warehouse) -> None:
    verdicts = w.read(tables.VERDICTS, SUBJECT, ClaimVerdict)
    judged = next(v for v in verdicts if v.judge_a is not None)
    leaked = judged.model_copy(update={"evidence_ids": [*judged.evidence_ids, "evd_unverified_page"]})
    w.write(tables.VERDICTS, SUBJECT, [leaked if v.claim_id == judged.claim_id else v for v in verdicts])


def _shown_verdict_on_an_unverified_quote(w: Warehouse) -> None:
    report = w.read(tables.SCORED_REPORTS, SUBJECT, Report)[-1]
    claims = [dict(c) for c in report.claims]
    shown = next(c for c in claims if isinstance(c.get("gate"), dict) and c["gate"].get("shown") and c.get("verdict"))  # type: ignore[union-attr]
    shown["quote_verified"] = False
    w.write(tables.SCORED_REPORTS, SUBJECT, [report.model_copy(update={"claims": claims})])


def _scores_that_do_not_recompute(w: Warehouse) -> None:
    report = w.read(tables.SCORED_REPORTS, SUBJECT, Report)[-1]
    w.write(tables.SCORED_REPORTS, SUBJECT, [report.model_copy(update={"content_hash": "0" * 64})])


CASES: list[tuple[dg.AssetChecksDefinition, str, Callable[[Warehouse], None]]] = [
    (checks.snapshot_urls_returned_by_search, "page_snapshots", _snapshot_url_not_from_search),
    (checks.evidence_urls_returned_by_search, "evidence", _evidence_url_not_from_search),
    (checks.criteria_frozen_before_research, "evidence", _criteria_written_after_research),
    (checks.no_evidence_from_own_source, "evidence", _evidence_from_the_claims_own_page),
    (checks.judges_blind, "verdicts", _judged_on_evidence_it_may_not_see),
    (checks.shown_quotes_are_verified, "subject_scores", _shown_verdict_on_an_unverified_quote),
    (checks.scores_recompute, "subject_scores", _scores_that_do_not_recompute),
]


def test_every_blocking_check_is_covered_here() -> None:
    assert {id(c) for c, _, _ in CASES} == {id(c) for c in checks.subject_checks}
    assert all(spec.blocking for c in checks.subject_checks for spec in c.check_specs)


@pytest.mark.parametrize(("check", "asset", "fault"), CASES, ids=[next(iter(c.check_specs)).name for c, _, _ in CASES])
def test_a_blocking_check_fails_the_run_on_bad_data(
    ran: Pipeline, check: dg.AssetChecksDefinition, asset: str, fault: Callable[[Warehouse], None]
) -> None:
    warehouse = ran.warehouse
    files = [Path(warehouse.partition_path(t, SUBJECT)) for t in warehouse.tables()]
    before = {f: f.read_bytes() for f in files if f.exists()}

    @dg.asset(name=asset, partitions_def=subjects_partitions)
    def stand_in() -> None:
        fault(warehouse)

    definitions = dg.Definitions(
        assets=[stand_in],
        asset_checks=[check],
        jobs=[dg.define_asset_job("faulty", selection=dg.AssetSelection.assets(asset))],
        resources=ran.resources,
    )
    try:
        result = definitions.resolve_job_def("faulty").execute_in_process(
            instance=ran.instance, partition_key=SUBJECT, raise_on_error=False
        )
    finally:  # the next case starts from the good run again
        for path, content in before.items():
            path.write_bytes(content)
    evaluations = [
        e.asset_check_evaluation_data
        for e in result.all_events
        if e.event_type == dg.DagsterEventType.ASSET_CHECK_EVALUATION and e.asset_check_evaluation_data
    ]
    assert [(e.check_name, e.passed) for e in evaluations] == [(next(iter(check.check_specs)).name, False)]
    assert not result.success, "a failing blocking check fails the run"


def test_the_own_source_check_applies_the_pipelines_rule_to_what_was_stored() -> None:
    text = (
        "Northwind Energy said on Tuesday that its Baltic Three offshore wind farm had been delayed by a year "
        "after a supplier failed to deliver turbine foundations on time, a spokesperson said."
    )
    claim = make_claim()
    document = snapshot(claim.url, text).model_copy(update={"final_url": claim.url + "-moved"})
    copy = snapshot("https://mirror.example/story", "Republished. " + text)
    redirected = snapshot("https://short.example/x", "Anything").model_copy(update={"final_url": claim.url + "-moved"})
    independent = snapshot("https://wire.example/register", "The register listed 7.4 GW in operation.")
    pages = {page.id: page for page in (copy, redirected, independent)}
    items = [make_item(page.id, snapshot_id=page.id, url=page.url) for page in pages.values()]
    problems = checks.own_source_problems(items, {claim.id: claim}, {claim.url: document}, pages)
    assert [p.split(": ")[0] for p in problems] == [copy.id, redirected.id]
    assert "copy of the claim's own source" in problems[0] and "redirects" in problems[1]
