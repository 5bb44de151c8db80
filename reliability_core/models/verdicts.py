"""Evidence items, judge verdicts and the claim's final verdict."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field

from reliability_core.models.base import Basis, Record, SourceClass, StampedRecord, Verdict


class EvidenceItem(StampedRecord):
    """A dated piece of evidence read from a page the server opened itself ([M] step 7)."""

    id: str = Field(description="The evidence item's id")
    claim_id: str = Field(description="The claim it bears on")
    subject_id: str = Field(description="The subject's slug id (its partition)")
    url: str = Field(description="The page's address as search returned it")
    final_url: str | None = Field(description="The address after redirects")
    snapshot_id: str = Field(description="The page snapshot in the ledger")
    snapshot_sha256: str | None = Field(description="SHA-256 of the fetched page")
    http_status: int | None = Field(description="The HTTP status of the fetch")
    fetched_at: datetime = Field(description="When the server fetched the page (UTC)")
    quote: str = Field(description="The passage of the page the evidence rests on, verbatim")
    quote_verified: bool = Field(description="Whether the passage was found in the stored page text")
    source_class: SourceClass = Field(description="The source policy's class of the page")
    publisher: str = Field(description="Who published the page")
    independent: bool = Field(description="Whether the publisher is independent of the subject")
    published_date: date | None = Field(default=None, description="The account's date, in the claim's time zone when it gave a time")
    published_at: datetime | None = Field(default=None, description="The account's date and time, when it gave one")
    side: Literal["for", "against"] = Field(description="Whether the evidence was searched for (for) or against the claim")
    stance: Literal["supports", "contradicts", "neutral"] = Field(default="neutral", description="What the passage does to the claim: supports, contradicts or neutral")
    observed_value: float | None = Field(default=None, description="The value the passage reports, for a numeric claim")
    excluded: bool = Field(default=False, description="Whether the item is kept out of judging")
    exclusion_reason: str = Field(default="", description="Why it is kept out, in words")
    # [#7] additive: what the source policy said, and what kind of statement the quote is.
    primary_or_major: bool = Field(default=False, description="Whether the source is primary or a major outlet ([R] at least one is needed)")
    subject_own: bool = Field(default=False, description="Whether the subject itself published it (its records or its statements)")
    source_reason: str = Field(default="", description="Which source policy entry or page signal placed the page")
    evidence_kind: Literal[
        "outcome", "forecast", "poll", "analyst_expectation", "repeat_of_claim", "background"
    ] = Field(
        default="outcome",
        description="What the passage is: outcome, forecast, poll, analyst expectation, repeat of the claim or background",
    )
    same_story_as: str | None = Field(default=None, description="The snapshot id of the page this one copies (counted once)")
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


class SteeringFindingRef(Record):
    """Where one steering finding was, as a value the code can count: the display-loss figure
    (issue 28) reads these, never the wording of the notes."""

    kind: str = Field(description="What was found: an instruction to the model, a role marker, a planted verdict, hidden text")
    source: str = Field(description="Which text: 'claim', an evidence id, or a page address")
    layer: str = Field(description="Which layer found it: the screen's rules or classifier, hidden HTML, the model check, a judge's report")


class GateOutcome(Record):
    """Code, not a model, decides whether a verdict is shown ([R] display gates)."""

    shown: bool
    failed: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


class ClaimVerdict(StampedRecord):
    """The claim's verdict: judge A's, with disagreement flagged, never averaged."""

    claim_id: str = Field(description="The claim")
    subject_id: str = Field(description="The subject's slug id (its partition)")
    verdict: Verdict = Field(description="The claim's verdict: judge A's, never an average")
    judge_a: JudgeVerdict | None = Field(description="Judge A's decision (JSON)")
    judge_b: JudgeVerdict | None = Field(description="Judge B's decision (JSON)")
    judges_disagree: bool = Field(description="Whether the two blind judges disagree (flagged, never averaged)")
    numeric_disputed: bool = Field(default=False, description="Whether the judges read a different number from the evidence")
    basis: Basis = Field(description="What the verdict rests on")
    self_reported_only: bool = Field(default=False, description="Whether only the subject's own records support it")
    steering_detected: bool = Field(default=False, description="Whether text trying to steer the judges was found in the evidence")
    steering_notes: list[str] = Field(default_factory=list, description="What the steering screen found")
    steering_findings: list[SteeringFindingRef] = Field(
        default_factory=list, description="Each steering finding's kind, text and layer (JSON), for counting"
    )
    gate: GateOutcome = Field(description="The display gates' outcome: shown or held, and which gates failed (JSON)")
    evidence_ids: list[str] = Field(default_factory=list, description="The evidence items the verdict rests on")
    reason: str = Field(default="", description="Why, in words")
    decided_at: datetime = Field(description="When the verdict was decided (UTC)")
    # [#15] additive: the reviewer's report on judge A's verdict (None when nothing was reviewed),
    # and "not yet: the official figure has not been published" with the date it is expected by.
    review: VerdictReview | None = Field(default=None, description="The reviewer's report on judge A's verdict (JSON), when one was made")
    not_yet_due: bool = Field(default=False, description="Not yet: the official figure has not been published")
    recheck_by: date | None = Field(default=None, description="When the awaited official figure is expected")
    # A model call that failed for this claim ("judge A refused", "criteria writer provider
    # error"): the claim is then unresolvable with this reason, counted in the report.
    model_failure: str = Field(default="", description="A model call that failed for this claim, which is then unresolvable")
