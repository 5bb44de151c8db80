"""Small builders for claims, criteria and evidence items used by the verdict tests."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from reliability_core.models.claims import Claim, CriteriaLevels, NumericCriteria, ResolutionCriteria
from reliability_core.models.verdicts import EvidenceItem

MV = "0.1.0+test"
FETCHED = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

LEVELS = CriteriaLevels(
    true="The evidence shows the stated outcome in full.",
    mostly_true="The outcome largely happened, with minor shortfalls.",
    mixed="Parts happened and parts did not.",
    mostly_false="Most of the outcome did not happen.",
    false="The evidence shows the outcome did not happen.",
)


def make_claim(**overrides: Any) -> Claim:
    fields: dict[str, Any] = {
        "method_version": MV,
        "id": "clm_1",
        "statement_id": "stm_1",
        "subject_id": "northwind",
        "document_id": "doc_1",
        "url": "https://northwind.example/blog/2022-plans",
        "quote": "We will have 8 GW of offshore wind installed by the end of 2024.",
        "quote_verified": True,
        "speaker": "Northwind Energy",
        "claim_type": "promise",
        "restatement": "Northwind Energy will have 8 GW of offshore wind capacity installed by the end of 2024.",
        "made_on": date(2022, 3, 1),
        "deadline": date(2024, 12, 31),
        "triage": "resolvable_now",
        "triage_reason": "deadline passed",
        "classified_by": "offline-rules",
    }
    fields.update(overrides)
    return Claim(**fields)


def make_criteria(numeric: NumericCriteria | None = None, **overrides: Any) -> ResolutionCriteria:
    fields: dict[str, Any] = {
        "method_version": MV,
        "id": "crt_1",
        "claim_id": "clm_1",
        "subject_id": "northwind",
        "levels": LEVELS,
        "judge_at": date(2024, 12, 31),
        "numeric": numeric,
        "written_at": FETCHED,
        "written_by": "offline-rules",
        "content_hash": "0" * 64,
    }
    fields.update(overrides)
    return ResolutionCriteria(**fields)


def make_item(item_id: str, **overrides: Any) -> EvidenceItem:
    fields: dict[str, Any] = {
        "method_version": MV,
        "id": item_id,
        "claim_id": "clm_1",
        "subject_id": "northwind",
        "url": f"https://wire.example/{item_id}",
        "final_url": None,
        "snapshot_id": f"snap_{item_id}",
        "snapshot_sha256": "a" * 64,
        "http_status": 200,
        "fetched_at": FETCHED,
        "quote": f"In January 2025 the regulator confirmed 8.2 GW of installed capacity ({item_id}).",
        "quote_verified": True,
        "source_class": "wire_service",
        "publisher": f"Publisher {item_id}",
        "independent": True,
        "published_date": date(2025, 1, 15),
        "side": "for",
        "stance": "supports",
        "primary_or_major": True,
    }
    fields.update(overrides)
    return EvidenceItem(**fields)
