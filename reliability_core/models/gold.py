"""Gold-set items: human-labelled claims with frozen criteria and evidence."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from reliability_core.models.base import ClaimType, Record, SourceClass, Verdict
from reliability_core.models.claims import CriteriaLevels, NumericCriteria


class GoldEvidence(Record):
    url: str
    quote: str
    source_class: SourceClass
    page_text: str = ""
    published_date: date | None = None
    independent: bool = True
    # [#10] additive: which side of the claim the evidence was gathered for, and who published it.
    side: Literal["for", "against"] = "for"
    publisher: str = ""
    # What the evidence shows about the claim; None derives it from ``side``
    # ("for" supports, "against" contradicts).
    stance: Literal["supports", "contradicts", "neutral"] | None = None


class GoldItem(Record):
    """One known-answer claim ([M] Validation; [R] "tested on known-answer claims")."""

    id: str
    claim: str
    claim_type: ClaimType
    subject_kind: str
    made_on: date | None = None
    criteria: CriteriaLevels
    judge_at: date
    numeric: NumericCriteria | None = None
    evidence: list[GoldEvidence] = Field(default_factory=list)
    label: Verdict
    labeller_agreement: float | None = None
    stated_probability: float | None = None
    trap_tags: list[str] = Field(default_factory=list)
    source: str = "synthetic"
    # [#10] additive: the subject the claim is about (demo registry id), the dataset's
    # own label before mapping, and a labeller's note.
    subject_id: str | None = None
    source_label: str | None = None
    notes: str = ""
