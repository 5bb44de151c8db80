"""Small record builders for the scoring tests (hand-written, no mocks)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from reliability_core.models import (
    Claim,
    ClaimVerdict,
    GateOutcome,
    JudgeVerdict,
    SampleMembership,
    Statement,
)
from reliability_core.models.base import ClaimType, TriageState, Verdict
from reliability_core.models.claims import ProbabilityKind

MV = "0.1.0+test"
AT = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def make_statement(statement_id: str, *, document_id: str = "d0", verified: bool = True) -> Statement:
    return Statement(
        method_version=MV,
        id=statement_id,
        subject_id="northwind",
        document_id=document_id,
        url=f"https://news.example/{document_id}",
        snapshot_sha256="ab" * 32,
        quote=f"We installed {statement_id} gigawatts.",
        quote_verified=verified,
        extracted_by="offline-rules",
    )


def make_claim(
    claim_id: str,
    *,
    claim_type: ClaimType = "factual",
    triage: TriageState = "resolvable_now",
    party_political: bool = False,
    document_id: str = "d0",
    statement_id: str | None = None,
    probability: float | None = None,
    kind: ProbabilityKind | None = None,
    made_on: date | None = date(2021, 3, 1),
) -> Claim:
    return Claim(
        method_version=MV,
        id=claim_id,
        statement_id=statement_id or f"s_{claim_id}",
        subject_id="northwind",
        document_id=document_id,
        url=f"https://news.example/{document_id}",
        quote=f"Quote of {claim_id}.",
        quote_verified=True,
        speaker="Northwind",
        claim_type=claim_type,
        restatement=f"Northwind said {claim_id}.",
        made_on=made_on,
        stated_probability=probability,
        probability_kind=kind,
        party_political=party_political,
        triage=triage,
        triage_reason="test",
        classified_by="offline-rules",
    )


def make_sample(
    claim_id: str, *, claim_type: ClaimType = "factual", sampled: bool = True
) -> SampleMembership:
    return SampleMembership(
        method_version=MV,
        claim_id=claim_id,
        subject_id="northwind",
        claim_type=claim_type,
        triage="resolvable_now",
        sampled=sampled,
        position=0 if sampled else None,
        seed=1,
        reason="test",
    )


def make_judge(claim_id: str, judge: str, verdict: Verdict) -> JudgeVerdict:
    return JudgeVerdict(
        method_version=MV,
        claim_id=claim_id,
        judge_id=judge,  # type: ignore[arg-type]
        provider="offline",
        model="offline-rules",
        verdict=verdict,
        confidence=0.9,
        basis="independent_source",
        rationale="test",
        decided_at=AT,
    )


def make_verdict(
    claim_id: str,
    verdict: Verdict,
    *,
    shown: bool = True,
    judge_b: Verdict | None = None,
    self_reported_only: bool = False,
) -> ClaimVerdict:
    b = judge_b if judge_b is not None else verdict
    return ClaimVerdict(
        method_version=MV,
        claim_id=claim_id,
        subject_id="northwind",
        verdict=verdict,
        judge_a=make_judge(claim_id, "A", verdict),
        judge_b=make_judge(claim_id, "B", b),
        judges_disagree=b != verdict,
        basis="independent_source",
        self_reported_only=self_reported_only,
        gate=GateOutcome(shown=shown, failed=[] if shown else ["fewer than 2 independent publishers"]),
        decided_at=AT,
    )
