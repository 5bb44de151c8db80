"""Statements, claims, sample membership and frozen resolution criteria."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field

from reliability_core.models.base import ClaimType, Record, StampedRecord, TriageState


class Statement(StampedRecord):
    """A statement copied word for word from a stored page ([M] step 4).
    A quote that fails the mechanical check is kept with ``quote_verified=False``."""

    id: str = Field(description="The statement's id")
    subject_id: str = Field(description="The subject's slug id (its partition)")
    document_id: str = Field(description="The document it was copied from")
    url: str = Field(description="The document's address")
    snapshot_sha256: str | None = Field(description="SHA-256 of the page snapshot the quote was checked against")
    quote: str = Field(description="The statement, word for word")
    quote_verified: bool = Field(description="Whether the quote was found in the stored page text (the mechanical check)")
    match_start: int | None = Field(default=None, description="Start offset of the quote in the snapshot's visible text")
    match_end: int | None = Field(default=None, description="End offset of the quote in the snapshot's visible text")
    context: str = Field(default="", description="The text around the quote")
    extracted_by: str = Field(description="The model id that extracted it, or offline-rules")


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

    id: str = Field(description="The claim's id")
    statement_id: str = Field(description="The statement it was made from")
    subject_id: str = Field(description="The subject's slug id (its partition)")
    document_id: str = Field(description="The document it was made in")
    url: str = Field(description="The document's address")
    quote: str = Field(description="The subject's words, verbatim")
    quote_verified: bool = Field(description="Whether the quote was found in the stored page text")
    speaker: str = Field(description="Who said it (the subject)")
    claim_type: ClaimType = Field(description="factual, promise or prediction")
    restatement: str = Field(description="The claim restated so it can be checked")
    made_on: date | None = Field(default=None, description="When the claim was made")
    deadline: date | None = Field(default=None, description="When a promise or prediction falls due")
    stated_probability: float | None = Field(default=None, description="A probability the subject gave, 0 to 1")
    probability_kind: ProbabilityKind | None = Field(default=None, description="Whether the stated probability is exact, a lower or an upper bound")
    party_political: bool = Field(default=False, description="Whether the claim is party-political")
    triage: TriageState = Field(description="resolvable_now, not_yet_due, never_resolvable or own_records_only")
    triage_reason: str = Field(description="Why it was triaged so, in words")
    classified_by: str = Field(description="The model id that typed and triaged it, or offline-rules")
    # [#15] additive. Rule 11: the IANA time zone the claim's dates are read in, and where it came
    # from ("registry", "claim context" or "default"). Rule 4: whether every number, date, named
    # entity and comparison of the restatement is in the verified quote or its sentence.
    time_zone: str = Field(default="UTC", description="The IANA time zone the claim's dates are read in ([#15] rule 11)")
    time_zone_source: str = Field(default="default", description="Where the time zone came from: registry, claim context or default")
    restatement_verified: bool = Field(default=True, description="Whether every number, date, name and comparison of the restatement is in the quote ([#15] rule 4)")
    restatement_note: str = Field(default="", description="What the restatement check found, when it failed")
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

    claim_id: str = Field(description="The claim")
    subject_id: str = Field(description="The subject's slug id (its partition)")
    claim_type: ClaimType = Field(description="factual, promise or prediction")
    triage: TriageState = Field(description="The claim's triage state")
    sampled: bool = Field(description="Whether the seeded rule chose it for research ([M] step 5)")
    position: int | None = Field(description="Its position in the sample, when sampled")
    seed: int = Field(description="The seed of the sampling rule")
    reason: str = Field(description="Why it was or was not chosen, in words")


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

    id: str = Field(description="The criteria's id")
    claim_id: str = Field(description="The claim they resolve")
    subject_id: str = Field(description="The subject's slug id (its partition)")
    levels: CriteriaLevels = Field(description="What true, mostly true, mixed, mostly false and false mean for this claim (JSON)")
    judge_at: date = Field(description="The date the claim is judged at")
    numeric: NumericCriteria | None = Field(default=None, description="The claim's quantity, operator, threshold and bands, for a numeric claim (JSON)")
    written_at: datetime = Field(description="When the criteria were written, before any research (UTC)")
    written_by: str = Field(description="The model id that wrote them, or offline-rules")
    content_hash: str = Field(description="SHA-256 of levels, judge_at and numeric")
    reading_notes: list[str] = Field(
        default_factory=list,
        description=(
            "Where the criteria writer and the claim's words disagreed (which figure is the threshold, "
            "which period or date): the words' reading was frozen (claims.criteria_reading)"
        ),
    )
