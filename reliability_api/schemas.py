"""API bodies (pydantic): the OpenAPI schema is generated from these."""

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from reliability_core.models import Report, StewardRuling, SubjectResponse


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

    body: str = Field(min_length=1, max_length=4000, description="The subject's reply or correction")


class RulingIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: str = Field(description="uphold | demote | retract | resolve_for_a | resolve_for_b | recheck_quote")
    steward: str = Field(min_length=1, max_length=200)
    reason: str = Field(min_length=1, max_length=4000)
    new_verdict: str | None = None
