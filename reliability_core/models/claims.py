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
    # [#15] additive. Rule 11: the IANA time zone the claim's dates are read in, and where it came
    # from ("registry", "claim context" or "default"). Rule 4: whether every number, date, named
    # entity and comparison of the restatement is in the verified quote or its sentence.
    time_zone: str = "UTC"
    time_zone_source: str = "default"
    restatement_verified: bool = True
    restatement_note: str = ""
    # Issue 24. [R] v1.2: a claim about someone dying or getting hurt is handed back without
    # searching (triaged never resolvable, counted, never researched).
    harm_to_person: bool = Field(
        default=False, description="About someone dying or being hurt: handed back without searching ([R] v1.2)"
    )
    classifier_overruled: list[str] = Field(
        default_factory=list,
        description="Where the code's reading of the quote differed from the classifier's flag or deadline: "
        "what each said; the code's reading stands",
    )


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
BandVerdict = Literal["true", "mostly_true", "mixed", "mostly_false", "false"]


class NumericBand(Record):
    """One range of the observed value and the level it earns ([#15] rule 2: "The frozen
    criteria hold the bands for true, mostly true, mixed, mostly false and false"). A bound
    of None is open; ``*_inclusive`` says whether the bound itself is inside ("more than" is
    strict, "at least" inclusive). A level may hold several ranges (both sides of "exactly")."""

    verdict: BandVerdict
    low: float | None = None
    low_inclusive: bool = True
    high: float | None = None
    high_inclusive: bool = False


class NumericCriteria(Record):
    """A structured, literally evaluable form of a numeric claim ([R] reading rules):
    "more than" → gt (strict), "at least" → ge (inclusive); nothing is rounded."""

    quantity: str
    unit: str
    operator: CriteriaOperator
    threshold: float
    as_of: date | None = None
    named_source: str | None = None
    bands: list[NumericBand] = Field(
        default_factory=list,
        description="The five levels as ranges of the observed value, set before research",
    )


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
    reading_notes: list[str] = Field(
        default_factory=list,
        description=(
            "Where the criteria writer and the claim's words disagreed (which figure is the threshold, "
            "which period or date): the words' reading was frozen (claims.criteria_reading)"
        ),
    )
