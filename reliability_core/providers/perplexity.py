"""Perplexity's Search API through the official SDK (``perplexityai``).

``client.search.create`` is ``POST <base>/search`` (base URL
``https://api.perplexity.ai`` or ``PERPLEXITY_BASE_URL``) with bearer auth;
the request carries ``query``, ``max_results``, ``search_domain_filter`` and
``search_after_date_filter`` / ``search_before_date_filter`` (``%m/%d/%Y``).
The response's ``results[]`` (``title``, ``url``, ``snippet``, ``date``) become
``SearchResult`` rows ranked in the order returned; the raw JSON is read
(``with_raw_response``) so a row missing a field is dropped here rather than
failing the whole result set. The SDK's own retries are off: faults are
retried by the same policy as model calls.

``search_domain_filter`` is either an allowlist or a denylist (``-`` prefix),
never both, and holds at most 20 entries (Perplexity's domain-filter rules):
with allowed domains only those are sent; otherwise up to 20 excluded ones.
Whatever the filter could not carry is enforced on the results here
(``results_from_response``), so the guarantee holds either way.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import httpx
import perplexity

from reliability_core.models import SearchResult
from reliability_core.providers.base import SearchQuery
from reliability_core.providers.errors import PermanentProviderError, TransientProviderError
from reliability_core.providers.loops import PerLoop
from reliability_core.providers.retry import RetryPolicy, http_status_error
from reliability_core.providers.search_filters import domain_allowed, parse_result_date

PERPLEXITY_BASE_URL = "https://api.perplexity.ai"
# The Search API returns at most 20 results per query.
PERPLEXITY_MAX_RESULTS = 20
# search_domain_filter takes at most 20 entries.
PERPLEXITY_MAX_DOMAINS = 20


def perplexity_domain_filter(include: list[str], exclude: list[str]) -> list[str]:
    """The ``search_domain_filter`` for these lists: the allowlist when there is one,
    else the denylist with ``-`` prefixes; never mixed, at most 20 entries."""
    if include:
        return list(dict.fromkeys(include))[:PERPLEXITY_MAX_DOMAINS]
    return [f"-{d}" for d in dict.fromkeys(exclude)][:PERPLEXITY_MAX_DOMAINS]


def perplexity_request_body(query: SearchQuery) -> dict[str, Any]:
    """The JSON body for one query."""
    body: dict[str, Any] = {
        "query": query.query,
        "max_results": max(1, min(query.max_results, PERPLEXITY_MAX_RESULTS)),
    }
    domains = perplexity_domain_filter(query.include_domains, query.exclude_domains)
    if domains:
        body["search_domain_filter"] = domains
    if query.published_after is not None:
        body["search_after_date_filter"] = _us_date(query.published_after)
    if query.published_before is not None:
        body["search_before_date_filter"] = _us_date(query.published_before)
    return body


def _us_date(day: date) -> str:
    return f"{day.month}/{day.day}/{day.year}"


class PerplexitySearch:
    """``SearchProvider`` over the Perplexity Search API."""

    name = "perplexity"

    def __init__(
        self,
        api_key: str,
        *,
        client: httpx.AsyncClient | None = None,
        base_url: str = PERPLEXITY_BASE_URL,
        retry: RetryPolicy | None = None,
        timeout: float = 60.0,
    ) -> None:
        def make() -> perplexity.AsyncPerplexity:
            # base_url always explicit: the SDK would otherwise read PERPLEXITY_BASE_URL itself.
            # A plain httpx client of ours rather than the SDK's own, whose finaliser schedules
            # an aclose on whatever loop runs next ("Event loop is closed" at shutdown).
            return perplexity.AsyncPerplexity(
                api_key=api_key,
                base_url=base_url,
                http_client=client or httpx.AsyncClient(timeout=timeout),
                timeout=timeout,
                max_retries=0,
            )

        # An injected client (tests) is used as is; otherwise one SDK client per event loop.
        self._clients = PerLoop(make)
        self._retry = retry or RetryPolicy()

    async def search(self, query: SearchQuery) -> list[SearchResult]:
        payload = await self._retry.call(lambda: self._post(query), step="search", provider=self.name)
        return results_from_response(payload, query)

    async def _post(self, query: SearchQuery) -> dict[str, Any]:
        try:
            raw = await self._clients.get().search.with_raw_response.create(**perplexity_request_body(query))
        except perplexity.APIStatusError as exc:
            request_id = exc.response.headers.get("x-request-id") or exc.response.headers.get("request-id")
            raise http_status_error(
                self.name,
                exc.status_code,
                exc.response.text[:300],
                headers=dict(exc.response.headers),
                request_id=request_id,
            ) from exc
        except perplexity.APITimeoutError as exc:
            raise TransientProviderError(f"perplexity timeout: {exc!r}") from exc
        except perplexity.APIConnectionError as exc:
            raise TransientProviderError(f"perplexity connection failed: {exc!r}", connection=True) from exc
        response = raw.http_response
        try:
            data = response.json()
        except ValueError as exc:
            raise TransientProviderError(f"perplexity returned non-JSON: {response.text[:200]!r}") from exc
        if not isinstance(data, dict):
            raise PermanentProviderError(f"perplexity returned {type(data).__name__}, not an object")
        return data


def results_from_response(payload: dict[str, Any], query: SearchQuery) -> list[SearchResult]:
    """``results[]`` -> ranked ``SearchResult``s; rows without a URL, outside the
    domain filters or with a known date outside the range are dropped (the API
    applies the filters too; this keeps the guarantee when it does not)."""
    out: list[SearchResult] = []
    for item in payload.get("results") or []:
        if not isinstance(item, dict):
            continue
        url = str(item.get("url") or "").strip()
        if not url or not domain_allowed(url, query.include_domains, query.exclude_domains):
            continue
        published = parse_result_date(item.get("date"))
        if published is not None and (
            (query.published_after is not None and published < query.published_after)
            or (query.published_before is not None and published > query.published_before)
        ):
            continue
        out.append(
            SearchResult(
                url=url,
                title=str(item.get("title") or ""),
                snippet=str(item.get("snippet") or ""),
                published_date=published,
                rank=len(out) + 1,
            )
        )
        if len(out) >= query.max_results:
            break
    return out
