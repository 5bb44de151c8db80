"""API bodies (pydantic): the OpenAPI schema is generated from these."""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from reliability_core.models import Report, StewardRuling, SubjectResponse, Verdict
from reliability_core.models.reports import StewardAction
from reliability_core.stewardship.steward import StewardQueueItem

# Ids as the pipeline makes them: subject ids are slugs (``ids.slugify_subject_id``),
# claim ids ``kind_<hex>`` (``ids.stable_id``). Anything else is rejected with 422
# before any lookup, so odd bytes never reach a file path.
SUBJECT_ID_PATTERN = r"^[a-z0-9][a-z0-9-]{0,63}$"
CLAIM_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$"
# "Not blank", spelled out: ``\S`` means different sets in pydantic's (Rust), Python's and
# ECMAScript's regex engines (U+0085, for one), and schemathesis found the gap. Every
# character any of them counts as white space is listed, so all three agree.
NOT_BLANK_PATTERN = r"[^ \t\n\r\f\v\u0085\u00a0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"


# What a claim of a report can be filtered by: a judged verdict, or "held" (a display gate
# held it: reliability_core.scores.claim_entries.HELD_VERDICT). Anything else is refused
# with these listed.
ClaimVerdictFilter = Literal[Verdict, "held"]


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    error: ErrorDetail


class ChangelogEntry(BaseModel):
    version: str
    body: str


class Methodology(BaseModel):
    method_version: str
    models: dict[str, str]
    offline_rules: bool
    constants: dict[str, Any]
    error_rates: dict[str, Any] | str
    judge_agreement: dict[str, Any] | str
    changelog: list[ChangelogEntry]
    notice: str
    # The steering screen's measured figures on its development split ([#16]).
    steering_screen: dict[str, Any] = Field(default_factory=dict)


class SubjectSummary(BaseModel):
    id: str
    name: str
    covered: bool | None
    coverage_reasons: list[str] = Field(default_factory=list)
    report_generated_at: datetime | None = None
    stale: bool | None = None
    overall_score: float | None = None
    overall_interval: list[float] | None = None
    overall_confidence: str | None = None
    # [#27] the label of output no live model made ("offline-rules (...)", "rehearsal (...)");
    # empty when live models made it.
    model_notice: str = ""
    # [#27] no coverage decision was made: the offline stand-in does not know this subject.
    needs_live_providers: bool = False


class SubjectPage(BaseModel):
    items: list[SubjectSummary]
    total: int
    offset: int
    limit: int


class ReportEnvelope(BaseModel):
    stale: bool
    refresh_requested_at: datetime | None
    served_until: datetime
    report: Report


class ClaimDetail(BaseModel):
    subject_id: str
    claim: dict[str, Any]
    responses: list[SubjectResponse]
    steward_rulings: list[StewardRuling]
    report_id: str
    stale: bool


class ResponseIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    body: str = Field(
        min_length=1, max_length=4000, pattern=NOT_BLANK_PATTERN, description="The subject's reply or correction"
    )


class RulingIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: StewardAction = Field(description="what the steward does with the claim ([V] §04)")
    steward: str = Field(min_length=1, max_length=200, pattern=NOT_BLANK_PATTERN, description="who rules")
    reason: str = Field(min_length=1, max_length=4000, pattern=NOT_BLANK_PATTERN, description="why")
    new_verdict: Verdict | None = Field(default=None, description="only with action 'demote'")


class StewardQueueView(BaseModel):
    """The stored steward queue, by default only items without a ruling made since they were queued."""

    items: list[StewardQueueItem]
    total: int
    open_only: bool


class ClaimPage(BaseModel):
    """One page of the newest report's claims (a whole report can be hundreds of KB)."""

    subject_id: str
    report_id: str
    items: list[dict[str, Any]]
    total: int
    offset: int
    limit: int


class ScorePoint(BaseModel):
    score: str  # a claim type or "overall"
    value: float | None
    interval_low: float | None
    interval_high: float | None
    n: int


class HistoryEntry(BaseModel):
    """One published report of the subject, its scores only."""

    sequence: int
    report_id: str
    generated_at: datetime
    content_hash: str
    method_version: str
    scores: list[ScorePoint]


class ScoreHistory(BaseModel):
    subject_id: str
    items: list[HistoryEntry]
