"""Steward spot checks ([V] §04 "Steward spot checks"; [#10] "Steward").

"Every dispute, plus a random 10% of everything verified in the last seven
days, is audited by a human steward." The queue is built by rule from stored
claim verdicts and stored per subject; rulings are validated, then appended to
the ledger (never rewritten) with who, when and why. Their effect on the next
score computation is ``reliability_core.report.apply_rulings``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Literal

from pydantic import Field

from reliability_core.clock import Clock
from reliability_core.constants import (
    STEWARD_SAMPLE_RATE,
    STEWARD_SAMPLE_SEED,
    STEWARD_WINDOW_DAYS,
    VERDICT_VALUES,
)
from reliability_core.ids import stable_id
from reliability_core.models import (
    SCORED_VERDICTS,
    ClaimVerdict,
    EvidenceItem,
    PageSnapshot,
    Record,
    StampedRecord,
    StewardRuling,
)
from reliability_core.models.reports import StewardAction
from reliability_core.text.quotes import verify_evidence_quote
from reliability_core.warehouse import Ledger, Warehouse

QUEUE_TABLE = "steward_queue"
RULINGS_TABLE = "steward_rulings"
STEWARD_ACTIONS: tuple[StewardAction, ...] = (
    "uphold",
    "demote",
    "retract",
    "resolve_for_a",
    "resolve_for_b",
    "recheck_quote",
)
QueueReason = Literal["disputed", "held", "random_sample"]
_DETECTION_SHOWN_FOR = (1, 5, 10, 20)


# --- Which claims the steward sees ---------------------------------------------------


def is_disputed(verdict: ClaimVerdict) -> bool:
    """[V] §03 "Disagree → disputed ... goes to the steward": the judges disagree, or
    the blind numeric extractions differ."""
    return verdict.judges_disagree or verdict.numeric_disputed


def is_held(verdict: ClaimVerdict) -> bool:
    """A verdict a display gate held back ([R] "the claim comes back"; gates "hold the
    verdict for the steward"), or any claim where steering was detected ([V] §05 "Assume
    gaming"): a steered "unresolvable" is held too. Otherwise an "unresolvable" claim has
    no verdict to hold."""
    if verdict.steering_detected:
        return True
    return verdict.verdict != "unresolvable" and not verdict.gate.shown


def decided_within_window(verdict: ClaimVerdict, now: datetime, days: int = STEWARD_WINDOW_DAYS) -> bool:
    """[V] "everything verified in the last seven days": decided in ``(now − days, now]``."""
    return now - timedelta(days=days) < verdict.decided_at <= now


def sample_size(eligible: int, rate: float = STEWARD_SAMPLE_RATE) -> int:
    """[V] "a random 10%": ``ceil(rate × eligible)``, so one verdict in the window is
    enough to be audited."""
    return math.ceil(rate * eligible - 1e-9) if eligible > 0 else 0


def seeded_sample(claim_ids: Iterable[str], k: int, seed: int = STEWARD_SAMPLE_SEED) -> list[str]:
    """A seeded random choice of ``k`` claim ids: the ids are sorted first, so the same
    set and seed always give the same sample, whatever order they arrived in."""
    ordered = sorted(set(claim_ids))
    return sorted(random.Random(seed).sample(ordered, min(k, len(ordered))))


def detection_probability(k: int, rate: float = STEWARD_SAMPLE_RATE) -> float:
    """[V] §04 "If someone fakes 20 results and we audit each with p = 0.10, at least
    one is caught about 88% of the time": ``1 − (1 − p)^k``."""
    if k < 0:
        raise ValueError("k must be non-negative")
    return 1.0 - (1.0 - rate) ** k


class StewardQueueItem(StampedRecord):
    """One claim waiting for a steward, with why it is there."""

    id: str
    subject_id: str
    claim_id: str
    reasons: list[QueueReason]
    verdict: str
    judge_a: str | None
    judge_b: str | None
    shown: bool
    gate_failed: list[str] = Field(default_factory=list)
    decided_at: datetime
    queued_at: datetime
    sample_seed: int


class StewardQueue(Record):
    """The queue of one build, with the sample's size and what it can detect."""

    items: list[StewardQueueItem]
    disputed: int
    held: int
    eligible_for_sample: int
    sampled: int
    sample_rate: float
    seed: int
    window_days: int
    detection_probability: dict[int, float]  # k faked or wrong verdicts -> chance at least one is sampled


def build_steward_queue(
    verdicts: Sequence[ClaimVerdict],
    *,
    clock: Clock,
    method_version: str,
    seed: int = STEWARD_SAMPLE_SEED,
    rate: float = STEWARD_SAMPLE_RATE,
    window_days: int = STEWARD_WINDOW_DAYS,
) -> StewardQueue:
    """[V] §04 "Every dispute, plus a random 10% of everything verified in the last
    seven days": all disputed or held claims, plus a seeded random ``rate`` of the
    other verdicts (not "unresolvable") decided in the window."""
    now = clock.now()
    reasons: dict[str, list[QueueReason]] = {}
    for verdict in verdicts:
        found: list[QueueReason] = []
        if is_disputed(verdict):
            found.append("disputed")
        if is_held(verdict):
            found.append("held")
        if found:
            reasons[verdict.claim_id] = found
    eligible = [
        v.claim_id
        for v in verdicts
        if v.claim_id not in reasons
        and v.verdict in SCORED_VERDICTS
        and decided_within_window(v, now, window_days)
    ]
    sampled = seeded_sample(eligible, sample_size(len(eligible), rate), seed)
    for claim_id in sampled:
        reasons[claim_id] = ["random_sample"]
    items = [
        StewardQueueItem(
            method_version=method_version,
            id=stable_id("stq", v.claim_id, now.isoformat()),
            subject_id=v.subject_id,
            claim_id=v.claim_id,
            reasons=reasons[v.claim_id],
            verdict=v.verdict,
            judge_a=v.judge_a.verdict if v.judge_a else None,
            judge_b=v.judge_b.verdict if v.judge_b else None,
            shown=v.gate.shown,
            gate_failed=list(v.gate.failed),
            decided_at=v.decided_at,
            queued_at=now,
            sample_seed=seed,
        )
        for v in sorted(verdicts, key=lambda v: (v.subject_id, v.claim_id))
        if v.claim_id in reasons
    ]
    return StewardQueue(
        items=items,
        disputed=sum(1 for i in items if "disputed" in i.reasons),
        held=sum(1 for i in items if "held" in i.reasons),
        eligible_for_sample=len(eligible),
        sampled=len(sampled),
        sample_rate=rate,
        seed=seed,
        window_days=window_days,
        detection_probability={k: detection_probability(k, rate) for k in _DETECTION_SHOWN_FOR},
    )


def store_steward_queue(warehouse: Warehouse, queue: StewardQueue) -> list[str]:
    """Write the queue, one partition per subject (each build replaces the subject's
    queue; rulings live in the ledger, so nothing ruled on is lost)."""
    by_subject: dict[str, list[StewardQueueItem]] = {}
    for item in queue.items:
        by_subject.setdefault(item.subject_id, []).append(item)
    return [warehouse.write(QUEUE_TABLE, subject, items) for subject, items in sorted(by_subject.items())]


def read_steward_queue(warehouse: Warehouse, subject_id: str | None = None) -> list[StewardQueueItem]:
    """The stored queue of one subject, or of every subject."""
    subjects = [subject_id] if subject_id else warehouse.subjects(QUEUE_TABLE)
    return [item for s in subjects for item in warehouse.read(QUEUE_TABLE, s, StewardQueueItem)]


def open_items(items: Sequence[StewardQueueItem], rulings: Sequence[StewardRuling]) -> list[StewardQueueItem]:
    """Queue items without a ruling made since they were queued."""
    latest: dict[tuple[str, str], datetime] = {}
    for r in rulings:
        key = (r.subject_id, r.claim_id)
        latest[key] = max(latest.get(key, r.ruled_at), r.ruled_at)
    return [
        i
        for i in items
        if (i.subject_id, i.claim_id) not in latest or latest[(i.subject_id, i.claim_id)] < i.queued_at
    ]


# --- Rulings ----------------------------------------------------------------------------


class RulingRequest(Record):
    """What a steward asks to record (from the CLI or the API)."""

    subject_id: str
    claim_id: str
    action: str
    steward: str
    reason: str
    new_verdict: str | None = None


class RulingOutcome(Record):
    """A recorded ruling, or why it was refused (refusal is a value, not an exception)."""

    accepted: bool
    ruling: StewardRuling | None = None
    problems: list[str] = Field(default_factory=list)


def ruling_problems(request: RulingRequest, verdict: ClaimVerdict | None) -> list[str]:
    """Why a ruling is malformed, if it is ([V] §04 "What a steward can do": uphold,
    demote or retract a claim; resolve a dispute and credit the side that was right;
    re-run the mechanical quote check). Every ruling names who and why."""
    problems: list[str] = []
    if request.action not in STEWARD_ACTIONS:
        problems.append(f"unknown action {request.action!r}; one of {list(STEWARD_ACTIONS)}")
    if not request.steward.strip():
        problems.append("a ruling must name the steward who made it")
    if not request.reason.strip():
        problems.append("a ruling must say why")
    if verdict is None:
        problems.append(f"no verdict stored for claim {request.claim_id!r} of subject {request.subject_id!r}")
        return problems
    action = request.action
    if action == "demote":
        new = request.new_verdict
        if new is not None and new != "unresolvable":
            if new not in VERDICT_VALUES:
                problems.append(f"unknown verdict {new!r}")
            elif (
                verdict.verdict not in VERDICT_VALUES
                or VERDICT_VALUES[new] >= VERDICT_VALUES[verdict.verdict]
            ):
                problems.append(f"demoting {verdict.verdict!r} to {new!r} is not a demotion")
    elif request.new_verdict is not None:
        problems.append(f"{action!r} takes no new verdict (only 'demote' does)")
    if action in ("resolve_for_a", "resolve_for_b") and not is_disputed(verdict):
        problems.append("only a disputed claim can be resolved for one judge's side")
    if action == "resolve_for_b" and verdict.judge_b is None:
        problems.append("there is no judge B verdict to resolve for")
    return problems


def record_ruling(
    ledger: Ledger,
    request: RulingRequest,
    verdict: ClaimVerdict | None,
    *,
    clock: Clock,
    method_version: str,
) -> RulingOutcome:
    """Validate a ruling and append it to the ledger with who, when and why."""
    problems = ruling_problems(request, verdict)
    if problems:
        return RulingOutcome(accepted=False, problems=problems)
    ruled_at = clock.now()
    ruling = StewardRuling(
        method_version=method_version,
        id=stable_id(
            "rul", request.subject_id, request.claim_id, request.action, request.steward, ruled_at.isoformat()
        ),
        subject_id=request.subject_id,
        claim_id=request.claim_id,
        action=request.action,  # type: ignore[arg-type]  # checked against STEWARD_ACTIONS above
        steward=request.steward.strip(),
        ruled_at=ruled_at,
        reason=request.reason.strip(),
        new_verdict=request.new_verdict,
    )
    ledger.append(RULINGS_TABLE, request.subject_id, [(ruling.id, ruling)])
    return RulingOutcome(accepted=True, ruling=ruling)


def read_rulings(ledger: Ledger, subject_id: str) -> list[StewardRuling]:
    """Every ruling on a subject's claims, oldest first."""
    return sorted(ledger.read_all(RULINGS_TABLE, subject_id, StewardRuling), key=lambda r: (r.ruled_at, r.id))


# --- Re-running the mechanical quote check ---------------------------------------------------


class QuoteRecheck(Record):
    """The quote check of one evidence item, run again on its stored page snapshot."""

    evidence_id: str
    snapshot_id: str
    was_verified: bool
    now_verified: bool
    reason: str

    @property
    def changed(self) -> bool:
        return self.was_verified != self.now_verified


def recheck_evidence_quotes(
    evidence: Sequence[EvidenceItem], snapshots: Mapping[str, PageSnapshot]
) -> list[QuoteRecheck]:
    """[V] §04 "Re-run the mechanical quote check": each evidence quote is checked again,
    word for word after normalisation, against the stored snapshot it was read from
    (never a fresh fetch), with the 20-600 character rule of evidence quotes."""
    out: list[QuoteRecheck] = []
    for item in evidence:
        snapshot = snapshots.get(item.snapshot_id)
        if snapshot is None:
            verified, reason = False, "the page snapshot is not stored: the quote cannot be verified"
        else:
            check = verify_evidence_quote(item.quote, snapshot.text)
            verified, reason = check.verified, check.reason
        out.append(
            QuoteRecheck(
                evidence_id=item.id,
                snapshot_id=item.snapshot_id,
                was_verified=item.quote_verified,
                now_verified=verified,
                reason=reason,
            )
        )
    return out
