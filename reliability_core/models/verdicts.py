"""Evidence items, judge verdicts and the claim's final verdict."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field

from reliability_core.models.base import Basis, Record, SourceClass, StampedRecord, Verdict


class EvidenceItem(StampedRecord):
    """A dated piece of evidence read from a page the server opened itself ([M] step 7)."""

    id: str
    claim_id: str
    subject_id: str
    url: str
    final_url: str | None
    snapshot_id: str
    snapshot_sha256: str | None
    http_status: int | None
    fetched_at: datetime
    quote: str
    quote_verified: bool
    source_class: SourceClass
    publisher: str
    independent: bool
    published_date: date | None = None  # in the claim's time zone when the account gave a time
    published_at: datetime | None = None  # [#15] the account's date and time, when it gave one
    side: Literal["for", "against"]
    stance: Literal["supports", "contradicts", "neutral"] = "neutral"
    observed_value: float | None = None
    excluded: bool = False
    exclusion_reason: str = ""
    # [#7] additive: what the source policy said, and what kind of statement the quote is.
    primary_or_major: bool = False  # [R] "at least one primary or major source"
    subject_own: bool = False  # published by the subject itself (its records or its statements)
    source_reason: str = ""  # which policy entry or page signal placed the page
    evidence_kind: Literal[
        "outcome", "forecast", "poll", "analyst_expectation", "repeat_of_claim", "background"
    ] = "outcome"
    same_story_as: str | None = None  # snapshot id of the page this copy duplicates ("counts once")
    reader_kind: Literal[
        "outcome", "forecast", "poll", "analyst_expectation", "repeat_of_claim", "background"
    ] | None = Field(
        default=None,
        description="The evidence reader's label when code's reading of the quote's words and date "
        "(verdicts.evidence_rules.decided_kind) differs from it; evidence_kind is then code's reading",
    )
    kind_note: str = Field(default="", description="Why code's reading of the kind differs from the reader's label")


class JudgeVerdict(StampedRecord):
    """One blind judge's decision ([M] step 8)."""

    claim_id: str
    judge_id: Literal["A", "B"]
    provider: str
    model: str
    verdict: Verdict
    confidence: float = Field(ge=0.0, le=1.0)
    basis: Basis
    rationale: str
    cited_evidence_ids: list[str] = Field(default_factory=list)
    observed_value: float | None = None
    decided_at: datetime
    # [#7] additive: the judge's own verdict before the method's code rules, and which rules changed it.
    proposed_verdict: Verdict | None = None
    rules_applied: list[str] = Field(default_factory=list)


class VerdictReview(Record):
    """[R] "a second, stronger AI model reviewed it and found no major problem": what the
    reviewer step reported on judge A's verdict, read against the same blind input."""

    reviewer: str  # the model id that reviewed (``offline-rules`` for the labelled stand-in)
    major_problems: list[str] = Field(default_factory=list)
    minor_problems: list[str] = Field(default_factory=list)
    rationale: str = ""


class GateOutcome(Record):
    """Code, not a model, decides whether a verdict is shown ([R] display gates)."""

    shown: bool
    failed: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


class ClaimVerdict(StampedRecord):
    """The claim's verdict: judge A's, with disagreement flagged, never averaged."""

    claim_id: str
    subject_id: str
    verdict: Verdict
    judge_a: JudgeVerdict | None
    judge_b: JudgeVerdict | None
    judges_disagree: bool
    numeric_disputed: bool = False
    basis: Basis
    self_reported_only: bool = False
    steering_detected: bool = False
    steering_notes: list[str] = Field(default_factory=list)
    gate: GateOutcome
    evidence_ids: list[str] = Field(default_factory=list)
    reason: str = ""
    decided_at: datetime
    # [#15] additive: the reviewer's report on judge A's verdict (None when nothing was reviewed),
    # and "not yet: the official figure has not been published" with the date it is expected by.
    review: VerdictReview | None = None
    not_yet_due: bool = False
    recheck_by: date | None = None
    # A model call that failed for this claim ("judge A refused", "criteria writer provider
    # error"): the claim is then unresolvable with this reason, counted in the report.
    model_failure: str = ""
