"""Per-subject assets, in method order. Each body reads its inputs from the
warehouse, calls one function of ``reliability_core``, writes its outputs and
attaches metadata. A subject refused coverage stops after ``subject_coverage``:
every later asset records "not covered" and writes empty partitions."""

import base64
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import dagster as dg
from pydantic import BaseModel

from reliability_core.claims.criteria import freeze_criteria
from reliability_core.claims.extraction import DocumentRead
from reliability_core.claims.sampling import derive_claim_seed, sample_claims
from reliability_core.models import (
    CandidateDocument,
    Claim,
    ClaimVerdict,
    CoverageDecision,
    DocumentSelection,
    DroppedStatement,
    EvidenceItem,
    PageSnapshot,
    Report,
    ResolutionCriteria,
    SampleMembership,
    SearchResultSet,
    Statement,
)
from reliability_core.providers.failures import ModelFailure
from reliability_core.providers.gateway import StepGateway
from reliability_core.scores.peers import PeerFigures
from reliability_core.scores.publication import publish_report, report_from_stored
from reliability_core.scores.refresh import retriage_as_due
from reliability_core.scores.render import report_chart_png, report_markdown
from reliability_core.settings import settings
from reliability_core.stages import (
    SnapshotRef,
    judge_claims,
    keep_new_snapshots,
    known_private_sentences,
    read_documents,
    research_claims,
    snapshot_refs,
    stored_snapshots,
)
from reliability_core.stewardship.steward import StewardQueueItem, rebuild_steward_queue
from reliability_core.subjects.candidates import CandidateListing, list_candidates
from reliability_core.subjects.coverage import assess_coverage
from reliability_core.subjects.registry import load_registry
from reliability_core.subjects.selection import derive_seed, rank_documents
from reliability_core.verdicts.evidence import EvidenceResult
from reliability_core.warehouse import tables
from reliability_core.web.snapshots import MaskingFetcher, ReusingFetcher
from reliability_core.wiring import stand_in_subjects
from reliability_dagster.jobs import SUBJECT_PIPELINE_GROUP
from reliability_dagster.metadata import (
    OWNERS,
    claims_table,
    measure,
    rows,
    scores_metadata,
    scores_table,
    steward_queue_metadata,
    table_metadata,
)
from reliability_dagster.partitions import subjects_partitions
from reliability_dagster.pools import ANTHROPIC, OPENAI, PERPLEXITY, WEB, pool_tags
from reliability_dagster.stage import Stage, StageBody, counted, run_async, subject_asset

# Metadata key (not a table): calls, tokens and cost per model step of a materialisation.
MODEL_USAGE_BY_STEP = "model_usage_by_step"


# The table each asset is seen by (the first it writes) and its record model: the
# column schema and row count the UI shows.
STORED: dict[str, tuple[str, type[BaseModel]]] = {
    "subject_coverage": (tables.COVERAGE, CoverageDecision),
    "candidate_documents": (tables.CANDIDATES, CandidateDocument),
    "document_ranking": (tables.DOCUMENT_RANKING, DocumentSelection),
    "page_snapshots": (tables.SNAPSHOT_INDEX, SnapshotRef),
    "statements": (tables.STATEMENTS, Statement),
    "claims": (tables.CLAIMS, Claim),
    "claim_sample": (tables.CLAIM_SAMPLE, SampleMembership),
    "resolution_criteria": (tables.CRITERIA, ResolutionCriteria),
    "evidence": (tables.EVIDENCE, EvidenceItem),
    "verdicts": (tables.VERDICTS, ClaimVerdict),
    "subject_scores": (tables.SCORED_REPORTS, Report),
    "subject_report": (tables.REPORTS, Report),
    "subject_steward_queue": (tables.STEWARD_QUEUE, StewardQueueItem),
}
# The further tables an asset writes, each shown with its schema beside the first.
ALSO_STORED: dict[str, list[tuple[str, type[BaseModel]]]] = {
    "subject_coverage": [(tables.IDENTITY_SEARCHES, SearchResultSet)],
    "candidate_documents": [(tables.CANDIDATE_LISTINGS, CandidateListing), (tables.CANDIDATE_SEARCHES, SearchResultSet)],
    "statements": [
        (tables.DROPPED, DroppedStatement),
        (tables.DOCUMENT_SAMPLE, DocumentSelection),
        (tables.DOCUMENT_READS, DocumentRead),
        (tables.EXTRACTED_CLAIMS, Claim),
        (tables.CANDIDATE_SEARCHES, SearchResultSet),
    ],
    "resolution_criteria": [(tables.CRITERIA_FAILURES, ModelFailure)],
    "evidence": [(tables.EVIDENCE_SEARCHES, SearchResultSet), (tables.EVIDENCE_RESULTS, EvidenceResult)],
    "subject_report": [(tables.PEER_FIGURES, PeerFigures)],
}


def _subject_asset(
    name: str,
    deps: Sequence[str],
    kinds: set[str],
    pools: set[str],
    description: str,
    *,
    not_covered: Sequence[str] | None,
    fetches: bool = False,
) -> Callable[[StageBody], dg.AssetsDefinition]:
    """Every per-subject asset: the ``subjects`` partitions, the pipeline group,
    its upstream asset, its kinds, the provider pools its calls draw on (tags
    ``reliability/pool.<provider>``; each call claims a slot of its own provider's pool, see
    ``reliability_dagster.pools``: no step-level ``pool=``, since a step calls several providers
    and a waiting step spins), its owners and the
    column schema of the table it writes. ``not_covered``: the tables written empty for a
    subject refused coverage (``reliability_dagster.stage.subject_asset``)."""
    table, model = STORED[name]
    return subject_asset(
        not_covered=not_covered,
        fetches=fetches,
        name=name,
        partitions_def=subjects_partitions,
        group_name=SUBJECT_PIPELINE_GROUP,
        deps=list(deps),
        kinds=kinds,
        tags=pool_tags(pools),
        description=description,
        owners=OWNERS,
        metadata=table_metadata(model, table, ALSO_STORED.get(name, ())),
    )


def _progress(context: dg.AssetExecutionContext, what: str) -> Callable[[int, int], None]:
    """Log "<what>: <done> of <total>" about every tenth of a long step (and at its end),
    so the run page shows where the step is."""

    def log(done: int, total: int) -> None:
        if done == total or done % max(1, total // 10) == 0:
            context.log.info(f"{what}: {done} of {total}")

    return log


def _models_metadata(stage: Stage, gateway: StepGateway) -> dict[str, Any]:
    """Provider totals plus calls, tokens and cost per model step (what the rehearsal
    and a live run's cost per checked claim are read from)."""
    by_step = {
        step: {
            "calls": usage.calls,
            "input_tokens": usage.input_tokens,
            "cached_tokens": usage.cached_tokens,
            "output_tokens": usage.output_tokens,
            "cost_usd": round(usage.cost_usd, 6),
        }
        for step, usage in gateway.totals.by_step().items()
    }
    return {
        "offline_rules": stage.offline,
        "rehearsal": stage.rehearsal,
        "method_version": stage.method_version,
        **gateway.metadata(),
        MODEL_USAGE_BY_STEP: dg.MetadataValue.json(by_step),
    }


@_subject_asset(
    "subject_coverage",
    [],
    {"anthropic", "parquet"},
    {ANTHROPIC, PERPLEXITY},
    "Step 1: who the subject is (search evidence) and whether it may be covered (a separate decision on that evidence).",
    not_covered=None,
)
def subject_coverage(context: dg.AssetExecutionContext, stage: Stage) -> dg.MaterializeResult[None]:
    gateway = stage.providers.gateway(job=context.job_name)
    search = stage.search()
    known = stand_in_subjects(gateway, search.name, Path(stage.providers.corpus_dir), rehearsal=stage.rehearsal)
    result = run_async(
        assess_coverage(stage.entry, gateway, search, stage.clock, stage.method_version, stand_in_subjects=known)
    )
    stage.warehouse.write(tables.COVERAGE, stage.subject_id, [result.decision])
    stage.warehouse.write(tables.IDENTITY_SEARCHES, stage.subject_id, result.result_sets)
    return dg.MaterializeResult(
        metadata={
            "covered": result.decision.covered,
            "needs_live_providers": result.decision.needs_live_providers,
            **rows(1),
            "reasons": dg.MetadataValue.md("\n".join(f"- {r}" for r in result.decision.reasons)),
            "identity_evidence": len(result.decision.evidence),
            "search_failures": len(result.search_failures),
            "searched_afresh": stage.refresh,  # a refresh reuses no earlier identity search
            **_models_metadata(stage, gateway),
        }
    )


@_subject_asset(
    "candidate_documents",
    ["subject_coverage"],
    {"perplexity", "parquet"},
    {PERPLEXITY},
    "Step 2: 20-40 candidate documents where the subject speaks, all saved before any is chosen; reused for 90 days.",
    not_covered=[tables.CANDIDATE_LISTINGS, tables.CANDIDATES, tables.CANDIDATE_SEARCHES],
)
def candidate_documents(context: dg.AssetExecutionContext, stage: Stage) -> dg.MaterializeResult[None]:
    previous = stage.warehouse.read(tables.CANDIDATE_LISTINGS, stage.subject_id, CandidateListing)
    listing = run_async(
        list_candidates(
            stage.entry,
            stage.search(),
            stage.clock,
            stage.method_version,
            previous[-1] if previous else None,
        )
    )
    stage.warehouse.write(tables.CANDIDATE_LISTINGS, stage.subject_id, [listing])
    stage.warehouse.write(tables.CANDIDATES, stage.subject_id, listing.candidates)
    stage.warehouse.write(tables.CANDIDATE_SEARCHES, stage.subject_id, listing.result_sets)
    return dg.MaterializeResult(
        metadata={
            "candidates": len(listing.candidates),
            **rows(len(listing.candidates)),
            "forward_looking": sum(c.forward_looking for c in listing.candidates),
            "reused_listing": listing.reused,
            "listed_at": listing.listed_at.isoformat(),
            "notes": "; ".join(listing.notes) or "none",
            "search_failures": len(listing.search_failures),
        }
    )


@_subject_asset(
    "document_ranking",
    ["candidate_documents"],
    {"python", "parquet"},
    set(),
    "Step 3: every candidate ranked by rule (year spread, seeded choice within a year, reserved forward-looking slots).",
    not_covered=[tables.DOCUMENT_RANKING],
)
def document_ranking(context: dg.AssetExecutionContext, stage: Stage) -> dg.MaterializeResult[None]:
    candidates = stage.warehouse.read(tables.CANDIDATES, stage.subject_id, CandidateDocument)
    seed = derive_seed(stage.subject_id, stage.method_version)
    ranking = rank_documents(candidates, seed, method_version=stage.method_version)
    stage.warehouse.write(tables.DOCUMENT_RANKING, stage.subject_id, ranking)
    return dg.MaterializeResult(
        metadata={
            "ranked": len(ranking),
            **rows(len(ranking)),
            "seed": str(seed),
            "initial_sample": dg.MetadataValue.md(
                "\n".join(f"{s.position}. {s.url} ({s.slot}, {s.year}): {s.reason}" for s in ranking[:8])
            ),
        }
    )


@_subject_asset(
    "statements",
    ["document_ranking"],
    {"anthropic", "parquet"},
    {ANTHROPIC, WEB},
    "Step 4: the ranked pages read by the server itself (safe fetch, robots.txt, SHA-256) and the subject's "
    "statements copied word for word and checked against them; the final document sample (documents without "
    "statements by the subject replaced by rule); private-life drops counted only, their sentences masked in the "
    "pages before the pages are stored in the append-only ledger.",
    not_covered=[tables.STATEMENTS, tables.DROPPED, tables.DOCUMENT_SAMPLE, tables.DOCUMENT_READS, tables.EXTRACTED_CLAIMS],
    fetches=True,
)
def statements(context: dg.AssetExecutionContext, stage: Stage) -> dg.MaterializeResult[None]:
    gateway = stage.providers.gateway(job=context.job_name)
    extraction = run_async(
        read_documents(
            ranking=stage.warehouse.read(tables.DOCUMENT_RANKING, stage.subject_id, DocumentSelection),
            result_sets=stage.warehouse.read(tables.CANDIDATE_SEARCHES, stage.subject_id, SearchResultSet),
            candidates=stage.warehouse.read(tables.CANDIDATES, stage.subject_id, CandidateDocument),
            fetcher=stage.fetcher(),
            ledger=stage.ledger,
            ledger_table=tables.SNAPSHOT_LEDGER,
            entry=stage.entry,
            gateway=gateway,
            clock=stage.clock,
            method_version=stage.method_version,
            progress=_progress(context, "documents extracted"),
            search=stage.search(),
        )
    )
    if extraction.result_sets is not None:
        # A statement found private at this step was in a stored search snippet.
        stage.warehouse.write(tables.CANDIDATE_SEARCHES, stage.subject_id, extraction.result_sets)
    found = [s for r in extraction.results for s in r.statements]
    dropped = [d for r in extraction.results for d in r.dropped]
    stage.warehouse.write(tables.STATEMENTS, stage.subject_id, found)
    stage.warehouse.write(tables.DROPPED, stage.subject_id, dropped)
    stage.warehouse.write(tables.DOCUMENT_SAMPLE, stage.subject_id, extraction.sample)
    stage.warehouse.write(tables.EXTRACTED_CLAIMS, stage.subject_id, [c for r in extraction.results for c in r.claims])
    stage.warehouse.write(tables.DOCUMENT_READS, stage.subject_id, extraction.reads)
    verified = sum(s.quote_verified for s in found)
    return dg.MaterializeResult(
        metadata={
            "documents_sampled": len(extraction.sample),
            "documents_checked": len(extraction.checked),
            "replacements": sum(s.slot == "replacement" for s in extraction.sample),
            "extraction_rounds": extraction.rounds,
            "statements": len(found),
            **rows(len(found)),
            "verified_quote_rate": round(verified / len(found), 3) if found else 0.0,
            "unverified_quotes": len(found) - verified,
            "dropped": len(dropped),
            "documents_failed": sum(r.failure is not None for r in extraction.reads),
            "documents_cut": sum(r.cut for r in extraction.reads),
            **_models_metadata(stage, gateway),
        }
    )


@_subject_asset(
    "page_snapshots",
    ["statements"],
    {"python", "parquet"},
    set(),
    "The index of what the server itself read at each ranked URL (safe fetch, robots.txt, SHA-256), stored in an "
    "append-only ledger by step 4 once its privacy decisions were applied.",
    not_covered=[tables.SNAPSHOT_INDEX],
)
def page_snapshots(context: dg.AssetExecutionContext, stage: Stage) -> dg.MaterializeResult[None]:
    ranking = stage.warehouse.read(tables.DOCUMENT_RANKING, stage.subject_id, DocumentSelection)
    refs = snapshot_refs(stored_snapshots(ranking, stage.ledger, stage.subject_id, tables.SNAPSHOT_LEDGER))
    stage.warehouse.write(tables.SNAPSHOT_INDEX, stage.subject_id, refs)
    return dg.MaterializeResult(metadata={"pages": len(refs), **rows(len(refs)), **counted("outcome", (r.outcome for r in refs))})


def _snapshots(stage: Stage) -> list[PageSnapshot]:
    refs = stage.warehouse.read(tables.SNAPSHOT_INDEX, stage.subject_id, SnapshotRef)
    found = []
    for ref in refs:
        snapshot = stage.ledger.get(tables.SNAPSHOT_LEDGER, stage.subject_id, ref.snapshot_id, PageSnapshot)
        if snapshot is None:
            raise dg.Failure(description=f"snapshot {ref.snapshot_id} of {ref.url} is indexed but not in the ledger")
        found.append(snapshot)
    return found


@_subject_asset(
    "claims",
    ["statements", "page_snapshots"],
    {"python", "parquet"},
    set(),
    "Step 5 (triage): each claim resolvable now, not yet due, never resolvable or own records only, re-checked "
    "against today's date so claims fall due as their deadlines pass.",
    not_covered=[tables.CLAIMS],
)
def claims(context: dg.AssetExecutionContext, stage: Stage) -> dg.MaterializeResult[None]:
    now = stage.clock.now()  # read as a date in each claim's time zone
    triaged = [retriage_as_due(c, now) for c in stage.warehouse.read(tables.EXTRACTED_CLAIMS, stage.subject_id, Claim)]
    stage.warehouse.write(tables.CLAIMS, stage.subject_id, triaged)
    return dg.MaterializeResult(
        metadata={
            "claims": len(triaged),
            **rows(len(triaged)),
            "party_political": sum(c.party_political for c in triaged),
            "harm_to_person": sum(c.harm_to_person for c in triaged),
            **counted("triage", (c.triage for c in triaged)),
            **{f"type.{t}": sum(c.claim_type == t for c in triaged) for t in ("factual", "promise", "prediction")},
        }
    )


@_subject_asset(
    "claim_sample",
    ["claims"],
    {"python", "parquet"},
    set(),
    "Step 5 (sampling): up to 25 resolvable claims per type, spread across documents, by a seeded rule; every "
    "claim not chosen is kept with its state.",
    not_covered=[tables.CLAIM_SAMPLE],
)
def claim_sample(context: dg.AssetExecutionContext, stage: Stage) -> dg.MaterializeResult[None]:
    all_claims = stage.warehouse.read(tables.CLAIMS, stage.subject_id, Claim)
    seed = derive_claim_seed(stage.subject_id, stage.method_version)
    membership = sample_claims(all_claims, seed)
    stage.warehouse.write(tables.CLAIM_SAMPLE, stage.subject_id, membership)
    sampled = [m for m in membership if m.sampled]
    return dg.MaterializeResult(
        metadata={
            "sampled": len(sampled),
            **rows(len(membership)),
            "not_sampled": len(membership) - len(sampled),
            **{f"sampled.{t}": sum(m.claim_type == t for m in sampled) for t in ("factual", "promise", "prediction")},
        }
    )


def _sampled_claims(stage: Stage) -> list[Claim]:
    chosen = {m.claim_id for m in stage.warehouse.read(tables.CLAIM_SAMPLE, stage.subject_id, SampleMembership) if m.sampled}
    return [c for c in stage.warehouse.read(tables.CLAIMS, stage.subject_id, Claim) if c.id in chosen]


@_subject_asset(
    "resolution_criteria",
    ["claim_sample"],
    {"anthropic", "parquet"},
    {ANTHROPIC},
    "Step 6: resolution criteria for each sampled claim, written and time-stamped before any research, never "
    "rewritten (append-only ledger; a re-run reuses them).",
    not_covered=[tables.CRITERIA, tables.CRITERIA_FAILURES],
)
def resolution_criteria(context: dg.AssetExecutionContext, stage: Stage) -> dg.MaterializeResult[None]:
    gateway = stage.providers.gateway(job=context.job_name)
    failures: list[ModelFailure] = []
    frozen = run_async(
        freeze_criteria(
            claims=_sampled_claims(stage),
            gateway=gateway,
            ledger=stage.ledger,
            clock=stage.clock,
            method_version=stage.method_version,
            subject_name=stage.entry.name,
            failures=failures,
        )
    )
    stage.warehouse.write(tables.CRITERIA, stage.subject_id, frozen)
    stage.warehouse.write(tables.CRITERIA_FAILURES, stage.subject_id, failures)
    return dg.MaterializeResult(
        metadata={
            "criteria": len(frozen),
            **rows(len(frozen)),
            "numeric": sum(c.numeric is not None for c in frozen),
            "criteria_failures": len(failures),
            **_models_metadata(stage, gateway),
        }
    )


@_subject_asset(
    "evidence",
    ["resolution_criteria"],
    {"perplexity", "parquet"},
    {ANTHROPIC, PERPLEXITY, WEB},
    "Step 7: dated evidence for and against each sampled claim, read by the server itself (robots.txt respected), "
    "every quote verified, never from the claim's own source or its copies.",
    not_covered=[tables.EVIDENCE, tables.EVIDENCE_SEARCHES, tables.EVIDENCE_RESULTS],
    fetches=True,
)
def evidence(context: dg.AssetExecutionContext, stage: Stage) -> dg.MaterializeResult[None]:
    gateway = stage.providers.gateway(job=context.job_name)
    criteria = stage.warehouse.read(tables.CRITERIA, stage.subject_id, ResolutionCriteria)
    # Sentences step 4 found private are masked in copies of their page read as evidence.
    pages = ReusingFetcher(
        stage.fetcher(),
        stage.ledger.read_all(tables.SNAPSHOT_LEDGER, stage.subject_id, PageSnapshot),
        method_version=stage.method_version,
        now=stage.clock.now(),
        not_before=max((c.written_at for c in criteria), default=None),
    )
    research = run_async(
        research_claims(
            claims=_sampled_claims(stage),
            criteria=criteria,
            own_sources=_snapshots(stage),
            entry=stage.entry,
            gateway=gateway,
            search=stage.search(),
            fetcher=MaskingFetcher(pages, known_private_sentences(stage.ledger, stage.subject_id)),
            clock=stage.clock,
            method_version=stage.method_version,
            progress=_progress(context, "claims researched"),
            # A live run adds the model's reading to the rule-based steering check.
            model_steering_check=not gateway.is_offline("detect_steering"),
            criteria_failures=stage.warehouse.read(tables.CRITERIA_FAILURES, stage.subject_id, ModelFailure),
        )
    )
    items = [i for r in research for i in r.items]
    keep_new_snapshots(stage.ledger, tables.SNAPSHOT_LEDGER, stage.subject_id, [s for r in research for s in r.snapshots])
    stage.warehouse.write(tables.EVIDENCE, stage.subject_id, items)
    stage.warehouse.write(tables.EVIDENCE_SEARCHES, stage.subject_id, [rs for r in research for rs in r.result_sets])
    # Page texts live in the snapshot ledger; the research record keeps the rest.
    stage.warehouse.write(tables.EVIDENCE_RESULTS, stage.subject_id, [r.model_copy(update={"snapshots": []}) for r in research])
    usable = [i for i in items if i.quote_verified and not i.excluded]
    return dg.MaterializeResult(
        metadata={
            "claims_researched": len(research),
            "evidence_items": len(items),
            **rows(len(items)),
            "usable_items": len(usable),
            "excluded_items": sum(i.excluded for i in items),
            "unverified_quotes": sum(not i.quote_verified for i in items),
            "pages_skipped": sum(len(r.skipped) for r in research),
            "pages_fetched": pages.fetched,
            "pages_reused": pages.reused,
            "steering_detected": sum(r.steering.detected for r in research),
            "research_failures": sum(r.failure is not None for r in research),
            **_models_metadata(stage, gateway),
        }
    )


@_subject_asset(
    "verdicts",
    ["evidence"],
    {"openai", "parquet"},
    {ANTHROPIC, OPENAI},
    "Step 8: two blind judges from different model families; judge A's verdict stands, disagreement flagged; no "
    "evidence means unresolvable without a judge; code-decided display gates.",
    not_covered=[tables.VERDICTS],
)
def verdicts(context: dg.AssetExecutionContext, stage: Stage) -> dg.MaterializeResult[None]:
    gateway = stage.providers.gateway(job=context.job_name)
    decided = run_async(
        judge_claims(
            claims=_sampled_claims(stage),
            criteria=stage.warehouse.read(tables.CRITERIA, stage.subject_id, ResolutionCriteria),
            research=stage.warehouse.read(tables.EVIDENCE_RESULTS, stage.subject_id, EvidenceResult),
            gateway=gateway,
            clock=stage.clock,
            method_version=stage.method_version,
            progress=_progress(context, "claims judged"),
        )
    )
    stage.warehouse.write(tables.VERDICTS, stage.subject_id, decided)
    return dg.MaterializeResult(
        metadata={
            "verdicts": len(decided),
            **rows(len(decided)),
            "judges_disagree": sum(v.judges_disagree for v in decided),
            "held_by_gate": sum(not v.gate.shown for v in decided),
            "self_reported_only": sum(v.self_reported_only for v in decided),
            "model_failures": sum(bool(v.model_failure) for v in decided),
            **counted("verdict", (v.verdict for v in decided)),
            **_models_metadata(stage, gateway),
        }
    )


def build_subject_report(stage: Stage, models_used: dict[str, str], peer_prior_as_of: datetime | None = None) -> Report:
    """Everything stored for the subject, scored into a report
    (``reliability_core.scores.publication.report_from_stored``: also what the report-recompute check
    and a steward's re-score call, so all three read the same tables). The peers' prior is
    the frozen peer snapshot of ``peer_prior_as_of``: today's cutoff by default, the one
    recorded on the stored report for the check."""
    kinds = {e.id: e.kind for e in load_registry(settings().registry_path)}
    report = report_from_stored(
        stage.warehouse,
        stage.subject_id,
        subject_name=stage.entry.name,
        kind=stage.entry.kind,
        kinds=kinds,
        models_used=models_used,
        offline=stage.offline,
        rehearsal=stage.rehearsal,
        clock=stage.clock,
        method_version=stage.method_version,
        peer_prior_as_of=peer_prior_as_of,
    )
    if report is None:
        raise dg.Failure(description=f"no coverage decision stored for {stage.subject_id}")
    return report


@_subject_asset(
    "subject_scores",
    ["verdicts"],
    {"python", "parquet"},
    set(),
    "Step 9 (scores): per-type Beta(2,2) scores with 80% intervals, overall score, Brier, checkable share, "
    "rule-based confidence; steward rulings applied first.",
    not_covered=None,
)
def subject_scores(context: dg.AssetExecutionContext, stage: Stage) -> dg.MaterializeResult[None]:
    report = build_subject_report(stage, stage.providers.gateway().describe())
    stage.warehouse.write(tables.SCORED_REPORTS, stage.subject_id, [report])
    return dg.MaterializeResult(metadata={**scores_metadata(report), **rows(1)})


@_subject_asset(
    "subject_report",
    ["subject_scores"],
    {"python", "parquet"},
    set(),
    "Step 9 (report): the stored report, served for 90 days then marked stale while a refresh runs; rendered as "
    "JSON (API), Markdown and a PNG chart.",
    not_covered=None,
)
def subject_report(context: dg.AssetExecutionContext, stage: Stage) -> dg.MaterializeResult[None]:
    scored = stage.warehouse.read(tables.SCORED_REPORTS, stage.subject_id, Report)
    if not scored:
        raise dg.Failure(description="no scored report to publish")
    report = publish_report(stage.warehouse, scored[-1], kind=stage.entry.kind)
    chart = report_chart_png(report)
    chart_path = publish_chart(stage, report, chart)
    markdown = report_markdown(report, include_claims=False)
    image = base64.b64encode(chart).decode("ascii")
    kept = len(stage.warehouse.read(tables.REPORTS, stage.subject_id, Report))
    return dg.MaterializeResult(
        metadata={
            # The chart first, on its own, so it shows without opening the report.
            "chart": dg.MetadataValue.md(f"![scores, 80% intervals and counts](data:image/png;base64,{image})"),
            "scores": scores_table(report),
            "claims": claims_table(report),
            **rows(kept),
            "report": dg.MetadataValue.md(markdown + f"\n\n![scores](data:image/png;base64,{image})\n"),
            "chart_path": dg.MetadataValue.path(chart_path),
            "content_hash": report.content_hash,
            "served_until": report.served_until.isoformat(),
            "reports_kept": kept,
            "rehearsal": report.rehearsal,
            **_run_cost_metadata(context, len(stage.warehouse.read(tables.VERDICTS, stage.subject_id, ClaimVerdict))),
        }
    )


@_subject_asset(
    "subject_steward_queue",
    ["verdicts"],
    {"python", "parquet"},
    set(),
    "[V] §04 steward spot checks, built with the run: the subject's disputed and held claims plus a random 10% "
    "of its last 7 days' verdicts (fresh seed, recorded), shown as a table (claim, quote, judges, gate, evidence, "
    "why queued). `reliability steward list` reads the same table; the weekly steward_sampling schedule rebuilds "
    "every subject's queue.",
    not_covered=[tables.STEWARD_QUEUE],
)
def subject_steward_queue(context: dg.AssetExecutionContext, stage: Stage) -> dg.MaterializeResult[None]:
    queue = rebuild_steward_queue(
        stage.warehouse, clock=stage.clock, method_version=stage.method_version, subjects=[stage.subject_id]
    )
    return dg.MaterializeResult(metadata=steward_queue_metadata(queue))


def run_usage_by_step(context: dg.AssetExecutionContext) -> dict[str, dict[str, float]]:
    """Calls, tokens and cost per model step over every asset this run materialised so far."""
    records = context.instance.get_records_for_run(
        context.run.run_id, of_type=dg.DagsterEventType.ASSET_MATERIALIZATION
    ).records
    return sum_usage_by_step(
        record.event_log_entry.asset_materialization.metadata
        for record in records
        if record.event_log_entry.asset_materialization is not None
    )


def sum_usage_by_step(metadata: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """The ``model_usage_by_step`` values of several assets' metadata, added up per step."""
    totals: dict[str, dict[str, float]] = {}
    for entries in metadata:
        data = getattr(entries.get(MODEL_USAGE_BY_STEP), "data", None)
        if not isinstance(data, dict):
            continue
        for step, usage in data.items():
            step_total = totals.setdefault(step, {})
            for key, number in usage.items():
                step_total[key] = step_total.get(key, 0.0) + float(number or 0)
    return dict(sorted(totals.items()))


def _run_cost_metadata(context: dg.AssetExecutionContext, checked_claims: int) -> dict[str, Any]:
    """The report's cost: per step over the whole run, and per checked claim (issue 14 section 4).
    The run carries it too, as tags (``run_cost_tags``) shown on the run's page and in the
    runs list, and as a line of its log."""
    by_step = run_usage_by_step(context)
    cost = sum(usage.get("cost_usd", 0.0) for usage in by_step.values())
    calls = int(sum(usage.get("calls", 0.0) for usage in by_step.values()))
    tags = run_cost_tags(cost, calls, checked_claims)
    context.instance.add_run_tags(context.run.run_id, tags)
    context.log.info(
        f"run model cost: {tags[RUN_COST_TAG]} USD over {calls} model calls; {checked_claims} claims checked"
    )
    return {
        "run_model_usage_by_step": dg.MetadataValue.json(by_step),
        "run_model_cost_usd": float(round(cost, 6)),
        "checked_claims": checked_claims,
        **measure("cost_per_checked_claim_usd", cost / checked_claims if checked_claims else None, 6),
    }


# Run tags with the run's model cost (set when the report is published: the whole run's cost).
RUN_COST_TAG = "reliability/model_cost_usd"
RUN_CALLS_TAG = "reliability/model_calls"
RUN_COST_PER_CLAIM_TAG = "reliability/cost_per_checked_claim_usd"


def run_cost_tags(cost_usd: float, calls: int, checked_claims: int) -> dict[str, str]:
    """The run's model cost as run tags (text, as tags are): total, calls, per checked claim."""
    tags = {RUN_COST_TAG: f"{cost_usd:.4f}", RUN_CALLS_TAG: str(calls)}
    if checked_claims:
        tags[RUN_COST_PER_CLAIM_TAG] = f"{cost_usd / checked_claims:.4f}"
    return tags


def publish_chart(stage: Stage, report: Report, chart: bytes) -> str:
    """The PNG beside the warehouse tables: ``<root>/_charts/<subject>/<content hash>.png``."""
    directory = f"{stage.warehouse.base}/_charts/{stage.subject_id}"
    stage.warehouse.fs.create_dir(directory, recursive=True)
    path = f"{directory}/{report.content_hash[:16]}.png"
    with stage.warehouse.fs.open_output_stream(path) as sink:
        sink.write(chart)
    return path


subject_assets = [
    subject_coverage,
    candidate_documents,
    document_ranking,
    page_snapshots,
    statements,
    claims,
    claim_sample,
    resolution_criteria,
    evidence,
    verdicts,
    subject_scores,
    subject_report,
    subject_steward_queue,
]
