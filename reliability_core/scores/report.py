"""The stored report for one subject and run ([M] step 9, [#8] "The report").

``build_report`` turns the stored records of a run into one ``Report``:
steward rulings are applied to the verdicts first (``rulings.apply_rulings``), then
the per-type and overall scores, Brier, checkable share and counts are
computed by ``reliability_core.scores.scoring`` and the confidence by
``reliability_core.scores.confidence``, and every claim is listed with its whole
trail (``claim_entries.claim_entry``: quote, source, criteria, evidence, both judges,
gate, responses, rulings). This module assembles and seals the report; what one claim's
entry shows is in ``claim_entries``, what a ruling does in ``rulings``, and which stored
report is served in ``publication``.

Content hash: ``Report.content_hash`` is the SHA-256 (hex) of the canonical
JSON of the report (``model_dump(mode="json")``, keys sorted, separators
``(",", ":")``, UTF-8, no ASCII escaping) without the fields that depend on
when or as what the report was stored: ``content_hash`` itself, ``id``,
``generated_at``, ``served_until`` (served_until is generated_at + 90 days),
``sequence`` (the publication order) and ``rescored_at`` / ``rescored_after_ruling``
(when a steward's ruling re-scored it: the rulings themselves are in the claims).
All lists inside the report are put in a fixed order, so two runs on the same
inputs give the same hash, whatever order the warehouse returned records in.
The report id is derived from the subject and that hash.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from datetime import datetime

from reliability_core.claims.extraction import DocumentRead
from reliability_core.clock import Clock
from reliability_core.constants import OVERALL_INTERVAL_DRAWS, OVERALL_INTERVAL_SEED
from reliability_core.ids import stable_id
from reliability_core.lifetimes import report_is_stale, report_served_until
from reliability_core.models import (
    CLAIM_TYPES,
    CandidateDocument,
    Claim,
    ClaimCounts,
    ClaimVerdict,
    CoverageDecision,
    DocumentSelection,
    DroppedStatement,
    EvidenceItem,
    OverallScore,
    Report,
    ResolutionCriteria,
    SampleMembership,
    Statement,
    StewardRuling,
    SubjectResponse,
    TypeScore,
)
from reliability_core.scores.claim_entries import claim_entry
from reliability_core.scores.confidence import assess_confidence
from reliability_core.scores.rulings import apply_rulings
from reliability_core.scores.scoring import (
    CheckedClaim,
    OverallPosterior,
    PriorLookup,
    TypePosterior,
    brier_score,
    checkable_share,
    checked_claims,
    overall_posterior,
    prior_for,
    type_posterior,
    verdict_value,
)

OFFLINE_NOTICE = "offline-rules (deterministic offline model, not a live model)"
REHEARSAL_NOTICE = "rehearsal (scripted model behind local vendor servers, not a live model)"
_HASH_EXCLUDED = frozenset(
    {"content_hash", "id", "generated_at", "served_until", "sequence", "rescored_at", "rescored_after_ruling"}
)

# --- Counts ----------------------------------------------------------------------------


def claim_counts(
    statements: Sequence[Statement],
    dropped: Sequence[DroppedStatement],
    claims: Sequence[Claim],
    samples: Sequence[SampleMembership],
    verdicts: Sequence[ClaimVerdict],
    document_reads: Sequence[DocumentRead] = (),
) -> ClaimCounts:
    """[#8] "Counts by state": everything not researched is still counted and shown.

    ``extracted`` is every statement the extraction step produced: the kept statements plus
    the count-only traces of dropped ones (a statement is stored either as a ``Statement``
    or as a ``DroppedStatement``, never both). Quote counts are over kept statements.
    Triage counts cover every claim (party-political ones included); ``resolved`` is a
    verdict with a value (shown or held), ``held_by_gate`` a verdict a display gate held.
    ``model_failures`` counts the claims a model failure left unresolvable,
    ``documents_failed``/``documents_cut`` the checked documents whose extraction a model
    failure stopped or whose text was cut (issue 14: failures are counted and shown)."""
    reasons = Counter(d.reason for d in dropped)
    triage = Counter(c.triage for c in claims)
    claim_ids = {c.id for c in claims}
    mine = [v for v in verdicts if v.claim_id in claim_ids]
    return ClaimCounts(
        extracted=len(statements) + len(dropped),
        verified_quotes=sum(1 for s in statements if s.quote_verified),
        unverified_quotes=sum(1 for s in statements if not s.quote_verified),
        dropped_private=reasons["private_life"],
        dropped_other_speaker=reasons["other_speaker"],
        dropped_paraphrase=reasons["paraphrase"],
        party_political=sum(1 for c in claims if c.party_political),
        harm_to_person=sum(1 for c in claims if c.harm_to_person),
        never_resolvable=triage["never_resolvable"],
        # [#15] rule 12: a "not yet" verdict (official figure unpublished) counts as not yet due.
        not_yet_due=triage["not_yet_due"] + sum(1 for v in mine if v.not_yet_due),
        own_records_only=triage["own_records_only"],
        resolvable=triage["resolvable_now"],
        sampled=len({s.claim_id for s in samples if s.sampled and s.claim_id in claim_ids}),
        resolved=sum(1 for v in mine if verdict_value(v.verdict) is not None),
        unresolvable=sum(1 for v in mine if v.verdict == "unresolvable" and not v.not_yet_due),
        self_reported_only=sum(1 for v in mine if v.self_reported_only),
        judges_disagree=sum(1 for v in mine if v.judges_disagree),
        held_by_gate=sum(1 for v in mine if not v.gate.shown),
        model_failures=sum(1 for v in mine if v.model_failure),
        documents_failed=sum(1 for r in document_reads if r.failure is not None),
        documents_cut=sum(1 for r in document_reads if r.cut and r.failure is None),
    )


# --- Staleness and hashing --------------------------------------------------------------


def served_until(generated_at: datetime) -> datetime:
    """[M] step 9: the report "is served for 90 days" (the rule lives in
    ``reliability_core.lifetimes.report_served_until``)."""
    return report_served_until(generated_at)


def is_stale(report: Report, now: datetime) -> bool:
    """[M] step 9: "After that it is served marked stale while a refresh runs"
    (``reliability_core.lifetimes.report_is_stale`` on the report's served-until)."""
    return report_is_stale(report.served_until, now)


def canonical_report_json(report: Report) -> str:
    """The canonical JSON the content hash is taken over (see the module docstring)."""
    data = report.model_dump(mode="json", exclude=set(_HASH_EXCLUDED))
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def report_content_hash(report: Report) -> str:
    """SHA-256 of ``canonical_report_json``: equal for two runs on the same inputs."""
    return hashlib.sha256(canonical_report_json(report).encode("utf-8")).hexdigest()


def _sealed(report: Report) -> Report:
    digest = report_content_hash(report)
    return report.model_copy(
        update={"content_hash": digest, "id": stable_id("rpt", report.subject_id, digest)}
    )


# --- Scores with confidence ----------------------------------------------------------------


def _years(
    checked: Sequence[CheckedClaim], claims_by_id: dict[str, Claim], doc_years: dict[str, int]
) -> list[int]:
    years: list[int] = []
    for c in checked:
        claim = claims_by_id[c.claim_id]
        if claim.made_on is not None:
            years.append(claim.made_on.year)
        elif c.document_id in doc_years:
            years.append(doc_years[c.document_id])
    return years


def type_score(
    posterior: TypePosterior, *, years: Sequence[int], documents_sampled: int, candidates_found: int
) -> TypeScore:
    """A type's score record: number and interval only with a sufficient record."""
    sufficient = posterior.sufficient
    confidence = assess_confidence(
        n_checked=posterior.n,
        n_documents=posterior.documents,
        interval_width=posterior.interval_high - posterior.interval_low if sufficient else None,
        years=years,
        documents_sampled=documents_sampled,
        candidates_found=candidates_found,
    )
    return TypeScore(
        claim_type=posterior.claim_type,
        n=posterior.n,
        sum_values=posterior.sum_values,
        score=posterior.mean if sufficient else None,
        interval_low=posterior.interval_low if sufficient else None,
        interval_high=posterior.interval_high if sufficient else None,
        insufficient_record=not sufficient,
        documents=posterior.documents,
        confidence=confidence.level,
        confidence_reasons=confidence.reasons,
        prior=posterior.prior,
    )


def overall_score(
    overall: OverallPosterior,
    *,
    documents: int,
    years: Sequence[int],
    documents_sampled: int,
    candidates_found: int,
) -> OverallScore:
    """The overall score record with its confidence."""
    width = (
        overall.interval_high - overall.interval_low
        if overall.interval_high is not None and overall.interval_low is not None
        else None
    )
    confidence = assess_confidence(
        n_checked=overall.n,
        n_documents=documents,
        interval_width=width,
        years=years,
        documents_sampled=documents_sampled,
        candidates_found=candidates_found,
    )
    return OverallScore(
        n=overall.n,
        score=overall.mean,
        interval_low=overall.interval_low,
        interval_high=overall.interval_high,
        insufficient_record=not overall.sufficient,
        confidence=confidence.level,
        confidence_reasons=confidence.reasons,
        types_included=list(overall.types_included),
        documents=documents,
        draws=overall.draws,
        seed=overall.seed,
    )


# --- The report ------------------------------------------------------------------------------


def model_notice(*, offline: bool, rehearsal: bool) -> str:
    """The notice every rendering of a report carries when no live model made it."""
    if offline:
        return OFFLINE_NOTICE
    return REHEARSAL_NOTICE if rehearsal else ""


def refused_report(
    coverage: CoverageDecision,
    *,
    subject_name: str,
    clock: Clock,
    method_version: str,
    offline: bool,
    rehearsal: bool = False,
) -> Report:
    """[M] step 1: a subject that may not be covered gets a report that says why and
    nothing else: no candidates, claims or scores."""
    now = clock.now()
    report = Report(
        method_version=method_version,
        id="",
        subject_id=coverage.subject_id,
        subject_name=subject_name,
        covered=False,
        coverage_reasons=list(coverage.reasons),
        models_used={"decide_coverage": coverage.decided_by},
        offline_rules=offline,
        needs_live_providers=coverage.needs_live_providers,
        rehearsal=rehearsal,
        offline_notice=model_notice(offline=offline, rehearsal=rehearsal),
        generated_at=now,
        served_until=served_until(now),
    )
    return _sealed(report)


def _claim_sort_key(claim: Claim) -> tuple[int, str, str]:
    return (CLAIM_TYPES.index(claim.claim_type), claim.document_id, claim.id)


def build_report(
    *,
    subject_id: str,
    subject_name: str,
    coverage: CoverageDecision,
    candidates: Sequence[CandidateDocument],
    selections: Sequence[DocumentSelection],
    statements: Sequence[Statement],
    dropped: Sequence[DroppedStatement],
    claims: Sequence[Claim],
    samples: Sequence[SampleMembership],
    criteria: Sequence[ResolutionCriteria],
    evidence: Sequence[EvidenceItem],
    verdicts: Sequence[ClaimVerdict],
    responses: Sequence[SubjectResponse],
    rulings: Sequence[StewardRuling],
    prior_lookup: PriorLookup | None,
    models_used: dict[str, str],
    offline: bool,
    clock: Clock,
    method_version: str,
    rehearsal: bool = False,
    document_reads: Sequence[DocumentRead] = (),
    peer_prior_as_of: datetime | None = None,
) -> Report:
    """[M] step 9: "Score (next section) and store the report". Steward rulings are applied
    to the verdicts before anything is scored; the prior for each type comes from
    ``prior_lookup`` (default prior 50 without one), fixed before any score is computed;
    ``peer_prior_as_of`` is the cutoff of the peer snapshot it reads, recorded on the
    report (``reliability_core.scores.peers``). A refused subject gives ``refused_report``."""
    if not coverage.covered:
        return refused_report(
            coverage,
            subject_name=subject_name,
            clock=clock,
            method_version=method_version,
            offline=offline,
            rehearsal=rehearsal,
        )
    ordered_claims = sorted(claims, key=_claim_sort_key)
    ruled = apply_rulings(sorted(verdicts, key=lambda v: v.claim_id), rulings)
    checked = checked_claims(ordered_claims, samples, ruled)
    claims_by_id = {c.id: c for c in ordered_claims}
    doc_years: dict[str, int] = {c.id: c.year for c in candidates if c.year is not None}
    doc_years.update({s.document_id: s.year for s in selections if s.year is not None})
    documents_sampled = len({s.document_id for s in selections})
    candidates_found = len({c.id for c in candidates})

    posteriors = [type_posterior(t, checked, prior_for(t, prior_lookup)) for t in CLAIM_TYPES]
    type_scores = [
        type_score(
            p,
            years=_years([c for c in checked if c.claim_type == p.claim_type], claims_by_id, doc_years),
            documents_sampled=documents_sampled,
            candidates_found=candidates_found,
        )
        for p in posteriors
    ]
    overall = overall_score(
        overall_posterior(posteriors, seed=OVERALL_INTERVAL_SEED, draws=OVERALL_INTERVAL_DRAWS),
        documents=len({c.document_id for c in checked}),
        years=_years(checked, claims_by_id, doc_years),
        documents_sampled=documents_sampled,
        candidates_found=candidates_found,
    )

    membership = {s.claim_id: s for s in samples}
    verdict_by_claim = {v.claim_id: v for v in ruled}
    first_criteria: dict[str, ResolutionCriteria] = {}
    for crit in sorted(criteria, key=lambda c: (c.written_at, c.id)):
        first_criteria.setdefault(crit.claim_id, crit)  # never rewritten: the first one stands
    entries: list[dict[str, object]] = []
    not_scored: Counter[str] = Counter()
    for claim in ordered_claims:
        entry = claim_entry(
            claim,
            membership=membership.get(claim.id),
            criteria=first_criteria.get(claim.id),
            evidence=[e for e in evidence if e.claim_id == claim.id],
            verdict=verdict_by_claim.get(claim.id),
            responses=[r for r in responses if r.claim_id == claim.id],
            rulings=[r for r in rulings if r.claim_id == claim.id],
        )
        reason = entry["not_scored_reason"]
        if isinstance(reason, str):
            not_scored[reason] += 1
        entries.append(entry)

    now = clock.now()
    report = Report(
        method_version=method_version,
        id="",
        subject_id=subject_id,
        subject_name=subject_name,
        covered=True,
        coverage_reasons=list(coverage.reasons),
        type_scores=type_scores,
        overall=overall,
        brier=brier_score(ordered_claims, samples, ruled),
        checkable_share=checkable_share(statements, claims),
        counts=claim_counts(statements, dropped, claims, samples, ruled, document_reads),
        documents_sampled=documents_sampled,
        candidates_found=candidates_found,
        claims=entries,
        models_used=dict(sorted(models_used.items())),
        offline_rules=offline,
        rehearsal=rehearsal,
        offline_notice=model_notice(offline=offline, rehearsal=rehearsal),
        not_scored=dict(sorted(not_scored.items())),
        peer_prior_as_of=peer_prior_as_of,
        generated_at=now,
        served_until=served_until(now),
    )
    return _sealed(report)
