"""Scores and the stored report ([M] step 9 and "How the score is calculated")."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from reliability_core.models.base import ClaimType, Record, StampedRecord

ConfidenceLevel = Literal["high", "medium", "low", "insufficient"]


class Prior(Record):
    alpha: float
    beta: float
    mean: float
    source: str  # "default 50" or "mean of N scored <kind> subjects"


class TypeScore(Record):
    """Score of one claim type: None with fewer than 5 checked claims."""

    claim_type: ClaimType
    n: int
    sum_values: float
    score: float | None
    interval_low: float | None
    interval_high: float | None
    insufficient_record: bool
    documents: int
    confidence: ConfidenceLevel
    confidence_reasons: list[str] = Field(default_factory=list)
    prior: Prior


class OverallScore(Record):
    n: int
    score: float | None
    interval_low: float | None
    interval_high: float | None
    insufficient_record: bool
    confidence: ConfidenceLevel
    confidence_reasons: list[str] = Field(default_factory=list)
    # [#8] how the interval was sampled, so a reader can reproduce it
    types_included: list[ClaimType] = Field(default_factory=list)
    documents: int = 0
    draws: int = 0
    seed: int | None = None


class BrierScore(Record):
    value: float | None
    n: int
    baseline: float


class ClaimCounts(Record):
    """Counts by state ([#8]); everything not researched is still counted."""

    extracted: int = 0
    verified_quotes: int = 0
    unverified_quotes: int = 0
    dropped_private: int = 0
    dropped_other_speaker: int = 0
    dropped_paraphrase: int = 0
    party_political: int = 0
    # Issue 24, [R] v1.2: about someone dying or being hurt, handed back without searching (also
    # counted in never_resolvable, the triage state they get).
    harm_to_person: int = 0
    never_resolvable: int = 0
    not_yet_due: int = 0
    own_records_only: int = 0
    resolvable: int = 0
    sampled: int = 0
    resolved: int = 0
    unresolvable: int = 0
    self_reported_only: int = 0
    judges_disagree: int = 0
    held_by_gate: int = 0
    # Issue 14 §2: model failures stay with the item they hit, and are counted.
    model_failures: int = 0  # claims unresolvable because a model call failed for them
    documents_failed: int = 0  # checked documents whose extraction a model failure stopped
    documents_cut: int = 0  # checked documents whose text was longer than the extraction read


class SubjectResponse(StampedRecord):
    """A subject's reply or correction; append-only, shown as received, not reviewed."""

    id: str
    subject_id: str
    claim_id: str
    body: str
    received_at: datetime
    status: Literal["response received, not yet reviewed"] = "response received, not yet reviewed"


StewardAction = Literal["uphold", "demote", "retract", "resolve_for_a", "resolve_for_b", "recheck_quote"]


class StewardRuling(StampedRecord):
    """A human steward's ruling ([V] §04), applied to the next score computation."""

    id: str
    subject_id: str
    claim_id: str
    action: StewardAction
    steward: str
    ruled_at: datetime
    reason: str
    new_verdict: str | None = None
    # [#18] "re-run the quote check": the stored outcome's id and every quote that failed
    # on the fresh fetch (a failure holds the verdict; see rulings.apply_ruling)
    quote_recheck_id: str | None = None
    quote_recheck_failed: list[str] = Field(default_factory=list)


class Report(StampedRecord):
    """The stored report for one subject and run. The claim list and the full
    structures are held as plain JSON-able dicts so the API can serve them as is."""

    id: str = Field(description="The report's id")
    subject_id: str = Field(description="The subject's slug id (its partition)")
    subject_name: str = Field(description="The subject's name")
    covered: bool = Field(description="Whether the subject may be covered")
    coverage_reasons: list[str] = Field(description="Why, in words")
    type_scores: list[TypeScore] = Field(
        default_factory=list, description="Per-type scores with 80% intervals and counts (JSON)"
    )
    overall: OverallScore | None = Field(
        default=None, description="The overall score with its 80% interval and count (JSON)"
    )
    brier: BrierScore | None = Field(
        default=None, description="The Brier score of stated probabilities (JSON)"
    )
    checkable_share: float | None = Field(
        default=None, description="Share of the subject's claims that can be checked"
    )
    counts: ClaimCounts = Field(
        default_factory=ClaimCounts,
        description="Claims extracted, sampled, resolved, unresolvable, not yet due, held (JSON)",
    )
    documents_sampled: int = Field(default=0, description="Documents in the sample")
    candidates_found: int = Field(default=0, description="Candidate documents search found")
    claims: list[dict[str, object]] = Field(
        default_factory=list,
        description="Every claim with its quote, criteria, evidence, verdicts and gate (JSON)",
    )
    models_used: dict[str, str] = Field(default_factory=dict, description="The model behind each step (JSON)")
    offline_rules: bool = Field(
        default=False, description="Made by the deterministic offline stand-in, not a live model"
    )
    # [#27] no coverage decision was made: the stand-in does not know this subject (see
    # ``CoverageDecision.needs_live_providers``); ``covered`` is False without refusing it.
    needs_live_providers: bool = Field(
        default=False, description="No coverage decision: the offline stand-in does not know the subject"
    )
    # made against the rehearsal servers' scripted model (live provider classes, no live model)
    rehearsal: bool = Field(default=False, description="Made against the rehearsal servers' scripted model")
    generated_at: datetime = Field(description="When the report was made (UTC)")
    served_until: datetime = Field(
        description="Served until this time, then marked stale while a refresh runs ([M] step 9)"
    )
    # [#18] the publication order within the subject's partition (1, 2, ...): an
    # offline run pins the clock, so ``generated_at`` ties between re-runs; this cannot.
    # 0 on a report not yet published. See ``reliability_core.scores.publication.latest_report``.
    sequence: int = Field(
        default=0, description="Publication order within the subject's reports (0: not yet published)"
    )
    content_hash: str = Field(default="", description="SHA-256 of the report's content")
    # [#8] the notice every rendering carries when the offline model made the report
    offline_notice: str = Field(
        default="", description="The notice every rendering carries when the offline model made the report"
    )
    # [#8] claims per reason they were counted but not scored (plain-word reason -> count)
    not_scored: dict[str, int] = Field(
        default_factory=dict, description="Claims counted but not scored, per reason (JSON)"
    )
    # [#19] the cutoff of the peer snapshot the priors came from (peers.peer_cutoff); None: no peers looked up
    peer_prior_as_of: datetime | None = Field(
        default=None, description="The date of the frozen peer snapshot the prior came from"
    )
    # [#27] a report re-scored after a steward's ruling keeps its run's generated_at (no new
    # research): when it was re-scored, and the ruling that made it, say what changed since.
    rescored_at: datetime | None = Field(
        default=None, description="When a steward's ruling re-scored the report (none: never re-scored)"
    )
    rescored_after_ruling: str | None = Field(
        default=None, description="The ruling that made the latest re-score"
    )


class RefreshRequest(Record):
    """Written when a stale report's refresh is requested, so the report is
    served "stale, refresh requested on <date>", never silently."""

    subject_id: str
    run_key: str
    requested_at: datetime
    reason: str = "stale"
