"""Builders and a counting gateway for the tests of steps 4-6 (extraction,
triage, sampling, criteria)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any, TypeVar

from pydantic import BaseModel

from reliability_core.claims.classification import StatementClassification
from reliability_core.ids import stable_id
from reliability_core.models import CandidateDocument, Claim, PageSnapshot, RegistryEntry
from reliability_core.models.base import ClaimType, TriageState

OutputT = TypeVar("OutputT", bound=BaseModel)
VERSION = "0.1.0+test"
LISTED = datetime(2026, 11, 1, tzinfo=UTC)


def make_claim(
    n: int,
    *,
    document: str = "doc1",
    claim_type: ClaimType = "factual",
    triage: TriageState = "resolvable_now",
    party_political: bool = False,
    quote_verified: bool = True,
    quote: str | None = None,
    deadline: date | None = None,
    subject_id: str = "northwind",
) -> Claim:
    text = quote or f"In 2021 we installed {n}.5 GW of capacity."
    return Claim(
        id=stable_id("clm", subject_id, document, n, claim_type),
        statement_id=stable_id("stm", subject_id, document, n),
        subject_id=subject_id,
        document_id=document,
        url=f"https://news.example/{document}",
        quote=text,
        quote_verified=quote_verified,
        speaker="Northwind",
        claim_type=claim_type,
        restatement=text,
        made_on=date(2022, 3, 1),
        deadline=deadline,
        party_political=party_political,
        triage=triage,
        triage_reason="test",
        classified_by="fake-model",
        method_version=VERSION,
    )


def reading(index: int, **overrides: Any) -> StatementClassification:
    """A classifier reading of a plain factual statement by the subject."""
    fields: dict[str, Any] = {
        "index": index,
        "speaker": "Northwind",
        "is_subject": True,
        "paraphrase": False,
        "private_life": False,
        "party_political": False,
        "is_claim": True,
        "claim_type": "factual",
        "company_guidance": False,
        "names_deliverable_or_target": False,
        "restatement": "Northwind installed 1.2 GW of capacity in 2021.",
        "deadline": None,
        "stated_probability": None,
        "probability_kind": None,
        "vague": False,
        "counterfactual": False,
        "own_records_only": False,
    }
    fields.update(overrides)
    return StatementClassification(**fields)


ENTRY = RegistryEntry(
    id="northwind",
    name="Northwind Energy",
    kind="company",
    urls=["https://northwind.example/"],
    aliases=["Northwind", "Anna Berg"],
)


def make_document(
    url: str = "https://wire.example/2022/northwind", published: date | None = date(2022, 3, 1)
) -> CandidateDocument:
    return CandidateDocument(
        id=stable_id("doc", url),
        subject_id="northwind",
        url=url,
        title="Northwind interview",
        published_date=published,
        year=published.year if published else None,
        search_result_set_id="srs_1",
        rank=1,
        listed_at=LISTED,
        method_version=VERSION,
    )


def make_snapshot(
    text: str, url: str = "https://wire.example/2022/northwind", outcome: str = "ok"
) -> PageSnapshot:
    return PageSnapshot.model_validate(
        {
            "id": stable_id("snap", url, text),
            "url": url,
            "final_url": url,
            "status": 200 if outcome == "ok" else None,
            "fetched_at": LISTED,
            "sha256": stable_id("sha", text),
            "byte_count": len(text),
            "content_type": "text/html",
            "outcome": outcome,
            "text": text,
            "main_text": text,
            "method_version": VERSION,
        }
    )


class CountingGateway:
    """Runs ``handlers[step](payload)``, validates the result against the output
    type as the real gateway does, and records every call."""

    def __init__(self, handlers: dict[str, Callable[[Any], BaseModel]], model: str = "fake-model") -> None:
        self.handlers = handlers
        self.model = model
        self.calls: list[tuple[str, BaseModel]] = []

    async def run(self, step: str, payload: BaseModel, output_type: type[OutputT]) -> OutputT:
        self.calls.append((step, payload))
        out = self.handlers[step](payload)
        return output_type.model_validate_json(out.model_dump_json())

    def model_for(self, step: str) -> str:
        return self.model

    def steps_called(self) -> list[str]:
        return [step for step, _ in self.calls]
