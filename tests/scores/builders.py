"""Small record builders for the scoring tests (hand-written, no mocks)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from reliability_core.models import (
    CandidateDocument,
    Claim,
    ClaimVerdict,
    CoverageDecision,
    CriteriaLevels,
    DocumentSelection,
    EvidenceItem,
    GateOutcome,
    JudgeVerdict,
    ResolutionCriteria,
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


def make_coverage(*, covered: bool = True) -> CoverageDecision:
    return CoverageDecision(
        method_version=MV,
        subject_id="northwind",
        name="Northwind Energy",
        identity_confirmed=True,
        is_public_figure_or_organisation=covered,
        is_serving_politician=False,
        has_consent=False,
        covered=covered,
        reasons=["public company, not a politician"] if covered else ["a serving politician is out of scope"],
        evidence=[],
        decided_by="offline-rules",
        decided_at=AT,
    )


def make_candidate(document_id: str, year: int) -> CandidateDocument:
    return CandidateDocument(
        method_version=MV,
        id=document_id,
        subject_id="northwind",
        url=f"https://news.example/{document_id}",
        title=document_id,
        year=year,
        search_result_set_id="srs_1",
        rank=1,
        listed_at=AT,
    )


def make_selection(document_id: str, year: int) -> DocumentSelection:
    return DocumentSelection(
        method_version=MV,
        subject_id="northwind",
        document_id=document_id,
        url=f"https://news.example/{document_id}",
        position=0,
        slot="spread",
        year=year,
        seed=1,
        reason="test",
    )


def make_criteria(claim_id: str) -> ResolutionCriteria:
    return ResolutionCriteria(
        method_version=MV,
        id=f"crit_{claim_id}",
        claim_id=claim_id,
        subject_id="northwind",
        levels=CriteriaLevels(true="t", mostly_true="mt", mixed="m", mostly_false="mf", false="f"),
        judge_at=date(2026, 1, 1),
        written_at=AT,
        written_by="offline-rules",
        content_hash="cd" * 32,
    )


def make_evidence(claim_id: str) -> EvidenceItem:
    return EvidenceItem(
        method_version=MV,
        id=f"ev_{claim_id}",
        claim_id=claim_id,
        subject_id="northwind",
        url="https://wire.example/a",
        final_url=None,
        snapshot_id="snap_1",
        snapshot_sha256="ef" * 32,
        http_status=200,
        fetched_at=AT,
        quote="In 2021 Northwind installed 1.2 GW of capacity, the regulator said.",
        quote_verified=True,
        source_class="wire_service",
        publisher="Wire",
        independent=True,
        side="for",
        stance="supports",
    )
