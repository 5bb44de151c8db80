"""Fault injection: a provider wrapper that fails a seeded share of calls the
way the real APIs fail (429 with Retry-After, 500, timeouts, malformed JSON),
for resilience tests of the whole pipeline ("rate limits and crashes mid-run
are normal inputs here").

Deterministic: whether a call fails depends only on the seed, the step, the
request and how many times that request was already tried, so a test run is
reproducible however its calls interleave.

``max_consecutive`` bounds how many attempts in a row one request may fail.
Bounded below the retry policy's attempts, every fault is one the retries must
absorb, so the report must come out as it does without faults. Unbounded, a
request fails all its attempts with probability ``rate ** attempts`` (at 20%
and five attempts, 1 in 3,125): over a run's few thousand calls that happens
in a fair share of seeds, and the failure must then stay with the one item. A repair request (the gateway resending invalid output with the
validation error) may fail transiently but never gets malformed output again:
the gateway's design tolerates one repair, and a second malformed answer is
the documented hard failure, not the resilience under test.

``FaultInjectingSearch`` does the same for search (429, 500, timeouts), each query
retried as live search retries it, so a query can fail for good as a live one does."""

from __future__ import annotations

import hashlib
from collections import Counter

from reliability_core.models import SearchResult
from reliability_core.providers.base import (
    ModelProvider,
    ModelRequest,
    ModelResponse,
    SearchProvider,
    SearchQuery,
    Usage,
)
from reliability_core.providers.errors import TransientProviderError
from reliability_core.providers.gateway import StepGateway
from reliability_core.providers.retry import RetryPolicy

FAULT_KINDS = ("rate_limited", "server_error", "timeout", "malformed_output")
SEARCH_FAULT_KINDS = FAULT_KINDS[:3]  # a search answer is parsed by code, not repaired: no malformed kind


class _Draws:
    """The seeded draws of one wrapper: whether an attempt fails, and how. An attempt's
    draw depends only on the seed, the call's ``key`` and how many times it was tried."""

    def __init__(self, rate: float, seed: int, max_consecutive: int | None) -> None:
        if not 0.0 <= rate < 1.0:
            raise ValueError("fault rate must be in [0, 1)")
        if max_consecutive is not None and max_consecutive < 0:
            raise ValueError("max_consecutive must be None or at least 0")
        self.rate = rate
        self.seed = seed
        self.max_consecutive = max_consecutive
        self.attempts: Counter[str] = Counter()
        self.injected: Counter[str] = Counter()

    def fault(self, key: str, kinds: tuple[str, ...]) -> str | None:
        """The fault of this attempt of the call ``key`` (one of ``kinds``), or None."""
        seeded = f"{self.seed}\0{key}"
        attempt = self.attempts[seeded]
        self.attempts[seeded] += 1
        if self.max_consecutive is not None and attempt >= self.max_consecutive:
            return None
        digest = hashlib.sha256(f"{seeded}\0{attempt}".encode()).digest()
        if int.from_bytes(digest[:4], "big") / 2**32 >= self.rate:
            return None
        fault = kinds[digest[4] % len(kinds)]
        self.injected[fault] += 1
        return fault


def raise_transient(fault: str | None, api: str = "") -> None:
    """Raise what the API raises for a transient ``fault`` (429, 500, timeout); else nothing."""
    if fault == "rate_limited":
        raise TransientProviderError(f"injected {api}429 Too Many Requests", status=429, retry_after=0.0)
    if fault == "server_error":
        raise TransientProviderError(f"injected {api}500 Internal Server Error", status=500)
    if fault == "timeout":
        raise TransientProviderError(f"injected {api}read timeout")


class FaultInjectingProvider:
    """Wraps ``inner``; a seeded ``rate`` of calls fails with one of ``FAULT_KINDS``."""

    def __init__(
        self, inner: ModelProvider, rate: float, seed: int = 0, max_consecutive: int | None = None
    ) -> None:
        self.draws = _Draws(rate, seed, max_consecutive)
        self.inner = inner
        self.name = inner.name
        self.family = inner.family
        self.injected = self.draws.injected

    def fault_for(self, request: ModelRequest) -> str | None:
        """The fault this attempt of ``request`` gets, or None."""
        kinds = FAULT_KINDS if request.previous_output is None else FAULT_KINDS[:3]
        return self.draws.fault(f"{request.step}\0{request.input_json}\0{request.previous_output}", kinds)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        fault = self.fault_for(request)
        raise_transient(fault)
        if fault == "malformed_output":
            return ModelResponse(
                output_json='{"truncated": ',
                usage=Usage(provider=self.name, model=request.model, step=request.step),
            )
        return await self.inner.complete(request)


def with_fault_injection(
    gateway: StepGateway, rate: float, seed: int = 0, max_consecutive: int | None = None
) -> StepGateway:
    """The same gateway with every provider wrapped in a ``FaultInjectingProvider``."""
    return gateway.with_providers(
        lambda provider: FaultInjectingProvider(provider, rate, seed, max_consecutive)
    )


class FaultInjectingSearch:
    """Wraps a search provider; a seeded ``rate`` of attempts fails as the search API
    fails (429, 500, timeout), each call retried by ``retry`` as the live search's own
    policy retries it (``PerplexitySearch``), so a query can fail for good with the
    ``ProviderCallError`` live search raises. Deterministic like ``FaultInjectingProvider``:
    the draw depends on the seed, the query and the attempt."""

    def __init__(
        self,
        inner: SearchProvider,
        rate: float,
        seed: int = 0,
        max_consecutive: int | None = None,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.draws = _Draws(rate, seed, max_consecutive)
        self.inner = inner
        self.retry = retry or RetryPolicy()
        self.name = inner.name
        self.injected = self.draws.injected

    def fault_for(self, query: SearchQuery) -> str | None:
        """The fault this attempt of ``query`` gets, or None."""
        return self.draws.fault(f"search\0{query.model_dump_json()}", SEARCH_FAULT_KINDS)

    async def _attempt(self, query: SearchQuery) -> list[SearchResult]:
        raise_transient(self.fault_for(query), "search ")
        return await self.inner.search(query)

    async def search(self, query: SearchQuery) -> list[SearchResult]:
        return await self.retry.call(lambda: self._attempt(query), step="search", provider=self.name)
