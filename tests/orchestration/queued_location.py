"""The code location the queued-run tests load in the daemon (and every run
worker it launches): the real definitions over a throwaway warehouse and cache.

Environment: RELIABILITY_TEST_ROOT (warehouse and cache), optionally
RELIABILITY_TEST_MODEL_LATENCY (seconds per model call, search and fetch),
RELIABILITY_TEST_POOLED=1 (offline calls take provider-pool slots as live ones
do) and RELIABILITY_TEST_PROBE=<file> (every call that reaches a provider
appends ``pool start end run`` there, recorded below the pools, i.e. what the
provider sees)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import dagster as dg
import httpx

from reliability_core.clock import Clock
from reliability_core.models import SearchResult
from reliability_core.providers.base import (
    ModelProvider,
    ModelRequest,
    ModelResponse,
    SearchProvider,
    SearchQuery,
)
from reliability_core.providers.gateway import StepGateway
from reliability_core.providers.recording import RecordingSearch
from reliability_core.web.fetch import SafeFetcher
from reliability_dagster.definitions import build_definitions
from reliability_dagster.pools import PERPLEXITY, WEB, model_pool
from reliability_dagster.resources import FetcherResource, ProvidersResource
from tests.orchestration.conftest import CORPUS, make_resources


def _note(pool: str, started: float) -> None:
    probe = os.environ.get("RELIABILITY_TEST_PROBE", "")
    if probe:
        line = f"{pool} {started:.6f} {time.time():.6f} {os.getpid()}\n"
        # One short O_APPEND write per line: lines from concurrent processes never interleave.
        fd = os.open(probe, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)


class _ProbedProvider:
    def __init__(self, inner: ModelProvider) -> None:
        self.inner = inner
        self.name = inner.name
        self.family = inner.family

    async def complete(self, request: ModelRequest) -> ModelResponse:
        started = time.time()
        try:
            return await self.inner.complete(request)
        finally:
            _note(model_pool(self.inner.name, request.step), started)


class _ProbedSearch:
    def __init__(self, inner: SearchProvider) -> None:
        self.inner = inner
        self.name = inner.name

    async def search(self, query: SearchQuery) -> list[SearchResult]:
        started = time.time()
        try:
            return await self.inner.search(query)
        finally:
            _note(PERPLEXITY, started)


class _ProbedTransport(httpx.AsyncBaseTransport):
    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        started = time.time()
        try:
            response = await self.inner.handle_async_request(request)
            await response.aread()
            return response
        finally:
            _note(WEB, started)


class ProbedProviders(ProvidersResource):
    def base_gateway(self, job: str = "") -> StepGateway:
        return super().base_gateway(job).with_providers(_ProbedProvider)

    def base_search(self, clock: Clock) -> RecordingSearch:
        search = super().base_search(clock)
        search.provider = _ProbedSearch(search.provider)
        return search


class ProbedFetcher(FetcherResource):
    def base_fetcher(self, clock: Clock) -> SafeFetcher:
        fetcher = super().base_fetcher(clock)
        fetcher.wrap_transport(_ProbedTransport)
        return fetcher


def _resources() -> dict[str, Any]:
    root = Path(os.environ.get("RELIABILITY_TEST_ROOT", "/nonexistent-test-root"))
    resources = make_resources(root)
    latency = float(os.environ.get("RELIABILITY_TEST_MODEL_LATENCY", "0"))
    pooled = os.environ.get("RELIABILITY_TEST_POOLED") == "1"
    resources["providers"] = ProbedProviders(
        corpus_dir=str(CORPUS),
        cache_dir=str(root / "cache"),
        simulated_model_latency=latency,
        simulated_search_latency=latency,
        offline_pools=pooled,
    )
    resources["fetcher"] = ProbedFetcher(
        mode="offline", corpus_dir=str(CORPUS), simulated_latency=latency, offline_pools=pooled
    )
    return resources


# No sensors or schedules: the daemon launches exactly the runs a test submits.
defs: dg.Definitions = build_definitions(_resources(), automation=False)
