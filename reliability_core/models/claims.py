"""Statements, claims, sample membership and frozen resolution criteria."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field

from reliability_core.models.base import ClaimType, Record, StampedRecord, TriageState


class Statement(StampedRecord):
    """A statement copied word for word from a stored page ([M] step 4).
    A quote that fails the mechanical check is kept with ``quote_verified=False``."""

    id: str
    subject_id: str
    document_id: str
    url: str
    snapshot_sha256: str | None
    quote: str
    quote_verified: bool
    match_start: int | None = None  # offsets in the snapshot's whole visible text
    match_end: int | None = None
    context: str = ""
    extracted_by: str


DropReason = Literal["other_speaker", "paraphrase", "private_life", "not_a_claim"]


class DroppedStatement(StampedRecord):
    """A count-only trace of a dropped statement. For privacy drops the quote
    itself is never stored ([M] "dropped before anything is stored")."""

    id: str
    subject_id: str
    document_id: str
    reason: DropReason
    note: str = ""  # never contains the dropped text


ProbabilityKind = Literal["exact", "lower_bound", "upper_bound"]


class Claim(StampedRecord):
    """An attributed, typed, restated statement of the subject, with its triage."""

    id: str
    statement_id: str
    subject_id: str
    document_id: str
    url: str
    quote: str
    quote_verified: bool
    speaker: str
    claim_type: ClaimType
    restatement: str
    made_on: date | None = None
    deadline: date | None = None
    stated_probability: float | None = None
    probability_kind: ProbabilityKind | None = None
    party_political: bool = False
    triage: TriageState
    triage_reason: str
    classified_by: str


class SampleMembership(StampedRecord):
    """Whether a claim was chosen for research by the seeded rule ([M] step 5)."""

    claim_id: str
    subject_id: str
    claim_type: ClaimType
    triage: TriageState
    sampled: bool
    position: int | None
    seed: int
    reason: str


CriteriaOperator = Literal["gt", "ge", "lt", "le", "eq"]


class NumericCriteria(Record):
    """A structured, literally evaluable form of a numeric claim ([R] reading rules):
    "more than" → gt (strict), "at least" → ge (inclusive); nothing is rounded."""

    quantity: str
    unit: str
    operator: CriteriaOperator
    threshold: float
    as_of: date | None = None
    named_source: str | None = None


class CriteriaLevels(Record):
    true: str
    mostly_true: str
    mixed: str
    mostly_false: str
    false: str


class ResolutionCriteria(StampedRecord):
    """Written and stored before any research; never rewritten ([M] step 6)."""

    id: str
    claim_id: str
    subject_id: str
    levels: CriteriaLevels
    judge_at: date
    numeric: NumericCriteria | None = None
    written_at: datetime
    written_by: str
    content_hash: str = Field(description="SHA-256 of levels, judge_at and numeric")
