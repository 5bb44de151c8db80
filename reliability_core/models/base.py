"""Shared base for every stored record: immutable, strict, stamped with the
method version that made it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ClaimType = Literal["factual", "promise", "prediction"]
CLAIM_TYPES: tuple[ClaimType, ...] = ("factual", "promise", "prediction")

Verdict = Literal["true", "mostly_true", "mixed", "mostly_false", "false", "unresolvable"]
SCORED_VERDICTS: tuple[Verdict, ...] = ("true", "mostly_true", "mixed", "mostly_false", "false")

TriageState = Literal["resolvable_now", "not_yet_due", "never_resolvable", "own_records_only"]

# What a verdict rests on ([M] step 8: "Every verdict records what it rests on").
Basis = Literal["independent_source", "official_records_only", "ordinary_statements_only", "nothing"]

# The classes a source policy names; a page no rule places is "unknown".
KnownSourceClass = Literal[
    "official_record",
    "wire_service",
    "established_newsroom",
    "subject_ordinary_statement",
    "social_media",
    "forum",
    "user_edited_wiki",
    "prediction_market",
    "content_farm",
    "self_interested_press_release",
]
SourceClass = Literal[KnownSourceClass, "unknown"]


class Record(BaseModel):
    """Immutable pydantic record; unknown fields are an error, not silently kept."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class StampedRecord(Record):
    """A record the pipeline made: carries the method version that made it."""

    method_version: str = Field(
        description="The method version that made this record (ends in offline-rules when the offline stand-in did)"
    )
