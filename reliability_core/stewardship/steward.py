"""Steward spot checks ([V] §04 "Steward spot checks"; [#10] "Steward").

"Every dispute, plus a random 10% of everything verified in the last seven
days, is audited by a human steward." The queue is built by rule from stored
claim verdicts and stored per subject; rulings are validated, then appended to
the ledger (never rewritten) with who, when and why. Their effect on the next
score computation is ``reliability_core.scores.rulings.apply_rulings``.
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Literal

from pydantic import Field

from reliability_core.clock import Clock
from reliability_core.constants import (
    STEWARD_SAMPLE_RATE,
    STEWARD_WINDOW_DAYS,
    VERDICT_VALUES,
)
from reliability_core.ids import stable_id
from reliability_core.models import (
    SCORED_VERDICTS,
    Claim,
    ClaimVerdict,
    EvidenceItem,
    Record,
    StampedRecord,
    StewardRuling,
)
from reliability_core.models.reports import StewardAction
from reliability_core.text.quotes import verify_evidence_quote, verify_quote
from reliability_core.warehouse import Ledger, Warehouse, tables
from reliability_core.web.fetch import SafeFetcher

QUEUE_TABLE = tables.STEWARD_QUEUE
RULINGS_TABLE = tables.RULINGS_LEDGER
DRAWS_LEDGER = "steward_draws"  # ledger table: every sample draw, with its seed
DRAWS_PARTITION = "queue"
RECHECKS_LEDGER = "quote_rechecks"  # ledger table: outcomes of "re-run the quote check"
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


def draw_sample_seed() -> int:
    """[V] §04 "a random 10%": a sample anyone could compute in advance (a fixed public
    seed) can be gamed, so every build draws a fresh seed from the operating system's
    cryptographic random source. The seed is recorded with the draw (``StewardDraw``), so
    the sample can be re-derived and audited afterwards, never predicted before."""
    return secrets.randbits(63)


def seeded_sample(claim_ids: Iterable[str], k: int, seed: int) -> list[str]:
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

    id: str = Field(description="The queue item's id (one per claim and build)")
    subject_id: str = Field(description="The subject the claim belongs to")
    claim_id: str = Field(description="The claim waiting for a steward")
    reasons: list[QueueReason] = Field(description="Why the claim is queued: disputed, held or sampled (JSON)")
    verdict: str = Field(description="The verdict the code decided")
    judge_a: str | None = Field(description="Judge A's verdict")
    judge_b: str | None = Field(description="Judge B's verdict")
    shown: bool = Field(description="Whether the verdict is shown in the report")
    gate_failed: list[str] = Field(default_factory=list, description="The gates the verdict failed (JSON)")
    decided_at: datetime = Field(description="When the verdict was decided")
    queued_at: datetime = Field(description="When the queue was built")
    sample_seed: int = Field(description="The seed of the steward sample draw")
    # What the steward reads before ruling (issue 27): the claim as restated, the verified
    # quote it rests on and where it was said, the pages of the evidence the verdict cites,
    # and the facts behind "why queued" the verdict alone holds. Empty on queues stored
    # before these were kept.
    claim: str = Field(default="", description="The claim as restated")
    quote: str = Field(default="", description="The verified quote the claim rests on")
    claim_url: str = Field(default="", description="The page where the subject said it")
    evidence_urls: list[str] = Field(default_factory=list, description="The pages of the evidence the verdict cites")
    judges_disagree: bool = Field(default=False, description="The two judges' verdicts differ")
    numeric_disputed: bool = Field(default=False, description="The numeric check disputed the verdict")
    steering_detected: bool = Field(default=False, description="Steering was detected in the claim's evidence")


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
    drawn_at: datetime
    method_version: str = ""
    eligible_claim_ids: list[str] = Field(default_factory=list)
    sampled_claim_ids: list[str] = Field(default_factory=list)


class StewardDraw(StampedRecord):
    """The record of one sample draw: when, with which seed, out of which verdicts, and
    what it chose; ``seeded_sample(eligible, sampled count, seed)`` reproduces it."""

    id: str
    drawn_at: datetime
    seed: int
    rate: float
    window_days: int
    eligible_claim_ids: list[str]
    sampled_claim_ids: list[str]


def build_steward_queue(
    verdicts: Sequence[ClaimVerdict],
    *,
    clock: Clock,
    method_version: str,
    claims: Sequence[Claim] = (),
    evidence: Sequence[EvidenceItem] = (),
    seed: int | None = None,
    rate: float = STEWARD_SAMPLE_RATE,
    window_days: int = STEWARD_WINDOW_DAYS,
) -> StewardQueue:
    """[V] §04 "Every dispute, plus a random 10% of everything verified in the last
    seven days": all disputed or held claims, plus a random ``rate`` of the other
    verdicts (not "unresolvable") decided in the window, drawn with a fresh unpredictable
    seed (``draw_sample_seed``) unless one is given (tests, re-deriving a recorded draw).
    Each item carries what the steward reads (the claim, its quote, the evidence pages the
    verdict cites) from ``claims`` and ``evidence``, the stored records of the same run."""
    now = clock.now()
    claim_by_id = {(c.subject_id, c.id): c for c in claims}
    evidence_url = {(e.subject_id, e.id): e.url for e in evidence}
    seed = draw_sample_seed() if seed is None else seed
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
            **_what_the_steward_reads(v, claim_by_id.get((v.subject_id, v.claim_id)), evidence_url),
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
        drawn_at=now,
        method_version=method_version,
        eligible_claim_ids=sorted(set(eligible)),
        sampled_claim_ids=sampled,
    )


def _what_the_steward_reads(
    verdict: ClaimVerdict, claim: Claim | None, evidence_url: dict[tuple[str, str], str]
) -> dict[str, object]:
    urls = [evidence_url[(verdict.subject_id, e)] for e in verdict.evidence_ids if (verdict.subject_id, e) in evidence_url]
    return {
        "claim": claim.restatement if claim else "",
        "quote": claim.quote if claim else "",
        "claim_url": claim.url if claim else "",
        "evidence_urls": list(dict.fromkeys(urls)),
        "judges_disagree": verdict.judges_disagree,
        "numeric_disputed": verdict.numeric_disputed,
        "steering_detected": verdict.steering_detected,
    }


def store_steward_queue(warehouse: Warehouse, queue: StewardQueue, *, subjects: Iterable[str] = ()) -> list[str]:
    """Write the queue, one partition per subject (each build replaces the subject's
    queue; rulings live in the ledger, so nothing ruled on is lost), and record the draw
    in the append-only ``steward_draws`` ledger. ``subjects``: the subjects whose verdicts
    the build read; each gets its partition written even when nothing of it is queued
    now, so an emptied queue does not keep the previous build's items."""
    draw = StewardDraw(
        method_version=queue.method_version,
        id=stable_id("draw", queue.drawn_at.isoformat(), str(queue.seed)),
        drawn_at=queue.drawn_at,
        seed=queue.seed,
        rate=queue.sample_rate,
        window_days=queue.window_days,
        eligible_claim_ids=queue.eligible_claim_ids,
        sampled_claim_ids=queue.sampled_claim_ids,
    )
    Ledger(warehouse).append(DRAWS_LEDGER, DRAWS_PARTITION, [(draw.id, draw)])
    by_subject: dict[str, list[StewardQueueItem]] = {subject: [] for subject in subjects}
    for item in queue.items:
        by_subject.setdefault(item.subject_id, []).append(item)
    return [
        warehouse.write(QUEUE_TABLE, subject, items, model=StewardQueueItem)
        for subject, items in sorted(by_subject.items())
    ]


def rebuild_steward_queue(
    warehouse: Warehouse,
    *,
    clock: Clock,
    method_version: str,
    subjects: Sequence[str] | None = None,
    verdicts_table: str = tables.VERDICTS,
    seed: int | None = None,
) -> StewardQueue:
    """Build the queue of ``subjects`` (by default every subject with stored verdicts)
    from their stored verdicts, claims and evidence, and store it: what the pipeline does
    after a subject's verdicts, the weekly schedule over every subject, and ``reliability
    steward build``."""
    chosen = list(subjects) if subjects is not None else warehouse.subjects(verdicts_table)
    queue = build_steward_queue(
        [v for s in chosen for v in warehouse.read(verdicts_table, s, ClaimVerdict)],
        clock=clock,
        method_version=method_version,
        claims=[c for s in chosen for c in warehouse.read(tables.CLAIMS, s, Claim)],
        evidence=[e for s in chosen for e in warehouse.read(tables.EVIDENCE, s, EvidenceItem)],
        seed=seed,
    )
    store_steward_queue(warehouse, queue, subjects=chosen)
    return queue


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


# What each action does, in the words `reliability steward rule --help` shows.
STEWARD_ACTION_HELP: dict[StewardAction, str] = {
    "uphold": "the verdict stands (the display gate still decides whether it is shown)",
    "demote": "lower the verdict to --new-verdict (required; 'unresolvable' counts the claim without scoring it)",
    "retract": "withdraw the verdict: unresolvable and held, counted but never scored",
    "resolve_for_a": "a disputed claim: judge A was right, its verdict and basis stand",
    "resolve_for_b": "a disputed claim: judge B was right, its verdict and basis become the verdict",
    "recheck_quote": "fetch the claim's and the evidence's pages again and re-check every quote; a failure holds the verdict",
}


def ruling_problems(
    request: RulingRequest, verdict: ClaimVerdict | None, earlier: Sequence[StewardRuling] = ()
) -> list[str]:
    """Why a ruling is malformed, if it is ([V] §04 "What a steward can do": uphold,
    demote or retract a claim; resolve a dispute and credit the side that was right;
    re-run the mechanical quote check). Every ruling names who and why. A demotion names
    the verdict it demotes to (a demotion without one is a mistake, not a request for
    "unresolvable"). One ruling per verdict: a claim already ruled on since its verdict
    was decided is refused (``already_ruled``), so a second, conflicting ruling never
    silently stacks on the first."""
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
    problems += already_ruled(request, verdict, earlier)
    action = request.action
    if action == "demote":
        new = request.new_verdict
        if new is None:
            current = VERDICT_VALUES.get(verdict.verdict)
            lower = [v for v, value in VERDICT_VALUES.items() if current is not None and value < current]
            problems.append(
                "'demote' needs the verdict to demote to (--new-verdict / new_verdict): one of "
                f"{[*lower, 'unresolvable']}"
            )
        elif new != "unresolvable":
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


def already_ruled(
    request: RulingRequest, verdict: ClaimVerdict, earlier: Sequence[StewardRuling]
) -> list[str]:
    """[V] §04 rulings are "applied to the next score computation", each on the verdict a
    run decided: a verdict gets one ruling. A ruling on the same claim made since the
    verdict was decided refuses another (a new run's verdict can be ruled on again)."""
    same = [
        r
        for r in earlier
        if r.subject_id == request.subject_id and r.claim_id == request.claim_id and r.ruled_at >= verdict.decided_at
    ]
    return [
        f"claim {request.claim_id!r} was already ruled on ({r.action} by {r.steward} at {r.ruled_at.isoformat()}); "
        "one ruling per verdict: a second is refused"
        for r in same[:1]
    ]


def ruling_method_version(verdict: ClaimVerdict | None, running: str) -> str:
    """The method version a ruling records: that of the verdict it rules on, so the same
    ruling is recorded alike from the CLI, the API or a test, whatever provider settings
    the process that takes it runs with (a ruling amends that run's verdict; it judges
    nothing itself). ``running``, the caller's own version, only when there is no verdict."""
    return verdict.method_version if verdict is not None and verdict.method_version else running


def record_ruling(
    ledger: Ledger,
    request: RulingRequest,
    verdict: ClaimVerdict | None,
    *,
    clock: Clock,
    method_version: str,
    quote_recheck: QuoteRecheckOutcome | None = None,
) -> RulingOutcome:
    """Validate a ruling and append it to the ledger with who, when and why. A
    ``recheck_quote`` ruling carries the outcome of the fresh check (``recheck_quotes``):
    the outcome goes to the ``quote_rechecks`` ledger and the ruling names its failures,
    which hold the verdict (``rulings.apply_ruling``)."""
    earlier = ledger.read_all(RULINGS_TABLE, request.subject_id, StewardRuling) if verdict is not None else []
    problems = ruling_problems(request, verdict, earlier)
    if request.action == "recheck_quote" and quote_recheck is None:
        problems.append("the quote check was not re-run (no fetcher to read the pages again)")
    if problems:
        return RulingOutcome(accepted=False, problems=problems)
    ruled_at = clock.now()
    failed: list[str] = []
    if request.action == "recheck_quote" and quote_recheck is not None:
        ledger.append(RECHECKS_LEDGER, request.subject_id, [(quote_recheck.id, quote_recheck)])
        failed = quote_recheck.failures
    ruling = StewardRuling(
        method_version=ruling_method_version(verdict, method_version),
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
        quote_recheck_id=quote_recheck.id if quote_recheck is not None else None,
        quote_recheck_failed=failed,
    )
    ledger.append(RULINGS_TABLE, request.subject_id, [(ruling.id, ruling)])
    return RulingOutcome(accepted=True, ruling=ruling)




# --- Re-running the mechanical quote check ---------------------------------------------------


class QuoteRecheck(Record):
    """One quote checked again on a fresh fetch of its page."""

    quote_of: Literal["claim", "evidence"]
    item_id: str  # the claim id or the evidence id
    url: str
    was_verified: bool
    now_verified: bool
    fetch_outcome: str
    fetched_at: datetime
    sha256: str | None
    reason: str

    @property
    def changed(self) -> bool:
        return self.was_verified != self.now_verified


class QuoteRecheckOutcome(StampedRecord):
    """What "re-run the quote check" found for one claim; stored in the ``quote_rechecks``
    ledger under the id of the ruling that asked for it."""

    id: str
    subject_id: str
    claim_id: str
    checked_at: datetime
    checks: list[QuoteRecheck]

    @property
    def failures(self) -> list[str]:
        """Plain-word reasons of every quote that did not verify on the fresh fetch."""
        return [f"{c.quote_of} quote at {c.url}: {c.reason}" for c in self.checks if not c.now_verified]


async def recheck_quotes(
    claim: Claim,
    evidence: Sequence[EvidenceItem],
    fetcher: SafeFetcher,
    *,
    subject_id: str,
    clock: Clock,
    method_version: str,
    outcome_id: str,
) -> QuoteRecheckOutcome:
    """[V] §04 "re-run the mechanical quote check": the claim's page and every page of the
    evidence its verdict rests on (verified, admitted items) are fetched again through the
    safe fetcher (robots.txt, address checks) and each quote is checked word for word on
    the fresh text: the claim's quote by ``verify_quote``, evidence quotes by
    ``verify_evidence_quote`` (20-600 characters). A page that cannot be fetched now leaves
    its quote unverified, with the fetch's reason."""
    targets: list[tuple[Literal["claim", "evidence"], str, str, str, bool]] = [
        ("claim", claim.id, claim.url, claim.quote, claim.quote_verified)
    ]
    targets += [
        ("evidence", e.id, e.url, e.quote, e.quote_verified)
        for e in evidence
        if e.claim_id == claim.id and e.quote_verified and not e.excluded
    ]
    snapshots = {url: await fetcher.snapshot(url, method_version) for url in dict.fromkeys(t[2] for t in targets)}
    checks = []
    for quote_of, item_id, url, quote, was_verified in targets:
        snapshot = snapshots[url]
        if snapshot.outcome != "ok":
            verified, reason = False, f"page not read again ({snapshot.outcome}: {snapshot.reason or 'no text'})"
        else:
            check = verify_quote(quote, snapshot.text) if quote_of == "claim" else verify_evidence_quote(quote, snapshot.text)
            verified, reason = check.verified, check.reason
        checks.append(
            QuoteRecheck(
                quote_of=quote_of,
                item_id=item_id,
                url=url,
                was_verified=was_verified,
                now_verified=verified,
                fetch_outcome=snapshot.outcome,
                fetched_at=snapshot.fetched_at,
                sha256=snapshot.sha256,
                reason=reason,
            )
        )
    return QuoteRecheckOutcome(
        method_version=method_version,
        id=outcome_id,
        subject_id=subject_id,
        claim_id=claim.id,
        checked_at=clock.now(),
        checks=checks,
    )


def read_quote_rechecks(ledger: Ledger, subject_id: str) -> list[QuoteRecheckOutcome]:
    """Every stored quote re-check of a subject's claims."""
    return ledger.read_all(RECHECKS_LEDGER, subject_id, QuoteRecheckOutcome)
