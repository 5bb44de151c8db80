"""Search that keeps its receipts: every query's results become a stored-able
``SearchResultSet``, so later stages can enforce that a URL search did not
return is never used. Result sets are cached like model responses: a re-run
with the same query reuses the stored set (same id, same retrieval time) and
makes no search call, unless the cache is bypassed.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import ValidationError

from reliability_core.attribution import redact_private_life
from reliability_core.clock import Clock
from reliability_core.ids import stable_id
from reliability_core.models import SearchResult, SearchResultSet
from reliability_core.providers.base import SearchProvider, SearchQuery
from reliability_core.providers.cache import ResponseCache, cache_key


def result_set_id(subject_id: str, purpose: str, query: SearchQuery, provider: str) -> str:
    """``srs_<hash>`` of subject, purpose, the whole query and the provider."""
    return stable_id("srs", subject_id, purpose, query.model_dump(mode="json"), provider)


class RecordingSearch:
    """Wraps a ``SearchProvider``; returns ``SearchResultSet`` records (the caller stores them)."""

    def __init__(self, provider: SearchProvider, cache: ResponseCache | None, clock: Clock) -> None:
        self.provider = provider
        self.cache = cache
        self.clock = clock
        self.calls = 0

    @property
    def name(self) -> str:
        return self.provider.name

    async def search(
        self, subject_id: str, purpose: str, query: SearchQuery, method_version: str
    ) -> SearchResultSet:
        """Run (or reuse) ``query`` and return its result set."""
        key = cache_key(kind="search", provider=self.provider.name, query=query.model_dump(mode="json"))
        results: list[SearchResult] | None = None
        retrieved_at: datetime | None = None
        if self.cache is not None:
            entry = self.cache.get(key)
            if entry is not None:
                try:
                    results = [SearchResult.model_validate(r) for r in entry["results"]]
                    retrieved_at = datetime.fromisoformat(str(entry["retrieved_at"]))
                except (KeyError, TypeError, ValueError, ValidationError):
                    results = None
        if results is None or retrieved_at is None:
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
                )
        # Snippets are page text we did not extract as statements: sentences about
        # private life are withheld before the result set is stored.
        results = [r.model_copy(update={"snippet": redact_private_life(r.snippet)}) for r in results]
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
