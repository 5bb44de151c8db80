"""A steward's ruling reaching the served score at once.

[V] §04: steward rulings are "applied to the next score computation". A retraction or
demotion must not wait for the next 90-day run ([#18]): once a ruling is recorded, the
subject's stored verdicts are scored again with every ruling applied and the result is
published as the subject's newest report. Nothing is researched or judged again, so the
re-score keeps the run's ``generated_at`` and ``served_until`` (the evidence is as old as
it was); its publication ``sequence`` makes it the report every reader serves.

The re-score is ``scores.publication.report_from_stored`` and ``publish_report``, the same
build from stored records the pipeline's ``subject_scores`` asset and its recompute check call."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from pydantic import Field

from reliability_core.clock import Clock
from reliability_core.ids import stable_id
from reliability_core.models import (
    Claim,
    ClaimVerdict,
    EvidenceItem,
    Record,
    Report,
)
from reliability_core.scores.publication import (
    latest_report,
    publish_report,
    report_from_stored,
)
from reliability_core.stewardship.steward import RulingOutcome, RulingRequest, recheck_quotes, record_ruling
from reliability_core.warehouse import Ledger, Warehouse, tables
from reliability_core.web.fetch import SafeFetcher

# Rulings that change a verdict, its display or its score; an uphold changes nothing.
RESCORING_ACTIONS = frozenset({"demote", "retract", "resolve_for_a", "resolve_for_b", "recheck_quote"})








def rescore_subject(
    warehouse: Warehouse,
    subject_id: str,
    *,
    kinds: Mapping[str, str],
    clock: Clock,
    ruled_claim_id: str | None = None,
    ruling_id: str | None = None,
) -> Report | None:
    """The subject's stored verdicts scored again with every ruling now recorded, published
    as its newest report (same run dates, models and method version as the newest report),
    recording when it was re-scored (``rescored_at``) and after which ruling.
    None, and nothing published, if the subject has no published report or the stored
    records no longer hold the ruled claim (a report is never replaced by one built from
    partial records)."""
    current = latest_report(warehouse.read(tables.REPORTS, subject_id, Report))
    if current is None:
        return None
    rescored = report_from_stored(
        warehouse,
        subject_id,
        subject_name=current.subject_name,
        kind=kinds.get(subject_id, ""),
        kinds=kinds,
        models_used=current.models_used,
        offline=current.offline_rules,
        rehearsal=current.rehearsal,
        clock=clock,
        method_version=current.method_version,
        # The same peers as the report it replaces: a re-score applies rulings, nothing else.
        peer_prior_as_of=current.peer_prior_as_of,
    )
    if rescored is None:
        return None
    if ruled_claim_id is not None and not any(c.get("claim_id") == ruled_claim_id for c in rescored.claims):
        return None
    published = publish_report(
        warehouse,
        rescored.model_copy(
            update={
                "generated_at": current.generated_at,
                "served_until": current.served_until,
                "rescored_at": clock.now(),
                "rescored_after_ruling": ruling_id,
            }
        ),
        kind=kinds.get(subject_id, ""),
    )
    # The scored report ``subject_report`` publishes from is the re-scored one too: publishing
    # again from the old one (a re-materialised report) would silently undo the ruling.
    warehouse.write(tables.SCORED_REPORTS, subject_id, [published])
    return published


def rescored_since(latest: Mapping[str, Report], recorded: Mapping[str, int]) -> list[Report]:
    """The newest reports a steward's ruling re-scored that are not yet recorded in the
    orchestrator: re-scored (``rescored_at``) and published after (higher ``sequence``
    than) the report last recorded for the subject. ``latest``: each subject's newest
    report; ``recorded``: the publication sequence last recorded per subject."""
    return [
        report
        for subject, report in sorted(latest.items())
        if report.rescored_at is not None and report.sequence > recorded.get(subject, 0)
    ]


class StewardDecision(Record):
    """A ruling's outcome and, when it changed the score, the report now served."""

    outcome: RulingOutcome
    rescored_report_id: str | None = None
    rescored_content_hash: str | None = None
    notes: list[str] = Field(default_factory=list)


async def rule(
    warehouse: Warehouse,
    request: RulingRequest,
    verdict: ClaimVerdict | None,
    *,
    clock: Clock,
    method_version: str,
    kinds: Mapping[str, str],
    fetcher_factory: Callable[[], SafeFetcher] | None,
) -> StewardDecision:
    """Record a steward's ruling (``steward.record_ruling``) and let it take effect at
    once: "re-run the quote check" fetches and checks the quotes again first
    (``steward.recheck_quotes``), and a ruling that changes a verdict re-scores the
    subject (``rescore_subject``). An uphold only records."""
    ledger = Ledger(warehouse)
    recheck = None
    claim = next((c for c in warehouse.read(tables.CLAIMS, request.subject_id, Claim) if c.id == request.claim_id), None)
    if request.action == "recheck_quote" and fetcher_factory is not None and verdict is not None and claim:
        fetcher = fetcher_factory()
        try:
            recheck = await recheck_quotes(
                claim,
                warehouse.read(tables.EVIDENCE, request.subject_id, EvidenceItem),
                fetcher,
                subject_id=request.subject_id,
                clock=clock,
                method_version=method_version,
                outcome_id=_recheck_id(request, clock),
            )
        finally:
            await fetcher.aclose()
    outcome = record_ruling(
        ledger, request, verdict, clock=clock, method_version=method_version, quote_recheck=recheck
    )
    if outcome.ruling is None or outcome.ruling.action not in RESCORING_ACTIONS:
        return StewardDecision(outcome=outcome)
    report = rescore_subject(
        warehouse,
        request.subject_id,
        kinds=kinds,
        clock=clock,
        ruled_claim_id=request.claim_id,
        ruling_id=outcome.ruling.id,
    )
    if report is None:
        note = "not re-scored: no published report holds this claim's stored records; the next run applies it"
        return StewardDecision(outcome=outcome, notes=[note])
    return StewardDecision(outcome=outcome, rescored_report_id=report.id, rescored_content_hash=report.content_hash)


def _recheck_id(request: RulingRequest, clock: Clock) -> str:
    return stable_id("rqc", request.subject_id, request.claim_id, request.steward, clock.now().isoformat())
