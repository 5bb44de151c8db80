"""The whole demo (five subjects) against the corpus's answer key: the mechanical
rules must hold exactly; agreement of the offline model's judgement with the key
is reported as a figure, not asserted to be perfect."""

import hashlib
from typing import Any

import pytest
import yaml

from reliability_core.models import Claim, ClaimVerdict, CoverageDecision, PageSnapshot, Statement
from reliability_core.stand_in.corpus import load_manifest
from reliability_core.text.normalise import normalise_for_match
from reliability_core.text.privacy import PRIVATE_REDACTION
from reliability_core.warehouse import Ledger, tables
from tests.conftest import DEMO_SUBJECTS, DemoRun
from tests.orchestration.conftest import CORPUS
from tests.orchestration.private_scan import everything_left_behind, leaks, private_statements

pytestmark = pytest.mark.slow
CORPUS_PAGES = {page.url: page.file for page in load_manifest(CORPUS).pages if page.file}
SUBJECTS = DEMO_SUBJECTS


@pytest.fixture(scope="module")
def demo(demo_run: DemoRun) -> DemoRun:
    """The session's demo run (tests/conftest.py): an instance on disk (run, event and
    compute-log storage under its root), so the private-life scan reads Dagster's storage as
    well as the warehouse and caches."""
    return demo_run


@pytest.fixture(scope="module")
def key() -> dict[str, Any]:
    with (CORPUS / "answer_key.yaml").open(encoding="utf-8") as handle:
        loaded: dict[str, Any] = yaml.safe_load(handle)
    return loaded


def test_coverage_decisions_match_the_answer_key(demo: DemoRun, key: dict[str, Any]) -> None:
    for subject in key["subjects"]:
        decision = demo.warehouse.read(tables.COVERAGE, subject["subject_id"], CoverageDecision)[0]
        assert decision.covered == (subject["expected_coverage"] == "covered"), subject["subject_id"]


def test_no_private_life_statement_is_in_any_file_the_demo_leaves_behind(
    demo: DemoRun, key: dict[str, Any]
) -> None:
    """[M] step 4 "Statements about anyone's private life, family, health, home or
    location are dropped before anything is stored", in every store: warehouse,
    ledger (page snapshots too), caches, Dagster's storage and chart files."""
    files = everything_left_behind(demo.root)
    kinds = {
        "warehouse": "warehouse/reports/",
        "snapshot ledger": f"warehouse/_ledger/{tables.SNAPSHOT_LEDGER}/",
        "model cache": "cache/models/",
        "Dagster storage": "dagster_home/",
        "charts": "warehouse/_charts/",
    }
    for kind, prefix in kinds.items():
        assert any(where.startswith(prefix) for where in files), f"the scan reached no {kind} file"
    private = private_statements(key)
    assert len(private) >= 9, "the corpus holds private-life statements"
    leaked = leaks(files, private)
    assert not leaked, leaked


def test_page_snapshots_keep_the_hash_of_the_bytes_as_received(demo: DemoRun, key: dict[str, Any]) -> None:
    """Masked text, but the SHA-256 on the record is of the page as it was served."""
    private_pages = {s["document_url"] for s in key["statements"] if s.get("drop_reason") == "private_life"}
    checked = 0
    for subject in SUBJECTS:
        for snapshot in Ledger(demo.warehouse).read_all(tables.SNAPSHOT_LEDGER, subject, PageSnapshot):
            page = CORPUS_PAGES.get(snapshot.url)
            if snapshot.url not in private_pages or page is None or snapshot.outcome != "ok":
                continue
            body = (CORPUS / "pages" / page).read_bytes()
            assert snapshot.sha256 == hashlib.sha256(body).hexdigest(), snapshot.url
            assert snapshot.private_life_masked >= 1 and PRIVATE_REDACTION in snapshot.text
            checked += 1
    assert checked > 0


def test_other_speakers_and_paraphrases_are_never_stored_as_the_subjects(
    demo: DemoRun, key: dict[str, Any]
) -> None:
    stored_quotes = {
        normalise_for_match(s.quote).text
        for subject in SUBJECTS
        for s in demo.warehouse.read(tables.STATEMENTS, subject, Statement)
    }
    others = [s for s in key["statements"] if s.get("drop_reason") in ("other_speaker", "paraphrase")]
    assert others
    wrongly_kept = [s["quote"] for s in others if normalise_for_match(s["quote"]).text in stored_quotes]
    assert not wrongly_kept, wrongly_kept


def test_agreement_with_the_answer_key_is_reported(demo: DemoRun, key: dict[str, Any]) -> None:
    expected = {normalise_for_match(s["quote"]).text: s for s in key["statements"] if s.get("kept")}
    compared = agreed = typed = triaged = 0
    for subject in SUBJECTS:
        claims = {c.id: c for c in demo.warehouse.read(tables.CLAIMS, subject, Claim)}
        for claim in claims.values():
            label = expected.get(normalise_for_match(claim.quote).text)
            if label is None:
                continue
            typed += label.get("type") == claim.claim_type
            triaged += label.get("triage") == claim.triage
        for verdict in demo.warehouse.read(tables.VERDICTS, subject, ClaimVerdict):
            label = expected.get(normalise_for_match(claims[verdict.claim_id].quote).text)
            if label is None or label.get("verdict") is None:
                continue
            compared += 1
            agreed += label["verdict"] == verdict.verdict
    assert compared > 0
    print(
        f"\noffline-rules agreement with the answer key: verdicts {agreed}/{compared} "
        f"({agreed / compared:.0%}); types {typed}, triage {triaged} matching"
    )
