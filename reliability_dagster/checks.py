"""Asset checks: the method's invariants, checked on what was stored.

Blocking checks stop the run before the report is published: a URL search did
not return, criteria written after research began or changed since, evidence
from the claim's own source, judge inputs holding more than claim, criteria and
verified evidence, a shown quote that is not verified, or a report whose scores
do not recompute from the stored verdicts."""

import warnings
from collections.abc import Callable, Iterable
from typing import Any

import dagster as dg

from reliability_core.claims.criteria import criteria_content_hash
from reliability_core.models import (
    Claim,
    ClaimVerdict,
    EvidenceItem,
    PageSnapshot,
    Report,
    ResolutionCriteria,
    SearchResultSet,
)
from reliability_core.scores.report import report_content_hash
from reliability_core.stages import SnapshotRef
from reliability_core.subjects.candidates import urls_not_returned_by_search
from reliability_core.verdicts.evidence_rules import own_source_of, own_source_reason
from reliability_core.verdicts.judge_input import fields_a_judge_may_not_see
from reliability_core.verdicts.usable_evidence import usable_evidence
from reliability_core.warehouse import tables
from reliability_dagster.assets import build_subject_report
from reliability_dagster.partitions import subjects_partitions
from reliability_dagster.resources import ClockResource, ProvidersResource, WarehouseResource
from reliability_dagster.stage import Stage, stage_for

# Partitioned asset checks are marked "preview" in dagster 1.13; we rely on them
# (each check reads one subject's partition) and pin the release, so the
# warning is noise on every command.
warnings.filterwarnings("ignore", message="Specifying a partitions_def on an AssetCheckSpec", category=dg.PreviewWarning)


def _result(failures: Iterable[str], checked: int, what: str) -> dg.AssetCheckResult:
    found = list(failures)
    metadata: dict[str, Any] = {"checked": checked, "failures": len(found)}
    if found:
        metadata["examples"] = dg.MetadataValue.md("\n".join(f"- {f}" for f in found[:20]))
    return dg.AssetCheckResult(passed=not found, metadata=metadata, description=what)


CheckBody = Callable[[Stage], dg.AssetCheckResult]


def _check(asset: str, name: str, description: str) -> Callable[[CheckBody], dg.AssetChecksDefinition]:
    """A blocking, subject-partitioned check: a failure stops the run before publication.

    The decorated function reads one subject's stage and returns the result; the
    resources every check needs are declared here once, so a check's body is only
    what it checks."""

    def define(body: CheckBody) -> dg.AssetChecksDefinition:
        @dg.asset_check(
            asset=asset,
            name=name,
            blocking=True,
            description=description,
            partitions_def=subjects_partitions,
        )
        def check(
            context: dg.AssetCheckExecutionContext,
            warehouse: WarehouseResource,
            clock: ClockResource,
            providers: ProvidersResource,
        ) -> dg.AssetCheckResult:
            return body(stage_for(context, warehouse, clock, providers))  # type: ignore[arg-type]

        return check

    return define


@_check("page_snapshots", "urls_returned_by_search", "Every page fetched for the sample was returned by a stored search.")
def snapshot_urls_returned_by_search(stage: Stage) -> dg.AssetCheckResult:
    refs = stage.warehouse.read(tables.SNAPSHOT_INDEX, stage.subject_id, SnapshotRef)
    result_sets = stage.warehouse.read(tables.CANDIDATE_SEARCHES, stage.subject_id, SearchResultSet)
    missing = urls_not_returned_by_search([r.url for r in refs], result_sets)
    return _result(missing, len(refs), "a URL that search did not actually return is never used")


@_check("evidence", "evidence_urls_returned_by_search", "Every evidence page was returned by a stored search.")
def evidence_urls_returned_by_search(stage: Stage) -> dg.AssetCheckResult:
    items = stage.warehouse.read(tables.EVIDENCE, stage.subject_id, EvidenceItem)
    result_sets = stage.warehouse.read(tables.EVIDENCE_SEARCHES, stage.subject_id, SearchResultSet)
    missing = urls_not_returned_by_search([i.url for i in items], result_sets)
    return _result(missing, len(items), "a URL that search did not actually return is never used")


def criteria_problems(
    criteria: Iterable[ResolutionCriteria],
    ledger_copy: dict[str, ResolutionCriteria | None],
    first_fetch: dict[str, Any],
) -> list[str]:
    """Criteria written before the first evidence fetch of their claim, identical
    to the ledger's frozen copy, and with a content hash that still matches."""
    problems = []
    for c in criteria:
        frozen = ledger_copy.get(c.id)
        if frozen is None:
            problems.append(f"{c.claim_id}: criteria not in the append-only ledger")
        elif frozen != c:
            problems.append(f"{c.claim_id}: criteria differ from the frozen ledger copy")
        if criteria_content_hash(c.levels, c.judge_at, c.numeric) != c.content_hash:
            problems.append(f"{c.claim_id}: content hash does not match the criteria (rewritten?)")
        fetched = first_fetch.get(c.claim_id)
        if fetched is not None and c.written_at > fetched:
            problems.append(f"{c.claim_id}: criteria written at {c.written_at} after evidence fetched at {fetched}")
    return problems


@_check(
    "evidence",
    "criteria_frozen_before_research",
    "Criteria were written before the first evidence fetch of their claim and never changed.",
)
def criteria_frozen_before_research(stage: Stage) -> dg.AssetCheckResult:
    criteria = stage.warehouse.read(tables.CRITERIA, stage.subject_id, ResolutionCriteria)
    first_fetch: dict[str, Any] = {}
    for item in stage.warehouse.read(tables.EVIDENCE, stage.subject_id, EvidenceItem):
        first_fetch[item.claim_id] = min(item.fetched_at, first_fetch.get(item.claim_id, item.fetched_at))
    ledger_copy = {
        c.id: stage.ledger.get(tables.CRITERIA_LEDGER, stage.subject_id, c.id, ResolutionCriteria) for c in criteria
    }
    return _result(criteria_problems(criteria, ledger_copy, first_fetch), len(criteria), "criteria frozen")


def own_source_problems(
    items: Iterable[EvidenceItem],
    claims: dict[str, Claim],
    documents: dict[str, PageSnapshot],
    pages: dict[str, PageSnapshot],
) -> list[str]:
    """Admitted evidence never comes from the claim's own source: not its URL, not a
    copy of it at another address ([M] step 7). The pipeline's rule
    (``evidence_rules.own_source_reason``) on what it stored: each item's address and
    its page snapshot (``pages``, by id) against the claim's own source document
    (``documents``, the ranked documents' snapshots by URL, as the research step had them)."""
    problems = []
    for item in items:
        if item.excluded:
            continue
        claim = claims.get(item.claim_id)
        if claim is None:
            problems.append(f"{item.id}: evidence for an unknown claim {item.claim_id}")
            continue
        own = own_source_of(claim, documents.get(claim.url))
        reason = own_source_reason(own, url=item.url, page=pages.get(item.snapshot_id))
        if reason:
            problems.append(f"{item.id}: {item.url}: {reason} ({claim.url})")
    return problems


@_check("evidence", "no_evidence_from_own_source", "No admitted evidence comes from the claim's own source or its copies.")
def no_evidence_from_own_source(stage: Stage) -> dg.AssetCheckResult:
    claims = {c.id: c for c in stage.warehouse.read(tables.CLAIMS, stage.subject_id, Claim)}
    items = stage.warehouse.read(tables.EVIDENCE, stage.subject_id, EvidenceItem)
    pages = {s.id: s for s in stage.ledger.read_all(tables.SNAPSHOT_LEDGER, stage.subject_id, PageSnapshot)}
    # The claims' own source documents as the research step got them: the indexed snapshots.
    refs = stage.warehouse.read(tables.SNAPSHOT_INDEX, stage.subject_id, SnapshotRef)
    documents = {pages[r.snapshot_id].url: pages[r.snapshot_id] for r in refs if r.snapshot_id in pages}
    return _result(own_source_problems(items, claims, documents, pages), len(items), "own source excluded")


def judge_input_problems(verdicts: Iterable[ClaimVerdict], evidence: Iterable[EvidenceItem]) -> list[str]:
    """Judges saw only the claim, its criteria and verified evidence: the judge
    input schema holds nothing else (``judge_input.fields_a_judge_may_not_see``),
    and every evidence id a verdict rests on is verified, admitted evidence of that claim."""
    problems = [f"judge input has a field it must not: {f}" for f in fields_a_judge_may_not_see()]
    by_claim: dict[str, set[str]] = {}
    for item in usable_evidence(list(evidence)):
        by_claim.setdefault(item.claim_id, set()).add(item.id)
    for verdict in verdicts:
        allowed = by_claim.get(verdict.claim_id, set())
        for evidence_id in verdict.evidence_ids:
            if evidence_id not in allowed:
                problems.append(f"{verdict.claim_id}: judged on {evidence_id}, which is not verified admitted evidence")
        if verdict.judge_a is not None and not allowed:
            problems.append(f"{verdict.claim_id}: a judge was called without verified evidence")
    return problems


@_check("verdicts", "judges_saw_only_claim_criteria_and_verified_evidence", "Blind judge inputs.")
def judges_blind(stage: Stage) -> dg.AssetCheckResult:
    found = stage.warehouse.read(tables.VERDICTS, stage.subject_id, ClaimVerdict)
    items = stage.warehouse.read(tables.EVIDENCE, stage.subject_id, EvidenceItem)
    return _result(judge_input_problems(found, items), len(found), "judges blind")


def shown_quote_problems(report: Report) -> list[str]:
    """A quote that fails the mechanical check is never shown as verified, and a
    verdict shown in the report rests on a verified quote."""
    problems = []
    for entry in report.claims:
        verdict = entry.get("verdict")
        gate = entry.get("gate")
        shown = isinstance(gate, dict) and bool(gate.get("shown"))
        if shown and verdict not in (None, "unresolvable") and entry.get("quote_verified") is not True:
            problems.append(f"{entry.get('claim_id')}: shown verdict on an unverified quote")
    return problems


@_check("subject_scores", "shown_quotes_are_verified", "Every quote behind a shown verdict is verified.")
def shown_quotes_are_verified(stage: Stage) -> dg.AssetCheckResult:
    reports = stage.warehouse.read(tables.SCORED_REPORTS, stage.subject_id, Report)
    problems = [p for r in reports for p in shown_quote_problems(r)]
    return _result(problems, sum(len(r.claims) for r in reports), "shown quotes verified")


@_check("subject_scores", "scores_recompute_from_stored_verdicts", "The report's scores recompute from the stored records.")
def scores_recompute(stage: Stage) -> dg.AssetCheckResult:
    stored = stage.warehouse.read(tables.SCORED_REPORTS, stage.subject_id, Report)
    if not stored:
        return _result(["no scored report stored"], 0, "recompute")
    # Against the peer snapshot the report recorded, so a peer published since (or midnight
    # passing) cannot make a correct report fail its check.
    recomputed = build_subject_report(stage, stored[-1].models_used, stored[-1].peer_prior_as_of)
    problems = []
    if report_content_hash(recomputed) != stored[-1].content_hash:
        problems.append(f"stored {stored[-1].content_hash[:12]} != recomputed {report_content_hash(recomputed)[:12]}")
    return _result(problems, 1, "scores recompute")


subject_checks = [
    snapshot_urls_returned_by_search,
    evidence_urls_returned_by_search,
    criteria_frozen_before_research,
    no_evidence_from_own_source,
    judges_blind,
    shown_quotes_are_verified,
    scores_recompute,
]
