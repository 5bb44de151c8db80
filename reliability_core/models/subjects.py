"""Subjects, the registry that lists them, and the coverage decision."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from reliability_core.models.base import Record, StampedRecord

SubjectKind = Literal["company", "nonprofit", "public_figure", "politician", "private_person", "organisation"]


class RegistryEntry(Record):
    """One line of the subject registry (``data/subjects.yaml``)."""

    id: str
    name: str
    kind: SubjectKind
    urls: list[str] = Field(default_factory=list)
    consent: bool = False
    description: str = ""
    aliases: list[str] = Field(default_factory=list)
    time_zone: str | None = None  # [#15] rule 11: IANA name the subject's claims are dated in


class IdentityEvidence(Record):
    """A search hit used to confirm who the subject is."""

    url: str
    title: str
    snippet: str
    published_date: str | None = None


class CoverageDecision(StampedRecord):
    """[M] step 1: whether the subject may be covered, decided from the stored
    identity evidence only. Thin evidence means no coverage."""

    subject_id: str = Field(description="The subject's slug id (its partition)")
    name: str = Field(description="The subject's name as the registry gives it")
    identity_confirmed: bool = Field(
        description="Whether the stored identity evidence confirms who the subject is"
    )
    is_public_figure_or_organisation: bool = Field(
        description="Whether the subject is a public figure or organisation"
    )
    is_serving_politician: bool = Field(
        description="Whether the subject is a serving politician (out of scope)"
    )
    has_consent: bool = Field(description="Whether the subject consented to coverage")
    covered: bool = Field(description="The decision: may the subject be covered ([M] step 1)")
    reasons: list[str] = Field(description="Why, in words")
    evidence: list[IdentityEvidence] = Field(description="The identity evidence the decision rests on (JSON)")
    decided_by: str = Field(description="The model id that decided, or offline-rules")
    decided_at: datetime = Field(description="When the decision was made (UTC)")
    # [#27] no decision: the offline stand-in knows only the demo corpus and this subject is
    # outside it (``subjects.coverage.stand_in_cannot_decide``); not a verdict on the subject.
    needs_live_providers: bool = Field(
        default=False, description="No decision: the offline stand-in does not know the subject"
    )
