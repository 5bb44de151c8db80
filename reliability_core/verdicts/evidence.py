"""Step 7: gather evidence ([M] step 7; [R] "Sources it accepts").

"A research step searches the web for dated evidence, preferring sources
independent of the subject. It reads the pages itself, respecting each site's
robots.txt; a site that asks for more than 30 seconds between requests is
skipped rather than fetched early. It looks for evidence for and against
equally. Every evidence quote is checked mechanically against the fetched
page. Evidence from the claim's own source document is never used, including
copies of it at other addresses and reports that only repeat the claim: a
claim cannot be checked against itself."

The flow: the "plan_research" step writes separate queries for and against;
each query goes through the recording search (so every URL used was returned
by search); each returned page is opened through the safe fetcher (robots and
crawl-delay skips happen there and come back as the snapshot's outcome); the
source policy classes the page; the "read_evidence" step proposes dated
quotes with observed values and stance; code verifies every quote against the
fetched text and applies the exclusion rules. Excluded items are kept, with
their reasons, so a report can show what was set aside and why.

This module is the research itself (plan, search both sides, open, read); the
rules over one page or one proposed quote are in ``evidence_rules``, the rule
that one story counts once in ``duplicates``, and which of the stored items a
verdict may rest on in ``usable_evidence``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from reliability_core.clock import Clock
from reliability_core.constants import (
    EVIDENCE_MAX_PAGES_PER_CLAIM,
    EVIDENCE_RESULTS_PER_QUERY,
    PASSAGE_MAX_CHARS,
)
from reliability_core.models.base import ClaimType, Record, SourceClass
from reliability_core.models.claims import Claim, CriteriaLevels, NumericCriteria, ResolutionCriteria
from reliability_core.models.documents import PageSnapshot, SearchResultSet
from reliability_core.models.subjects import RegistryEntry
from reliability_core.models.verdicts import EvidenceItem
from reliability_core.providers.assignment import limits_for
from reliability_core.providers.base import ModelGateway, SearchQuery
from reliability_core.providers.errors import ItemFailure
from reliability_core.providers.failures import ModelFailure, record_failure
from reliability_core.subjects.candidates import SearchLike, urls_returned_by_search
from reliability_core.verdicts.duplicates import copies_in_keeping_order, group_same_story, mark_same_story
from reliability_core.verdicts.evidence_rules import (
    ReadItem,
    Side,
    evidence_item,
    own_source_of,
    own_source_reason,
    page_exclusion_reason,
)
from reliability_core.verdicts.passages import PagePassages, passages_for_claim
from reliability_core.verdicts.sources import (
    SourceClassification,
    SourcePolicy,
    classify_source,
    default_source_policy,
    names_of,
    subject_domains,
)
from reliability_core.verdicts.steering import SteeringResult, detect_steering, detect_steering_with_model
from reliability_core.web.fetch import Fetcher
from reliability_core.web.urls import canonical_url

STEP_PLAN_RESEARCH = "plan_research"
STEP_READ_EVIDENCE = "read_evidence"


# --- model step inputs and outputs ------------------------------------------------------


class PlanResearchInput(BaseModel):
    """Input of "plan_research": the claim restatement and its frozen criteria only."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    restatement: str
    claim_type: ClaimType
    made_on: date | None
    deadline: date | None
    judge_at: date
    levels: CriteriaLevels
    numeric: NumericCriteria | None


class PlanResearchOutput(BaseModel):
    """Separate queries for each side, so both are looked for equally."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    queries_for: list[str] = Field(description="Queries for evidence that the claim held")
    queries_against: list[str] = Field(
        description="Queries for evidence that it did not (delays, cancellations, misses, lower figures)"
    )


class ReadEvidenceInput(BaseModel):
    """Input of "read_evidence": one fetched page and the claim it may bear on."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    # The claim's part, the same for every page read about it: sent first and cached per claim
    # (``ModelRequest.shared_input_fields``), so ~10 reads of a claim pay for it once.
    SHARED_INPUT_FIELDS: ClassVar[tuple[str, ...]] = (
        "restatement",
        "claim_type",
        "judge_at",
        "levels",
        "numeric",
        "subject_names",
    )

    restatement: str
    claim_type: ClaimType
    judge_at: date
    levels: CriteriaLevels
    numeric: NumericCriteria | None
    page_url: str
    page_title: str
    page_published: date | None
    page_text: str = Field(
        description="The passages of the page that bear on the claim (reliability_core.verdicts.passages), gaps marked [...]"
    )
    subject_names: list[str] = Field(
        default_factory=list,
        description="The subject's name and aliases, to tell it apart from what the claim is about",
    )


class ReadEvidenceOutput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    items: list[ReadItem]


# --- records --------------------------------------------------------------------------


class PageSkip(Record):
    """A returned URL that gave no evidence, and why (own source, fetch outcome, class, copy)."""

    url: str
    side: Side
    reason: str
    snapshot_id: str | None = None
    source_class: SourceClass | None = None


class EvidenceResult(Record):
    """Everything step 7 produced for one claim."""

    claim_id: str
    gathered_at: datetime | None = None  # when step 7 ran for this claim
    items: list[EvidenceItem]
    result_sets: list[SearchResultSet]
    snapshots: list[PageSnapshot]
    skipped: list[PageSkip] = Field(default_factory=list)
    queries_for: list[str] = Field(default_factory=list)
    queries_against: list[str] = Field(default_factory=list)
    # Pages whose evidence reaches the judges: a finding here blocks the verdict from display.
    steering: SteeringResult = Field(default_factory=lambda: SteeringResult(detected=False))
    # Every other page read (rejected, copies, nothing admitted): recorded, not blocking,
    # since the judges never see those pages.
    steering_elsewhere: SteeringResult = Field(default_factory=lambda: SteeringResult(detected=False))
    # A model failure that stopped the research for this claim (no frozen criteria, or the
    # research planner failed): the claim is then recorded unresolvable with this reason.
    failure: ModelFailure | None = None
    notes: list[str] = Field(default_factory=list)  # e.g. a page whose text was cut to the reader's limit


@dataclass(frozen=True)
class _Opened:
    """A returned URL after opening: a skip with its reason, or a page for the reader."""

    url: str
    side: Side
    snapshot: PageSnapshot | None = None
    skip: PageSkip | None = None
    search_date: date | None = None
    source: SourceClassification | None = None
    passages: PagePassages | None = None
    body: str | None = None

    @property
    def snapshot_id(self) -> str | None:
        return self.snapshot.id if self.snapshot is not None else None

    @property
    def source_class(self) -> SourceClass | None:
        return self.source.source_class if self.source is not None else None


def interleave_sides(
    for_urls: Sequence[tuple[str, date | None]],
    against_urls: Sequence[tuple[str, date | None]],
    limit: int = EVIDENCE_MAX_PAGES_PER_CLAIM,
) -> list[tuple[str, Side, date | None]]:
    """[M] step 7: "It looks for evidence for and against equally": pages are taken
    alternately from each side's results, one page once, up to ``limit``."""
    seen: set[str] = set()
    out: list[tuple[str, Side, date | None]] = []
    queues: list[tuple[Side, list[tuple[str, date | None]]]] = [
        ("for", list(for_urls)),
        ("against", list(against_urls)),
    ]
    while len(out) < limit and any(queue for _, queue in queues):
        for side, queue in queues:
            while queue:
                url, published = queue.pop(0)
                key = canonical_url(url)
                if key in seen:
                    continue
                seen.add(key)
                out.append((url, side, published))
                break
            if len(out) >= limit:
                break
    return out


# --- the step ---------------------------------------------------------------------------


async def search_both_sides(
    *,
    claim: Claim,
    criteria: ResolutionCriteria,
    gateway: ModelGateway,
    search: SearchLike,
    method_version: str,
) -> tuple[PlanResearchOutput, list[SearchResultSet]]:
    """[M] step 7 "It looks for evidence for and against equally": the "plan_research" step
    writes separate queries for each side; every query's result set is kept (purpose
    ``evidence:<claim id>:for`` or ``:against``), so every URL used can be shown to come from search."""
    plan = await gateway.run(
        STEP_PLAN_RESEARCH,
        PlanResearchInput(
            restatement=claim.restatement,
            claim_type=claim.claim_type,
            made_on=claim.made_on,
            deadline=claim.deadline,
            judge_at=criteria.judge_at,
            levels=criteria.levels,
            numeric=criteria.numeric,
        ),
        PlanResearchOutput,
    )
    wanted = [
        (side, query)
        for side, queries in (("for", plan.queries_for), ("against", plan.queries_against))
        for query in dict.fromkeys(q.strip() for q in queries if q.strip())
    ]
    # Every query at once; the result sets keep the plan's order.
    result_sets: list[SearchResultSet] = list(
        await asyncio.gather(
            *(
                search.search(
                    claim.subject_id,
                    f"evidence:{claim.id}:{side}",
                    SearchQuery(query=query, max_results=EVIDENCE_RESULTS_PER_QUERY),
                    method_version,
                )
                for side, query in wanted
            )
        )
    )
    return plan, result_sets


def side_of(result_set: SearchResultSet) -> Side:
    """The side a result set was searched for, from its purpose."""
    return "against" if result_set.purpose.endswith(":against") else "for"


async def gather_evidence(
    *,
    claim: Claim,
    criteria: ResolutionCriteria,
    own_source: PageSnapshot | None,
    gateway: ModelGateway,
    search: SearchLike,
    fetcher: Fetcher,
    clock: Clock,
    method_version: str,
    subject: RegistryEntry | None = None,
    policy: SourcePolicy | None = None,
    model_steering_check: bool = False,
) -> EvidenceResult:
    """[M] step 7 for one claim. Only URLs the search returned are opened; every quote is
    verified against the page the fetcher read; excluded items are kept with reasons.
    ``subject`` gives the subject's own domains and names (its pages are its records or its
    ordinary statements, never independent); ``model_steering_check`` adds the
    "detect_steering" model step to the rule-based steering check of the evidence pages."""
    policy = policy or default_source_policy()
    names = names_of(subject)
    try:
        plan, result_sets = await search_both_sides(
            claim=claim, criteria=criteria, gateway=gateway, search=search, method_version=method_version
        )
    except ItemFailure as exc:
        return failed_research(
            claim, record_failure(exc, subject_id=claim.subject_id, item_kind="claim", item_id=claim.id), clock
        )
    reader_limit = limits_for(STEP_READ_EVIDENCE).max_input_chars
    notes: list[str] = []
    returned = urls_returned_by_search(result_sets)
    own = own_source_of(claim, own_source)
    by_side: dict[Side, list[tuple[str, date | None]]] = {"for": [], "against": []}
    for result_set in result_sets:
        by_side[side_of(result_set)].extend((r.url, r.published_date) for r in result_set.results)
    snapshots: list[PageSnapshot] = []
    skipped: list[PageSkip] = []
    items: list[EvidenceItem] = []
    page_texts: dict[str, str] = {}

    async def open_page(url: str, side: Side, search_date: date | None) -> _Opened:
        """One returned URL: fetch, classify, exclude, or cut to the passages the reader
        would get. No model call: pages are opened at once, then grouped by story."""
        if canonical_url(url) not in returned:  # defensive: the list is built from the result sets
            return _Opened(url=url, side=side)
        same_address = own_source_reason(own, url=url)
        if same_address:
            return _Opened(url=url, side=side, skip=PageSkip(url=url, side=side, reason=same_address))
        snapshot = await fetcher.snapshot(url, method_version)
        page_url = snapshot.final_url or snapshot.url
        body = snapshot.main_text or snapshot.text
        source = classify_source(
            page_url,
            title=snapshot.title,
            text=body,
            own_domains=subject_domains(subject),
            subject_names=names,
            policy=policy,
        )
        why_not = page_exclusion_reason(snapshot, own=own, source=source)
        if why_not:
            rejected_class = source.source_class if snapshot.outcome == "ok" and not source.accepted else None
            skip = PageSkip(url=url, side=side, reason=why_not, snapshot_id=snapshot.id, source_class=rejected_class)
            return _Opened(url=url, side=side, snapshot=snapshot, skip=skip)
        passages = passages_for_claim(body, claim.restatement, names, max_chars=min(reader_limit, PASSAGE_MAX_CHARS))
        if not passages.bears_on_claim:
            # Recorded, never silent: the page was opened and classed, but no sentence of it
            # shares the claim's terms, so the reader is not asked about it.
            skip = PageSkip(
                url=url,
                side=side,
                reason="no sentence shares the claim's key terms: not sent to the evidence reader",
                snapshot_id=snapshot.id,
            )
            return _Opened(url=url, side=side, snapshot=snapshot, skip=skip)
        return _Opened(
            url=url, side=side, snapshot=snapshot, search_date=search_date, source=source, passages=passages, body=body
        )

    async def read_page(page: _Opened) -> tuple[PageSkip | None, list[EvidenceItem], list[str]]:
        """The evidence reader on one opened page: its items, or a recorded skip."""
        snapshot, source, passages = page.snapshot, page.source, page.passages
        assert snapshot is not None and source is not None and passages is not None
        page_url = snapshot.final_url or snapshot.url
        # Quotes are still verified against the whole stored text; the cut is recorded.
        cut = [passages.note(page_url)] if passages.sent_chars < passages.page_chars else []
        try:
            read = await gateway.run(
                STEP_READ_EVIDENCE,
                ReadEvidenceInput(
                    restatement=claim.restatement,
                    claim_type=claim.claim_type,
                    judge_at=criteria.judge_at,
                    levels=criteria.levels,
                    numeric=criteria.numeric,
                    page_url=page_url,
                    page_title=snapshot.title,
                    page_published=page.search_date,
                    page_text=passages.text,
                    subject_names=names,
                ),
                ReadEvidenceOutput,
            )
        except ItemFailure as exc:
            # The failure stays with this page: it gives no evidence, the others still do.
            failure = record_failure(exc, subject_id=claim.subject_id, item_kind="page", item_id=page.url)
            skip = PageSkip(
                url=page.url, side=page.side, reason=f"{failure.label()}: {failure.detail}", snapshot_id=snapshot.id
            )
            return skip, [], cut
        found = [
            evidence_item(
                claim=claim,
                snapshot=snapshot,
                url=page.url,
                side=page.side,
                search_date=page.search_date,
                source=source,
                proposed=proposed,
                method_version=method_version,
                subject_names=names,
            )
            for proposed in read.items
        ]
        return None, found, cut

    opened = await asyncio.gather(
        *(open_page(url, side, when) for url, side, when in interleave_sides(by_side["for"], by_side["against"]))
    )
    # [R] "The same story copied on several sites counts once": of pages that are copies of one
    # story (``duplicates.group_same_story``, the grouping ``mark_same_story`` applies after
    # reading), only the one that would count is read. The copies go to the reader in the
    # order that decides which counts (``duplicates.copies_in_keeping_order``); the next copy
    # only when the previous gave no admitted item, so the story's kept page is the one
    # ``mark_same_story`` would keep had every copy been read, and the others are recorded
    # skips instead of paid reads whose items would be excluded.
    readable = [index for index, page in enumerate(opened) if page.passages is not None]
    stories = group_same_story({str(index): opened[index].body or "" for index in readable})
    outcomes: dict[int, tuple[PageSkip | None, list[EvidenceItem], list[str]]] = {}

    async def read_story(story: list[str]) -> None:
        classes = {key: opened[int(key)].source_class for key in story}
        order = [int(key) for key in copies_in_keeping_order(story, classes)]
        kept: int | None = None
        for index in order:
            if kept is not None:
                keeper = opened[kept].snapshot
                assert keeper is not None
                skip = PageSkip(
                    url=opened[index].url,
                    side=opened[index].side,
                    reason=f"same story as page {keeper.id} ({keeper.final_url or keeper.url}): counts once, "
                    "not sent to the evidence reader",
                    snapshot_id=opened[index].snapshot_id,
                )
                outcomes[index] = (skip, [], [])
                continue
            outcomes[index] = await read_page(opened[index])
            if any(not item.excluded for item in outcomes[index][1]):
                kept = index

    # The first read writes the claim's part of the reader's input to the vendor's prompt
    # cache (``ReadEvidenceInput.SHARED_INPUT_FIELDS``); the other pages are sent once it has
    # been answered, since a cache entry can be read only after the call that writes it.
    if stories:
        await read_story(stories[0])
    await asyncio.gather(*(read_story(story) for story in stories[1:]))
    for index, page in enumerate(opened):
        if page.snapshot is not None:
            snapshots.append(page.snapshot)
        skip, found, cut = outcomes.get(index, (page.skip, [], []))
        if skip is not None:
            skipped.append(skip)
        if index in outcomes and page.snapshot is not None and page.body is not None and skip is None:
            page_texts[page.snapshot.id] = page.body
        notes.extend(cut)
        items.extend(found)

    items = mark_same_story(_dedupe_items(items), page_texts)
    admitted_pages = {item.snapshot_id for item in items if not item.excluded}
    read_pages = [snap for snap in snapshots if snap.outcome == "ok"]
    steering_texts = {
        snap.final_url or snap.url: snap.text for snap in read_pages if snap.id in admitted_pages
    }
    other_texts = {
        snap.final_url or snap.url: snap.text for snap in read_pages if snap.id not in admitted_pages
    }
    # Hidden text found in the raw HTML at fetch time ([#16]) is screened with the page.
    hidden = {snap.final_url or snap.url: snap.hidden_texts for snap in read_pages if snap.hidden_texts}
    hidden_admitted = {url: found for url, found in hidden.items() if url in steering_texts}
    hidden_other = {url: found for url, found in hidden.items() if url not in steering_texts}
    steering = detect_steering(steering_texts, hidden=hidden_admitted)
    if model_steering_check and steering_texts:
        try:
            steering = await detect_steering_with_model(steering_texts, gateway, hidden=hidden_admitted)
        except ItemFailure as exc:
            label = record_failure(exc, subject_id=claim.subject_id, item_kind="claim", item_id=claim.id).label()
            notes.append(f"{label}: the rule-based steering check stands alone")
    return EvidenceResult(
        claim_id=claim.id,
        gathered_at=clock.now(),
        items=items,
        result_sets=result_sets,
        snapshots=snapshots,
        skipped=skipped,
        queries_for=list(plan.queries_for),
        queries_against=list(plan.queries_against),
        steering=steering,
        steering_elsewhere=detect_steering(other_texts, hidden=hidden_other),
        notes=notes,
    )


def failed_research(claim: Claim, failure: ModelFailure, clock: Clock) -> EvidenceResult:
    """The research record of a claim whose research a model failure stopped
    (its criteria could not be written, or the research planner failed): no
    evidence, and the failure that the verdict step records as the reason."""
    return EvidenceResult(
        claim_id=claim.id,
        gathered_at=clock.now(),
        items=[],
        result_sets=[],
        snapshots=[],
        failure=failure,
    )


def _dedupe_items(items: Sequence[EvidenceItem]) -> list[EvidenceItem]:
    """The same quote from the same page is one item, even when the reader proposed it twice."""
    seen: set[str] = set()
    out: list[EvidenceItem] = []
    for item in items:
        if item.id not in seen:
            seen.add(item.id)
            out.append(item)
    return out
