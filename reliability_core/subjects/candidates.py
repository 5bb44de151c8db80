"""Step 2 of the method: list candidate documents.

"List candidate documents. Web search lists 20 to 40 documents in which the
subject itself speaks: its own writing, interviews, transcripts, and news
reports quoting it. All candidates are saved before any is chosen. A URL that
search did not actually return is never used. The list is stored and reused
for 90 days, so repeat reports draw on the same pool."

Search goes through a recording search (``SearchLike``): every query's result
set is returned as a ``SearchResultSet`` and stored with the listing, so any
later stage can prove that a URL it is about to use was returned by search
(``urls_returned_by_search`` / ``check_url_returned_by_search``).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Protocol
from urllib.parse import urlsplit

from pydantic import Field

from reliability_core.clock import Clock
from reliability_core.constants import (
    CANDIDATE_OWN_SITE_RESULTS,
    CANDIDATE_RESULTS_PER_QUERY,
    CANDIDATES_MAX,
    CANDIDATES_MIN,
)
from reliability_core.ids import stable_id
from reliability_core.lifetimes import CANDIDATES_PURPOSE, candidate_list_is_reusable
from reliability_core.models import CandidateDocument, Record, RegistryEntry, SearchResult, SearchResultSet
from reliability_core.providers.base import SearchQuery
from reliability_core.providers.errors import ItemFailure, ProviderUnreachableError
from reliability_core.providers.failures import ModelFailure, record_failure
from reliability_core.web.urls import canonical_url


class SearchLike(Protocol):
    """The recording search (H2's ``RecordingSearch``): runs a query and returns
    the result set it stored, stamped with subject, purpose and method version."""

    async def search(
        self, subject_id: str, purpose: str, query: SearchQuery, method_version: str
    ) -> SearchResultSet: ...


class CandidateListing(Record):
    """Every candidate found for one subject, saved before any is chosen, with
    the result sets that returned them."""

    subject_id: str
    listed_at: datetime
    method_version: str
    candidates: list[CandidateDocument]
    result_sets: list[SearchResultSet]
    reused: bool = False
    notes: list[str] = Field(default_factory=list)
    # Candidate queries that still failed after their retries: the listing is built from
    # the others, says so in ``notes``, and is not reused (the next run searches again).
    search_failures: list[ModelFailure] = Field(default_factory=list)


class UrlCheck(Record):
    """Whether search returned a URL: a value, so callers can count refusals."""

    url: str
    returned_by_search: bool
    reason: str


class UrlNotReturnedBySearch(ValueError):
    """A stage tried to use a URL that search did not return: a bug, never an outcome."""


# --- URLs ------------------------------------------------------------------------


def urls_returned_by_search(result_sets: Iterable[SearchResultSet]) -> set[str]:
    """ "A URL that search did not actually return is never used."

    Every URL the given result sets returned, as returned and in canonical form.
    """
    urls: set[str] = set()
    for result_set in result_sets:
        for result in result_set.results:
            urls.add(result.url)
            urls.add(canonical_url(result.url))
    return urls


def check_url_returned_by_search(url: str, returned: set[str]) -> UrlCheck:
    """ "A URL that search did not actually return is never used."

    ``returned`` is ``urls_returned_by_search(...)`` over the stored result sets.
    A URL counts as returned when it, or its canonical form, is among them.
    """
    if url in returned or canonical_url(url) in returned:
        return UrlCheck(url=url, returned_by_search=True, reason="returned by a stored search result set")
    return UrlCheck(
        url=url,
        returned_by_search=False,
        reason="search did not return this URL; a URL that search did not actually return is never used",
    )


def assert_url_returned_by_search(url: str, returned: set[str]) -> None:
    """The enforcing form of ``check_url_returned_by_search``: raises
    ``UrlNotReturnedBySearch`` so a stage cannot use the URL by accident."""
    check = check_url_returned_by_search(url, returned)
    if not check.returned_by_search:
        raise UrlNotReturnedBySearch(f"{url}: {check.reason}")


def urls_not_returned_by_search(urls: Iterable[str], result_sets: Iterable[SearchResultSet]) -> list[str]:
    """The URLs among ``urls`` that no stored result set returned (sorted, unique):
    what a Dagster asset check reports as failures."""
    returned = urls_returned_by_search(result_sets)
    return sorted({u for u in urls if not check_url_returned_by_search(u, returned).returned_by_search})


# --- Searches ----------------------------------------------------------------------


class SearchRound(Record):
    """The result sets of a round of queries, and the queries that failed for good."""

    result_sets: list[SearchResultSet]
    failures: list[ModelFailure]


async def search_each(
    search: SearchLike,
    subject_id: str,
    queries: Sequence[tuple[str, SearchQuery]],
    method_version: str,
) -> SearchRound:
    """A search that still fails after its retries stays with its query (issue 26):
    every ``(purpose, query)`` is run at once (order kept); a query whose search
    raises an ``ItemFailure`` (retries exhausted, a permanent error) is recorded
    as a failure of that query and the others go on. Only a provider that answered
    none of the queries fails the step, as an unreachable provider does
    (``ProviderUnreachableError``, which is never caught here)."""

    async def one(purpose: str, query: SearchQuery) -> SearchResultSet | ModelFailure:
        try:
            return await search.search(subject_id, purpose, query, method_version)
        except ItemFailure as exc:
            failed.append(exc)
            return record_failure(exc, subject_id=subject_id, item_kind="query", item_id=f"{purpose}: {query.query}")

    failed: list[ItemFailure] = []
    outcomes = await asyncio.gather(*(one(purpose, query) for purpose, query in queries))
    result_sets = [o for o in outcomes if isinstance(o, SearchResultSet)]
    failures = [o for o in outcomes if isinstance(o, ModelFailure)]
    if failed and not result_sets:
        first = failed[0]
        raise ProviderUnreachableError(
            f"search answered none of the {len(failures)} queries for {subject_id!r} "
            f"({', '.join(sorted({p.split(':', 1)[0] for p, _ in queries}))}): {first}",
            step=first.step,
            provider=first.provider,
            attempts=len(failures),
        ) from first
    return SearchRound(result_sets=result_sets, failures=failures)


def search_failure_notes(failures: Sequence[ModelFailure]) -> list[str]:
    """How a failed query is said where its step's result is shown."""
    return [f"{f.item_id}: {f.label()} ({f.detail})" for f in failures]


# --- Queries and candidates ---------------------------------------------------------


FORWARD_LOOKING_QUERIES = frozenset({"plans", "forecasts"})


def subject_hosts(entry: RegistryEntry) -> list[str]:
    """The hosts of the registry's URLs for the subject: its own sites."""
    hosts = {(urlsplit(u).hostname or "").lower() for u in entry.urls}
    return sorted(h for h in hosts if h)


def candidate_queries(entry: RegistryEntry) -> list[tuple[str, SearchQuery]]:
    """ "its own writing, interviews, transcripts, and news reports quoting it",
    plus plans and forecasts so that forward-looking documents are found.

    One query per kind of document, labelled with that kind. "Its own writing"
    is searched on the subject's own sites (the registry URLs) when it has any;
    interviews and transcripts also name the registry aliases, who speak for
    an organisation (its executives) or are another name of a person. The two
    forward-looking queries (``FORWARD_LOOKING_QUERIES``) use the words of plans,
    reviews of plans, guidance and forecasts."""
    name = entry.name
    speakers = " ".join(dict.fromkeys(a for a in entry.aliases if a.strip() and a != name))
    per_query = CANDIDATE_RESULTS_PER_QUERY
    hosts = subject_hosts(entry)
    own = (
        SearchQuery(query=name, max_results=CANDIDATE_OWN_SITE_RESULTS, include_domains=hosts)
        if hosts
        else SearchQuery(query=f"{name} blog letter", max_results=per_query)
    )
    return [
        ("own_writing", own),
        (
            "interview",
            SearchQuery(query=f"{name} {speakers} interview".replace("  ", " "), max_results=per_query),
        ),
        (
            "transcript",
            SearchQuery(query=f"{name} {speakers} transcript".replace("  ", " "), max_results=per_query),
        ),
        ("news_quoting", SearchQuery(query=f"{name} said", max_results=per_query)),
        ("plans", SearchQuery(query=f"{name} plans targets outlook guidance", max_results=per_query)),
        (
            "forecasts",
            SearchQuery(query=f"{name} forecast expect expects predict likely", max_results=per_query),
        ),
    ]


_FORWARD_LOOKING_WORDS = re.compile(
    r"\b(plans?|planning|strategy|strategic|roadmap|outlook|forecasts?|guidance|targets?|ambitions?|"
    r"goals?|pledges?|commitments?|will|next|ahead|future|warns?|expects?|expected|expectations?|"
    r"predicts?|predictions?|by (?:end of )?20\d\d|review of (?:our )?plans?|progress (?:report|review)|"
    r"capital markets day)\b",
    re.IGNORECASE,
)


def is_forward_looking(title: str, snippets: Sequence[str], found_by_forward_looking_query: bool) -> bool:
    """ "Some slots are reserved for forward-looking documents (plans, reviews of
    plans, forecasts)."

    Decided by rule from the search results only: a document is forward-looking
    when a forward-looking query (plans, targets, guidance, forecasts) returned
    it, or when its title or any of its snippets uses the wording of plans,
    targets, guidance or forecasts (``_FORWARD_LOOKING_WORDS``)."""
    if found_by_forward_looking_query:
        return True
    return any(_FORWARD_LOOKING_WORDS.search(text) for text in (title, *snippets))


_YEAR_IN_TEXT = re.compile(r"\b(19[5-9]\d|20\d\d)\b")


def document_year(result: SearchResult) -> int | None:
    """The year a document belongs to for the year spread: its published date's
    year when search gave one, else the first plausible year (1950-2099) in its
    title, else unknown."""
    if result.published_date is not None:
        return result.published_date.year
    match = _YEAR_IN_TEXT.search(result.title)
    return int(match.group(1)) if match else None


def result_names_subject(result: SearchResult, entry: RegistryEntry) -> bool:
    """ "documents in which the subject itself speaks": a document in which the
    subject speaks names it, so a result counts as a candidate only when its
    title or snippet names the subject or a registry alias (whole words, any
    case), or it is on one of the subject's own sites."""
    host = (urlsplit(result.url).hostname or "").lower()
    if host in subject_hosts(entry):
        return True
    text = f"{result.title}\n{result.snippet}"
    return any(
        re.search(rf"(?<!\w){re.escape(n.strip())}(?!\w)", text, re.IGNORECASE)
        for n in [entry.name, *entry.aliases]
        if n.strip()
    )


def _purpose_label(result_set: SearchResultSet) -> str:
    return result_set.purpose.split(":", 1)[1] if ":" in result_set.purpose else result_set.purpose


def candidates_from_result_sets(
    entry: RegistryEntry, result_sets: Sequence[SearchResultSet], listed_at: datetime, method_version: str
) -> list[CandidateDocument]:
    """ "Web search lists 20 to 40 documents in which the subject itself speaks."

    Results in query order, then rank order, that name the subject
    (``result_names_subject``), deduplicated by canonical URL (the first sighting
    is kept and names its result set), cut at ``CANDIDATES_MAX``. Whether a
    document is forward-looking uses every sighting of it."""
    sightings: dict[str, list[tuple[SearchResultSet, SearchResult]]] = {}
    order: list[str] = []
    for result_set in result_sets:
        for result in sorted(result_set.results, key=lambda r: r.rank):
            if not result_names_subject(result, entry):
                continue
            key = canonical_url(result.url)
            if key not in sightings:
                sightings[key] = []
                order.append(key)
            sightings[key].append((result_set, result))
    candidates: list[CandidateDocument] = []
    for key in order[:CANDIDATES_MAX]:
        first_set, first = sightings[key][0]
        candidates.append(
            CandidateDocument(
                method_version=method_version,
                id=stable_id("doc", entry.id, key),
                subject_id=entry.id,
                url=first.url,
                title=first.title,
                snippet=first.snippet,
                published_date=first.published_date,
                year=document_year(first),
                forward_looking=is_forward_looking(
                    first.title,
                    [r.snippet for _, r in sightings[key]],
                    any(_purpose_label(rs) in FORWARD_LOOKING_QUERIES for rs, _ in sightings[key]),
                ),
                search_result_set_id=first_set.id,
                rank=first.rank,
                listed_at=listed_at,
            )
        )
    return candidates


def candidate_count_notes(count: int) -> list[str]:
    """ "20 to 40 documents": a shortfall is not an error but is said in the
    listing (and later in the report's confidence reasons)."""
    if count < CANDIDATES_MIN:
        return [
            f"only {count} candidate documents found (the method asks for {CANDIDATES_MIN} to {CANDIDATES_MAX})"
        ]
    return []


async def list_candidates(
    entry: RegistryEntry,
    search: SearchLike,
    clock: Clock,
    method_version: str,
    previous: CandidateListing | None = None,
) -> CandidateListing:
    """ "All candidates are saved before any is chosen ... The list is stored and
    reused for 90 days."

    When ``previous`` is a listing for this subject still within 90 days, and none
    of its queries failed, it is returned unchanged except ``reused=True`` (same
    pool, no new search). Otherwise every query in ``candidate_queries`` is run
    through the recording search and the candidates are built from all result
    sets; a query that still fails after its retries is recorded on the listing
    (``search_each``) and the listing is built from the rest. The caller stores
    the whole listing before any selection.
    """
    now = clock.now()
    if (
        previous is not None
        and previous.subject_id == entry.id
        and not previous.search_failures
        and candidate_list_is_reusable(previous.listed_at, now)
    ):
        return previous.model_copy(update={"reused": True})
    # Every query is run before any candidate is built.
    searched = await search_each(
        search,
        entry.id,
        [(f"{CANDIDATES_PURPOSE}:{label}", query) for label, query in candidate_queries(entry)],
        method_version,
    )
    candidates = candidates_from_result_sets(entry, searched.result_sets, now, method_version)
    return CandidateListing(
        subject_id=entry.id,
        listed_at=now,
        method_version=method_version,
        candidates=candidates,
        result_sets=searched.result_sets,
        reused=False,
        notes=[*candidate_count_notes(len(candidates)), *search_failure_notes(searched.failures)],
        search_failures=searched.failures,
    )
