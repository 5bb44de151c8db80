"""Search that keeps its receipts: every query's results become a stored-able
``SearchResultSet``, so later stages can enforce that a URL search did not
return is never used. Result sets are cached like model responses, each for as
long as the method lets it be reused (``search_result_reusable``): a candidate
search inside the 90-day window reuses the stored set (same id, same retrieval
time) and makes no search call; an older one, or evidence research for a
refresh, searches again. Snippets are stored, cached and returned with
private-life sentences masked.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import ValidationError

from reliability_core.clock import Clock
from reliability_core.ids import stable_id
from reliability_core.models import SearchResult, SearchResultSet
from reliability_core.providers.base import SearchProvider, SearchQuery
from reliability_core.providers.cache import ResponseCache, cache_key, search_result_reusable
from reliability_core.text.privacy import mask_private_life


def result_set_id(subject_id: str, purpose: str, query: SearchQuery, provider: str) -> str:
    """``srs_<hash>`` of subject, purpose, the whole query and the provider."""
    return stable_id("srs", subject_id, purpose, query.model_dump(mode="json"), provider)


class RecordingSearch:
    """Wraps a ``SearchProvider``; returns ``SearchResultSet`` records (the caller stores them).

    ``fresh_since`` is set for a refresh (``for_refresh``): no identity or evidence
    result retrieved before it is reused."""

    def __init__(
        self,
        provider: SearchProvider,
        cache: ResponseCache | None,
        clock: Clock,
        *,
        fresh_since: datetime | None = None,
    ) -> None:
        self.provider = provider
        self.cache = cache
        self.clock = clock
        self.fresh_since = fresh_since
        self.calls = 0

    @property
    def name(self) -> str:
        return self.provider.name

    def for_refresh(self) -> RecordingSearch:
        """This search for a refresh starting now: [M] step 9 "After that it is served
        marked stale while a refresh runs" — new evidence is what a refresh is for."""
        return RecordingSearch(self.provider, self.cache, self.clock, fresh_since=self.clock.now())

    def _cached(self, key: str, purpose: str) -> tuple[list[SearchResult], datetime] | None:
        if self.cache is None:
            return None
        entry = self.cache.get(key)
        if entry is None:
            return None
        try:
            results = [SearchResult.model_validate(r) for r in entry["results"]]
            retrieved_at = datetime.fromisoformat(str(entry["retrieved_at"]))
        except (KeyError, TypeError, ValueError, ValidationError):
            return None
        if not search_result_reusable(purpose, retrieved_at, self.clock.now(), self.fresh_since):
            return None
        return results, retrieved_at

    def withhold_private(self, queries: Sequence[SearchQuery], quotes: Sequence[str]) -> int:
        """[M] step 4 "dropped before anything is stored", for search answers already cached
        when a later step found a statement private (the classifier flags what the extractor
        copied, after the candidate searches were cached): every sentence holding one of
        ``quotes`` is masked in the cached answers of ``queries``. Returns how many changed."""
        if self.cache is None or not quotes:
            return 0
        keys = {cache_key(kind="search", provider=self.provider.name, query=q.model_dump(mode="json")) for q in queries}
        return sum(self.cache.withhold(key, quotes) for key in sorted(keys))

    async def search(
        self, subject_id: str, purpose: str, query: SearchQuery, method_version: str
    ) -> SearchResultSet:
        """Run (or, inside its lifetime, reuse) ``query`` and return its result set."""
        key = cache_key(kind="search", provider=self.provider.name, query=query.model_dump(mode="json"))
        cached = self._cached(key, purpose)
        if cached is not None:
            results, retrieved_at = cached
        else:
            self.calls += 1
            results = await self.provider.search(query)
            retrieved_at = self.clock.now()
            if self.cache is not None:
                self.cache.put(
                    key,
                    {
                        "retrieved_at": retrieved_at.isoformat(),
                        "results": [r.model_dump(mode="json") for r in results],
                    },
                )  # the cache masks private-life sentences as it writes
        # Titles and snippets are page text we did not extract as statements: sentences
        # about private life are withheld before the result set is stored (cached
        # entries written before masking existed are masked here on the way out).
        results = [
            r.model_copy(update={"title": mask_private_life(r.title), "snippet": mask_private_life(r.snippet)})
            for r in results
        ]
        return SearchResultSet(
            id=result_set_id(subject_id, purpose, query, self.provider.name),
            subject_id=subject_id,
            purpose=purpose,
            query=query.query,
            provider=self.provider.name,
            retrieved_at=retrieved_at,
            results=results,
            method_version=method_version,
        )
