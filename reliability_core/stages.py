"""The method's table of contents: the nine steps in order, and the function that runs each.

Read this first, then one folder per phase. Each Dagster asset calls exactly one function
named here; the steps that work over many documents or claims are composed in this module
(each runs its independent calls concurrently; the gateway bounds them per provider), the
others are called straight from their phase:

====  ==========================================  ===============================================
step  what the method says                        the function that runs it
====  ==========================================  ===============================================
1     confirm who the subject is; may it be       ``subjects.coverage.assess_coverage``
      covered
2     list 20-40 candidate documents where the    ``subjects.candidates.list_candidates``
      subject speaks (reused for 90 days)
3     select documents by rule                    ``subjects.selection.rank_documents``
4     extract the subject's statements word for   ``read_documents``: the chosen pages fetched,
      word; check, attribute, type, restate       ``extract_sample`` (``claims.extraction.extract_document``
                                                  per document, replacements by ``subjects.selection``),
                                                  then the pages stored, private sentences masked
5     triage; sample up to 25 per type            ``claims.triage.triage_claim``,
                                                  ``claims.sampling.sample_claims``
6     freeze resolution criteria before research  ``claims.criteria.freeze_criteria``
7     gather dated evidence for and against       ``research_claims`` (``verdicts.evidence.gather_evidence``
                                                  per claim)
8     two blind judges; code decides what is      ``judge_claims`` (``verdicts.judging.judge_claim``,
      shown                                       then ``verdicts.gates.decide_display``)
9     score each type; the report                 ``scores.publication.report_from_stored``
                                                  (``scores.report.build_report``),
                                                  ``scores.publication.publish_report``
====  ==========================================  ===============================================

Around the steps: ``stewardship`` (the steward queue, rulings and re-scores) and
``validation`` (gold sets, backtests, stability). Below the phases: ``text``, ``web``,
``providers``, ``warehouse`` and ``models``; ``wiring`` chooses the live providers or the
offline stand-in (``stand_in``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from pydantic import Field

from reliability_core.claims.extraction import (
    DocumentRead,
    ExtractionResult,
    extract_document,
    has_subject_statements,
)
from reliability_core.clock import Clock
from reliability_core.ids import stable_id
from reliability_core.models import (
    CandidateDocument,
    Claim,
    ClaimVerdict,
    DocumentSelection,
    EvidenceItem,
    PageSnapshot,
    PrivateSentenceMark,
    Record,
    RegistryEntry,
    ResolutionCriteria,
    SearchResultSet,
)
from reliability_core.providers.base import ModelGateway, WithholdsPrivateText
from reliability_core.providers.failures import ModelFailure
from reliability_core.providers.recording import RecordingSearch
from reliability_core.subjects.candidates import (
    SearchLike,
    UrlNotReturnedBySearch,
    candidate_queries,
    urls_not_returned_by_search,
)
from reliability_core.subjects.selection import finalise_sample, next_documents_to_check
from reliability_core.text.privacy import (
    mask_page_snapshot,
    mask_private_in_results,
    mask_private_statements,
)
from reliability_core.text.private_sentences import private_sentence_fingerprints
from reliability_core.verdicts.evidence import EvidenceResult, failed_research, gather_evidence
from reliability_core.verdicts.gates import decide_display
from reliability_core.verdicts.judging import judge_claim, model_failure_verdict
from reliability_core.verdicts.steering import SteeringResult
from reliability_core.verdicts.usable_evidence import usable_view
from reliability_core.warehouse import Ledger
from reliability_core.warehouse.tables import PRIVATE_SENTENCES_LEDGER
from reliability_core.web.fetch import Fetcher


class SampleExtraction(Record):
    """The final document sample and the extraction of every document checked on the way."""

    sample: list[DocumentSelection]
    results: list[ExtractionResult]
    checked: dict[str, bool] = Field(default_factory=dict)
    rounds: int = 0  # extraction rounds: 1 + one per wave of replacements
    # How every checked document was read (chunks, a cut, a model failure), sampled or replaced.
    reads: list[DocumentRead] = Field(default_factory=list)
    # Every checked document's extraction, sampled or replaced: what its privacy decisions
    # mask in the page before it is stored (``read_documents``). Never stored itself.
    checked_results: list[ExtractionResult] = Field(default_factory=list, exclude=True, repr=False)
    # The stored search results, when a statement found private at this step was in a
    # title or snippet: re-written masked (``text.privacy.mask_private_in_results``).
    result_sets: list[SearchResultSet] | None = None


# Told (done, total) as each item of a long step finishes, so the run page can say where
# the step is ([#18] "Long steps say where they are"). Never affects a result.
Progress = Callable[[int, int], None]
_T = TypeVar("_T")


async def _gather_counted(awaitables: Sequence[Awaitable[_T]], progress: Progress | None, total: int) -> list[_T]:
    """``asyncio.gather`` in order, reporting each completion to ``progress``."""
    done = 0

    async def counted(awaitable: Awaitable[_T]) -> _T:
        nonlocal done
        result = await awaitable
        done += 1
        if progress is not None:
            progress(done, total)
        return result

    return list(await asyncio.gather(*(counted(a) for a in awaitables)))


def refuse_urls_not_returned(urls: Sequence[str], result_sets: Sequence[SearchResultSet]) -> None:
    """[M] step 2: "A URL that search did not actually return is never used."
    Raised, not counted: every URL reaching a stage comes from stored search
    results by construction, so one that does not is a defect."""
    missing = urls_not_returned_by_search(urls, result_sets)
    if missing:
        raise UrlNotReturnedBySearch(f"URLs not returned by any stored search: {missing[:5]}")


async def fetch_documents(
    ranking: Sequence[DocumentSelection],
    result_sets: Sequence[SearchResultSet],
    fetcher: Fetcher,
    ledger: Ledger,
    subject_id: str,
    method_version: str,
    ledger_table: str,
) -> list[PageSnapshot]:
    """Fetch every ranked candidate (concurrently), one snapshot per URL, without storing
    anything: a snapshot already in the ledger for a URL is reused, so a re-run reads
    exactly the page text it read before (the ledger keeps the first snapshot of each URL)."""
    refuse_urls_not_returned([s.url for s in ranking], result_sets)
    stored = {s.url: s for s in ledger.read_all(ledger_table, subject_id, PageSnapshot)}

    async def one(url: str) -> PageSnapshot:
        if url in stored:
            return stored[url]
        return await fetcher.snapshot(url, method_version)

    urls = list(dict.fromkeys(s.url for s in ranking))
    return list(await asyncio.gather(*(one(u) for u in urls)))


def stored_snapshots(
    ranking: Sequence[DocumentSelection], ledger: Ledger, subject_id: str, ledger_table: str
) -> list[PageSnapshot]:
    """The snapshot step 4 stored for every ranked URL (``read_documents``), one per URL
    in ranking order. A ranked URL without one is a defect: step 4 stores every page it
    fetched, so nothing is fetched here and nothing is stored unread."""
    stored = {s.url: s for s in ledger.read_all(ledger_table, subject_id, PageSnapshot)}
    urls = list(dict.fromkeys(s.url for s in ranking))
    missing = [u for u in urls if u not in stored]
    if missing:
        raise ValueError(f"ranked pages not stored by step 4: {missing[:5]}")
    return [stored[u] for u in urls]


async def read_documents(
    *,
    ranking: Sequence[DocumentSelection],
    result_sets: Sequence[SearchResultSet],
    candidates: Sequence[CandidateDocument],
    fetcher: Fetcher,
    ledger: Ledger,
    ledger_table: str,
    entry: RegistryEntry,
    gateway: ModelGateway,
    clock: Clock,
    method_version: str,
    progress: Progress | None = None,
    search: RecordingSearch | None = None,
) -> SampleExtraction:
    """[M] steps 3-4 as one pass over the pages: fetch the ranked documents, extract the
    sample (``extract_sample``), and only then store the page snapshots, so that "Statements
    about anyone's private life ... are dropped before anything is stored" holds for what
    the classifier finds private as well as the keyword rule: the sentences holding every
    statement dropped as private are masked in the snapshot before its first write
    (``text.privacy.mask_private_statements``), and in the model answers already cached
    (``providers.gateway.StepGateway.withhold_private``) and the candidate searches' cached
    answers (``providers.recording.RecordingSearch.withhold_private``, when ``search`` is
    given); stored search results holding them come back masked in ``result_sets``, for the
    caller to store again."""
    snapshots = await fetch_documents(
        ranking, result_sets, fetcher, ledger, entry.id, method_version, ledger_table
    )
    extraction = await extract_sample(
        ranking=ranking,
        candidates=candidates,
        snapshots=snapshots,
        entry=entry,
        gateway=gateway,
        clock=clock,
        method_version=method_version,
        progress=progress,
    )
    url_of = {c.id: c.url for c in candidates}
    private: dict[str, list[str]] = {}
    for result in extraction.checked_results:
        private.setdefault(url_of[result.document_id], []).extend(result.private_quotes)
    keep_new_snapshots(
        ledger, ledger_table, entry.id, [mask_private_statements(s, private.get(s.url, [])) for s in snapshots]
    )
    # Fingerprints (no text) of the sentences just masked, so a copy of the page read later
    # under another URL is masked too (``web.snapshots.MaskingFetcher``).
    remember_private_sentences(
        ledger,
        entry.id,
        {f for s in snapshots for f in private_sentence_fingerprints(s.text, private.get(s.url, []))},
        method_version,
    )
    withheld = [quote for quotes in private.values() for quote in quotes]
    if withheld and isinstance(gateway, WithholdsPrivateText):
        gateway.withhold_private(withheld)
    if withheld and search is not None:
        # The candidate searches' cached answers may hold the sentence in a snippet.
        search.withhold_private([query for _, query in candidate_queries(entry)], withheld)
    masked_results = mask_private_in_results(result_sets, withheld)
    if masked_results != list(result_sets):
        return extraction.model_copy(update={"result_sets": masked_results})
    return extraction


async def extract_sample(
    *,
    ranking: Sequence[DocumentSelection],
    candidates: Sequence[CandidateDocument],
    snapshots: Sequence[PageSnapshot],
    entry: RegistryEntry,
    gateway: ModelGateway,
    clock: Clock,
    method_version: str,
    progress: Progress | None = None,
) -> SampleExtraction:
    """[M] steps 3-4: extract statements from the initial sample; "A document
    counts only if it contains statements by the subject"; a document without
    any is replaced by the next by the same rule, until the sample is decided."""
    by_id = {c.id: c for c in candidates}
    by_url = {s.url: s for s in snapshots}
    checked: dict[str, bool] = {}
    results: dict[str, ExtractionResult] = {}
    rounds = 0
    extracted = 0

    def counted(done: int, _: int) -> None:
        if progress is not None:
            progress(extracted + done, extracted + len(todo))  # the sample grows by rule as documents fail

    while todo := next_documents_to_check(ranking, checked):
        rounds += 1
        done = await _gather_counted(
            [
                extract_document(
                    document=by_id[item.document_id],
                    snapshot=by_url[item.url],
                    entry=entry,
                    gateway=gateway,
                    clock=clock,
                    method_version=method_version,
                )
                for item in todo
            ],
            counted,
            len(todo),
        )
        extracted += len(todo)
        for item, result in zip(todo, done, strict=True):
            results[item.document_id] = result
            checked[item.document_id] = has_subject_statements(result)
    sample = finalise_sample(ranking, checked)
    sampled = {s.document_id for s in sample}
    return SampleExtraction(
        sample=sample,
        results=[results[d] for d in results if d in sampled],
        checked=checked,
        rounds=rounds,
        reads=[r.read for r in results.values() if r.read is not None],
        checked_results=list(results.values()),
    )


async def research_claims(
    *,
    claims: Sequence[Claim],
    criteria: Sequence[ResolutionCriteria],
    own_sources: Sequence[PageSnapshot],
    entry: RegistryEntry,
    gateway: ModelGateway,
    search: SearchLike,
    fetcher: Fetcher,
    clock: Clock,
    method_version: str,
    model_steering_check: bool = False,
    criteria_failures: Sequence[ModelFailure] = (),
    progress: Progress | None = None,
) -> list[EvidenceResult]:
    """[M] step 7 for every sampled claim, concurrently. Criteria must exist for
    each claim (frozen before any research); a claim without them is a defect,
    unless the criteria writer failed for it (``criteria_failures``): that claim
    gets no research, only the failure, which the verdict step records.
    ``model_steering_check`` adds the ``detect_steering`` model step (live runs)."""
    criteria_by_claim = {c.claim_id: c for c in criteria}
    failure_by_claim = {f.item_id: f for f in criteria_failures}
    missing = [c.id for c in claims if c.id not in criteria_by_claim and c.id not in failure_by_claim]
    if missing:
        raise ValueError(f"research before frozen criteria for claims {missing[:5]}")
    source_by_url = {s.url: s for s in own_sources}

    async def one(claim: Claim) -> EvidenceResult:
        if claim.id not in criteria_by_claim:
            return failed_research(claim, failure_by_claim[claim.id], clock)
        return await gather_evidence(
            claim=claim,
            criteria=criteria_by_claim[claim.id],
            own_source=source_by_url.get(claim.url),
            gateway=gateway,
            search=search,
            fetcher=fetcher,
            clock=clock,
            method_version=method_version,
            subject=entry,
            model_steering_check=model_steering_check,
        )

    return await _gather_counted([one(claim) for claim in claims], progress, len(claims))


async def judge_claims(
    *,
    claims: Sequence[Claim],
    criteria: Sequence[ResolutionCriteria],
    research: Sequence[EvidenceResult],
    gateway: ModelGateway,
    clock: Clock,
    method_version: str,
    progress: Progress | None = None,
) -> list[ClaimVerdict]:
    """[M] step 8 for every sampled claim, concurrently: two blind judges per
    claim (or none, without verified evidence), the method's code rules, the
    reviewer on judge A's verdict (step "review_verdict", [#15] rule 7, inside
    ``judging.judge_claim`` so no path skips it), then the display gates."""
    criteria_by_claim = {c.claim_id: c for c in criteria}
    research_by_claim = {r.claim_id: r for r in research}

    async def one(claim: Claim) -> ClaimVerdict:
        found = research_by_claim.get(claim.id)
        if found is not None and found.failure is not None:
            # A model failure stopped this claim's research: unresolvable, with that reason.
            failed = model_failure_verdict(claim, found.failure, clock, method_version)
            no_steering = SteeringResult(detected=False)
            gate = decide_display(failed, usable_view([]), None, no_steering)
            return failed.model_copy(update={"gate": gate})
        items: list[EvidenceItem] = list(found.items) if found else []
        return await judge_claim(
            claim=claim,
            criteria=criteria_by_claim[claim.id],
            evidence=items,
            gateway=gateway,
            clock=clock,
            method_version=method_version,
            steering=found.steering if found else None,
        )

    return await _gather_counted([one(c) for c in claims], progress, len(claims))



class SnapshotRef(Record):
    """Where a ranked document's snapshot is in the ledger, and how its fetch ended."""

    url: str = Field(description="The ranked document's address")
    snapshot_id: str = Field(description="The page snapshot in the ledger")
    outcome: str = Field(description="How the fetch ended (ok, refused, timeout, http_error, ...)")
    status: int | None = Field(description="The HTTP status, when there was an answer")
    sha256: str | None = Field(description="SHA-256 of the fetched bytes")
    byte_count: int = Field(description="Bytes fetched")
    reason: str = Field(default="", description="Why a fetch was refused or failed, in words")


def snapshot_refs(snapshots: Sequence[PageSnapshot]) -> list[SnapshotRef]:
    return [
        SnapshotRef(
            url=s.url,
            snapshot_id=s.id,
            outcome=s.outcome,
            status=s.status,
            sha256=s.sha256,
            byte_count=s.byte_count,
            reason=s.reason,
        )
        for s in snapshots
    ]


def remember_private_sentences(ledger: Ledger, subject_id: str, fingerprints: set[str], method_version: str) -> int:
    """Append the fingerprints of sentences found private (``text.private_sentences``) to the
    subject's ledger table ``PRIVATE_SENTENCES_LEDGER``: a hash per sentence, never its text."""
    marks = [
        (stable_id("private", subject_id, f), PrivateSentenceMark(id=stable_id("private", subject_id, f),
                                                                  subject_id=subject_id, sha256=f,
                                                                  method_version=method_version))
        for f in sorted(fingerprints)
    ]  # fmt: skip
    if not marks:
        return 0
    return ledger.append(PRIVATE_SENTENCES_LEDGER, subject_id, marks).written


def known_private_sentences(ledger: Ledger, subject_id: str) -> set[str]:
    """Every fingerprint of a private sentence recorded for the subject."""
    return {m.sha256 for m in ledger.read_all(PRIVATE_SENTENCES_LEDGER, subject_id, PrivateSentenceMark)}


def keep_new_snapshots(ledger: Ledger, table: str, subject_id: str, snapshots: Sequence[PageSnapshot]) -> int:
    """Append snapshots not yet in the ledger. The first snapshot of a URL and
    content hash is the record ("so anyone can see exactly what was checked");
    a later read of identical bytes is the same evidence, not a new record.
    Whatever fetcher produced them, they are stored with private-life sentences
    masked ([M] step 4 "dropped before anything is stored"); the SHA-256 of the
    bytes as received stays on the record."""
    new = [
        (s.id, mask_page_snapshot(s))
        for s in snapshots
        if ledger.get(table, subject_id, s.id, PageSnapshot) is None
    ]
    unique = list(dict(new).items())
    return ledger.append(table, subject_id, unique).written
