"""A model failure stays with the item it hit.

Issue 14 §2: "A refusal, an output still invalid after one repair, a
truncation after the retry, or a permanent provider error for one document or
claim is recorded on that record with its reason ..., counted in the report,
and shown." The provider layer raises an ``ItemFailure`` for each of these
(``providers.errors``); the step that made the call turns it into a
``ModelFailure`` on the document, page or claim and goes on with the rest. A
search query that still fails after its retries is recorded the same way, on the
query (issue 26 §3, ``subjects.candidates.search_each``). A provider that cannot
be reached at all (``ProviderUnreachableError``) is not caught here: it fails the
subject's asset with one clear line.
"""

from __future__ import annotations

from typing import Literal

from reliability_core.models.base import Record
from reliability_core.providers.errors import ItemFailure, ModelRefusalError

# "query": one search query (an identity or candidate query) that failed after its retries.
ItemKind = Literal["subject", "document", "page", "claim", "query"]

# How a step is named in a reason a reader sees ("judge A refused").
STEP_LABELS: dict[str, str] = {
    "search": "search",
    "confirm_identity": "identity step",
    "decide_coverage": "coverage decision step",
    "extract_statements": "statement extraction",
    "classify_statements": "statement classification",
    "write_criteria": "criteria writer",
    "plan_research": "research planner",
    "read_evidence": "evidence reader",
    "judge_a": "judge A",
    "judge_b": "judge B",
    "review_verdict": "reviewer",
    "detect_steering": "steering check",
}

# Longest vendor detail kept on a record (the full error is in the run's log).
_DETAIL_CHARS = 500


class ModelFailure(Record):
    """One model call that failed for one item, with the reason recorded on that item."""

    subject_id: str
    item_kind: ItemKind
    item_id: str
    step: str
    reason: str  # "refused", "invalid output", "truncated" or "provider error"
    detail: str = ""
    category: str | None = None  # the vendor's refusal category, when it gave one
    request_id: str | None = None

    def label(self) -> str:
        """What a reader sees: "judge A refused", "criteria writer provider error"."""
        return f"{STEP_LABELS.get(self.step, self.step)} {self.reason}"


def record_failure(exc: ItemFailure, *, subject_id: str, item_kind: ItemKind, item_id: str) -> ModelFailure:
    """The failure ``exc`` as a record on the item it hit."""
    category = exc.category if isinstance(exc, ModelRefusalError) else None
    return ModelFailure(
        subject_id=subject_id,
        item_kind=item_kind,
        item_id=item_id,
        step=exc.step,
        reason=exc.reason,
        detail=str(exc)[:_DETAIL_CHARS],
        category=category,
        request_id=exc.request_id,
    )
