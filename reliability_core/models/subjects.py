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

    subject_id: str
    name: str
    identity_confirmed: bool
    is_public_figure_or_organisation: bool
    is_serving_politician: bool
    has_consent: bool
    covered: bool
    reasons: list[str]
    evidence: list[IdentityEvidence]
    decided_by: str  # model id or "offline-rules"
    decided_at: datetime
    # [#27] no decision: the offline stand-in knows only the demo corpus and this subject is
    # outside it (``subjects.coverage.stand_in_cannot_decide``); not a verdict on the subject.
    needs_live_providers: bool = False
