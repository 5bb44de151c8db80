"""Hand-written fakes for validation tests: verdict builders and a table-driven judge."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime

from reliability_core.models import (
    Claim,
    ClaimVerdict,
    CriteriaLevels,
    EvidenceItem,
    GateOutcome,
    GoldEvidence,
    GoldItem,
    JudgeVerdict,
    ResolutionCriteria,
    Verdict,
)

DECIDED = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
LEVELS = CriteriaLevels(true="t", mostly_true="mt", mixed="m", mostly_false="mf", false="f")


def judge_verdict(
    claim_id: str, judge: str, verdict: Verdict, confidence: float = 0.9, model: str = "fake"
) -> JudgeVerdict:
    return JudgeVerdict(
        method_version="test",
        claim_id=claim_id,
        judge_id="A" if judge == "A" else "B",
        provider="fake",
        model=model,
        verdict=verdict,
        confidence=confidence,
        basis="independent_source",
        rationale="fake",
        decided_at=DECIDED,
    )


def claim_verdict(
    claim_id: str,
    verdict: Verdict,
    *,
    subject_id: str = "northwind",
    judge_b: Verdict | None = None,
    confidence: float = 0.9,
    shown: bool = True,
    steering: bool = False,
    numeric_disputed: bool = False,
    decided_at: datetime = DECIDED,
) -> ClaimVerdict:
    a = judge_verdict(claim_id, "A", verdict, confidence)
    b = judge_verdict(claim_id, "B", judge_b, confidence) if judge_b is not None else None
    return ClaimVerdict(
        method_version="test",
        claim_id=claim_id,
        subject_id=subject_id,
        verdict=verdict,
        judge_a=a,
        judge_b=b,
        judges_disagree=judge_b is not None and judge_b != verdict,
        numeric_disputed=numeric_disputed,
        basis="independent_source",
        steering_detected=steering,
        gate=GateOutcome(shown=shown, failed=[] if shown else ["fewer than 2 independent publishers"]),
        decided_at=decided_at,
    )


def gold_item(
    item_id: str,
    label: Verdict,
    *,
    claim: str | None = None,
    claim_type: str = "factual",
    stated_probability: float | None = None,
    trap_tags: Sequence[str] = (),
    quote: str = "Northwind reported 7.4 GW of installed capacity",
    page_text: str = "In 2023 Northwind reported 7.4 GW of installed capacity in its annual report.",
) -> GoldItem:
    return GoldItem.model_validate(
        {
            "id": item_id,
            "claim": claim or f"claim {item_id}",
            "claim_type": claim_type,
            "subject_kind": "company",
            "made_on": date(2024, 1, 1),
            "criteria": LEVELS,
            "judge_at": date(2025, 1, 1),
            "evidence": [
                GoldEvidence(
                    url="https://wire.example/a",
                    quote=quote,
                    source_class="wire_service",
                    page_text=page_text,
                )
            ],
            "label": label,
            "stated_probability": stated_probability,
            "trap_tags": list(trap_tags),
        }
    )


class TableJudge:
    """Answers from a table keyed by claim text; records what it was given."""

    def __init__(self, answers: dict[str, dict[str, object]]) -> None:
        self.answers = answers
        self.seen: list[tuple[Claim, ResolutionCriteria, list[EvidenceItem]]] = []

    async def __call__(
        self, claim: Claim, criteria: ResolutionCriteria, evidence: Sequence[EvidenceItem]
    ) -> ClaimVerdict:
        self.seen.append((claim, criteria, list(evidence)))
        spec = dict(self.answers[claim.restatement])
        verdict = spec.pop("verdict")
        return claim_verdict(claim.id, verdict, **spec)  # type: ignore[arg-type]


class OfflineGateway:
    """A gateway whose judging steps run on the offline rules."""

    def describe(self) -> dict[str, str]:
        return {"judge_a": "offline-rules", "judge_b": "offline-rules"}

    def model_for(self, step: str) -> str:
        return "offline-rules"


class LiveGateway:
    """A gateway describing live judges, with a running cost."""

    class _Usage:
        def __init__(self, cost: float) -> None:
            self.cost_usd = cost

    class _Totals:
        def __init__(self) -> None:
            self.records: list[LiveGateway._Usage] = []

    def __init__(self) -> None:
        self.totals = self._Totals()

    def describe(self) -> dict[str, str]:
        return {"judge_a": "anthropic:claude-opus-5.5", "judge_b": "openai:gpt-6.1-sol"}

    def spend(self, cost: float) -> None:
        self.totals.records.append(self._Usage(cost))


def claim(
    claim_id: str, claim_type: str = "factual", subject_id: str = "northwind", document: str = "d1"
) -> Claim:
    return Claim.model_validate(
        {
            "method_version": "test",
            "id": claim_id,
            "statement_id": f"s-{claim_id}",
            "subject_id": subject_id,
            "document_id": document,
            "url": "https://northwind.example/report",
            "quote": "q",
            "quote_verified": True,
            "speaker": subject_id,
            "claim_type": claim_type,
            "restatement": "r",
            "triage": "resolvable_now",
            "triage_reason": "resolvable",
            "classified_by": "test",
        }
    )
