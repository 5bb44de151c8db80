"""An API over a small warehouse: one covered subject with a report, one refused."""

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from reliability_api.app import ApiSettings, create_app
from reliability_api.auth import STEWARD_SCOPE, issue_token
from reliability_core.clock import FixedClock
from reliability_core.models import (
    ClaimVerdict,
    CoverageDecision,
    GateOutcome,
    JudgeVerdict,
    OverallScore,
    Report,
)
from reliability_core.models.base import Verdict
from reliability_core.stewardship.steward import StewardQueueItem
from reliability_core.warehouse import Ledger, Warehouse, tables

GENERATED = datetime(2026, 11, 1, tzinfo=UTC)
VERSION = "0.1.0+test.offline-rules"


def coverage(subject_id: str, covered: bool) -> CoverageDecision:
    return CoverageDecision(
        subject_id=subject_id,
        name=subject_id.title(),
        identity_confirmed=True,
        is_public_figure_or_organisation=covered,
        is_serving_politician=not covered,
        has_consent=False,
        covered=covered,
        reasons=["public organisation"] if covered else ["serving politician: out of scope"],
        evidence=[],
        decided_by="offline-rules",
        decided_at=GENERATED,
        method_version=VERSION,
    )


def report(subject_id: str, score: float, generated: datetime = GENERATED) -> Report:
    return Report(
        id=f"rep_{subject_id}_{score}",
        subject_id=subject_id,
        subject_name=subject_id.title(),
        covered=True,
        coverage_reasons=["public organisation"],
        overall=OverallScore(
            n=12,
            score=score,
            interval_low=score - 10,
            interval_high=score + 10,
            insufficient_record=False,
            confidence="medium",
        ),
        claims=[{"claim_id": "clm_1", "quote": "We will build 2 GW by 2024.", "quote_verified": True}],
        offline_rules=True,
        generated_at=generated,
        served_until=generated + timedelta(days=90),
        content_hash=f"hash{score}",
        method_version=VERSION,
    )


def judge(claim_id: str, judge_id: str, verdict: Verdict) -> JudgeVerdict:
    return JudgeVerdict(
        method_version=VERSION,
        claim_id=claim_id,
        judge_id=judge_id,  # type: ignore[arg-type]
        provider="offline",
        model="offline-rules",
        verdict=verdict,
        confidence=0.9,
        basis="independent_source",
        rationale="The regulator's 2024 filing reports 2.1 GW installed.",
        decided_at=GENERATED,
    )


def claim_verdict(subject_id: str, claim_id: str, verdict: Verdict = "true") -> ClaimVerdict:
    return ClaimVerdict(
        method_version=VERSION,
        claim_id=claim_id,
        subject_id=subject_id,
        verdict=verdict,
        judge_a=judge(claim_id, "A", verdict),
        judge_b=judge(claim_id, "B", verdict),
        judges_disagree=False,
        basis="independent_source",
        gate=GateOutcome(shown=True),
        decided_at=GENERATED,
    )


def queue_item(subject_id: str, claim_id: str) -> StewardQueueItem:
    return StewardQueueItem(
        method_version=VERSION,
        id=f"stq_{claim_id}",
        subject_id=subject_id,
        claim_id=claim_id,
        reasons=["random_sample"],
        verdict="true",
        judge_a="true",
        judge_b="true",
        shown=True,
        decided_at=GENERATED,
        queued_at=GENERATED,
        sample_seed=1,
    )


@pytest.fixture
def api_warehouse(tmp_path: Path) -> Warehouse:
    store = Warehouse(str(tmp_path / "warehouse"))
    store.write(tables.COVERAGE, "acme", [coverage("acme", True)])
    store.write(tables.REPORTS, "acme", [report("acme", 64.0)])
    store.write(tables.VERDICTS, "acme", [claim_verdict("acme", "clm_1")])
    store.write(tables.STEWARD_QUEUE, "acme", [queue_item("acme", "clm_1")])
    store.write(tables.COVERAGE, "mp-jones", [coverage("mp-jones", False)])
    return store


@pytest.fixture
def api_clock() -> FixedClock:
    return FixedClock(datetime(2026, 11, 30, tzinfo=UTC))


@pytest.fixture
def client(api_warehouse: Warehouse, api_clock: FixedClock, tmp_path: Path) -> Iterator[TestClient]:
    changelog = tmp_path / "CHANGELOG-METHOD.md"
    changelog.write_text("# Method changelog\n\n## 0.1.0\n\nFirst version.\n")
    app = create_app(
        ApiSettings(
            warehouse_root=api_warehouse.root,
            changelog_path=changelog,
            clock=api_clock,
            describe_models=lambda: {"judge_a": "offline-rules"},
            write_burst=3,
            write_rate_per_second=0.01,
        )
    )
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def subject_token(api_warehouse: Warehouse) -> str:
    return issue_token(Ledger(api_warehouse), "acme", GENERATED)


@pytest.fixture
def steward_token(api_warehouse: Warehouse) -> str:
    return issue_token(Ledger(api_warehouse), STEWARD_SCOPE, GENERATED)
