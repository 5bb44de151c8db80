"""Simulated latency: wrappers that add a fixed delay to every model call,
search or page fetch, and a record-and-replay pair that answers model calls
from a recording after a delay with no local compute (a remote model's
stand-in). For benchmarks (wall time against the critical-path lower bound)
and for crash tests that need a run to be mid-stage; never on by default."""

from __future__ import annotations

import asyncio

import httpx

from reliability_core.models import SearchResult
from reliability_core.providers.base import (
    ModelProvider,
    ModelRequest,
    ModelResponse,
    SearchProvider,
    SearchQuery,
)
from reliability_core.providers.cache import ResponseCache, cache_key
from reliability_core.providers.errors import PermanentProviderError
from reliability_core.providers.gateway import StepGateway
from reliability_core.text.data_marking import without_mark_tokens


class DelayedProvider:
    """A model provider that answers ``seconds`` later than ``inner``."""

    def __init__(self, inner: ModelProvider, seconds: float) -> None:
        self.inner = inner
        self.seconds = seconds
        self.name = inner.name
        self.family = inner.family

    async def complete(self, request: ModelRequest) -> ModelResponse:
        await asyncio.sleep(self.seconds)
        return await self.inner.complete(request)


class DelayedSearch:
    """A search provider that answers ``seconds`` later than ``inner``."""

    def __init__(self, inner: SearchProvider, seconds: float) -> None:
        self.inner = inner
        self.seconds = seconds
        self.name = inner.name

    async def search(self, query: SearchQuery) -> list[SearchResult]:
        await asyncio.sleep(self.seconds)
        return await self.inner.search(query)


class DelayedTransport(httpx.AsyncBaseTransport):
    """An httpx transport whose every response comes ``seconds`` late."""

    def __init__(self, inner: httpx.AsyncBaseTransport, seconds: float) -> None:
        self.inner = inner
        self.seconds = seconds

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(self.seconds)
        return await self.inner.handle_async_request(request)


def with_model_latency(gateway: StepGateway, seconds: float) -> StepGateway:
    """The same gateway with every provider answering ``seconds`` later."""
    return gateway.with_providers(lambda provider: DelayedProvider(provider, seconds))


def _replay_key(request: ModelRequest) -> str:
    return cache_key(
        kind="replay",
        step=request.step,
        model=request.model,
        # The judges' input carries a fresh random data-mark token per call: without it left
        # out, every replayed judge call missed its recording and failed (and the benchmark
        # timed a verdict step that made no model calls).
        input_json=without_mark_tokens(request.input_json),
        previous_output=request.previous_output,
        validation_error=request.validation_error,
    )


class RecordingProvider:
    """Passes calls to ``inner`` and records every answer, so a later run can
    replay them without computing them again."""

    def __init__(self, inner: ModelProvider, store: ResponseCache) -> None:
        self.inner = inner
        self.store = store
        self.name = inner.name
        self.family = inner.family

    async def complete(self, request: ModelRequest) -> ModelResponse:
        response = await self.inner.complete(request)
        self.store.put(_replay_key(request), response.model_dump(mode="json"))
        return response


class ReplayProvider:
    """Answers from a recording after ``seconds``, doing no work of its own: a
    stand-in for a remote model whose compute happens elsewhere. A request that
    was never recorded is an error, never a guess."""

    def __init__(self, inner: ModelProvider, store: ResponseCache, seconds: float) -> None:
        self.store = store
        self.seconds = seconds
        self.name = inner.name
        self.family = inner.family

    async def complete(self, request: ModelRequest) -> ModelResponse:
        await asyncio.sleep(self.seconds)
        recorded = self.store.get(_replay_key(request))
        if recorded is None:
            raise PermanentProviderError(f"step {request.step!r}: no recorded answer to replay for this request")
        return ModelResponse.model_validate(recorded)


def with_recording(gateway: StepGateway, store: ResponseCache) -> StepGateway:
    """Every provider's answers recorded into ``store``."""
    return gateway.with_providers(lambda provider: RecordingProvider(provider, store))


def with_replay(gateway: StepGateway, store: ResponseCache, seconds: float) -> StepGateway:
    """Every provider answering from ``store`` after ``seconds``."""
    return gateway.with_providers(lambda provider: ReplayProvider(provider, store, seconds))
