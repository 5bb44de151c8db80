"""Simulated latency: wrappers that add a fixed delay to every model call,
search or page fetch. For benchmarks (wall time against the critical-path
lower bound) and for crash tests that need a run to be mid-stage; never on by
default."""

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
from reliability_core.providers.gateway import StepGateway


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
