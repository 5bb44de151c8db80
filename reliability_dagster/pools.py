"""Provider pools: one Dagster pool per API (anthropic, openai, perplexity, web)
bounds that API's calls in flight across every run on the instance.

Why not ``pool=`` on the assets: a Dagster pool is claimed per step, a step
calls several APIs (the evidence step searches, fetches pages and asks
Anthropic to read them; the verdict step asks Anthropic and OpenAI), and a
step waiting for a slot in Dagster 1.13.27 spins at 100% CPU. So each call
claims a slot of its provider's pool in the instance's concurrency table (the
same table ``dagster instance concurrency set`` writes and the UI shows, by a
compare-and-set: see ``claim_slot``),
waits for one with an asyncio sleep that backs off to half a second (no CPU burnt
while waiting, and other calls of the step go on), and frees it when the
call returns. Claims carry the run id, so when a run dies Dagster's run
monitoring (``free_slots_after_run_end_seconds``) frees its slots; a run executed
in process (``make demo``) is failed and freed by ``reliability_dagster.dead_runs``.

Live calls always go through the pools; offline-rules calls are local
computation and skip them unless ``offline_pools`` is set (rehearsals and
tests that stand in for the live providers). Outside a Dagster run (CLI
backtests) there is no instance to count in and calls are not pooled.
"""

from __future__ import annotations

import asyncio
import random
import threading
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field

import dagster as dg
import sqlalchemy as db
import sqlalchemy.exc

# Private on purpose: the public API has no name for the event log storage or its
# concurrency table, and the compare-and-set claim below needs the table itself
# (dagster is pinned to one release in pyproject.toml for this reason among others).
from dagster._core.storage.event_log.base import EventLogStorage
from dagster._core.storage.event_log.schema import ConcurrencySlotsTable
from dagster._core.storage.event_log.sql_event_log import SqlEventLogStorage

from reliability_core.models import SearchResult
from reliability_core.providers.assignment import DEFAULT_ASSIGNMENT
from reliability_core.providers.base import (
    OFFLINE_NAME,
    ModelProvider,
    ModelRequest,
    ModelResponse,
    SearchProvider,
    SearchQuery,
)
from reliability_core.providers.gateway import StepGateway
from reliability_core.providers.loops import PerLoop
from reliability_core.providers.recording import RecordingSearch
from reliability_core.stand_in.search import OfflineSearch

ANTHROPIC = "anthropic"
OPENAI = "openai"
PERPLEXITY = "perplexity"
WEB = "web"
PROVIDER_POOLS: tuple[str, ...] = (ANTHROPIC, OPENAI, PERPLEXITY, WEB)
# The tag each per-subject asset carries for every pool its step calls.
POOL_TAG_PREFIX = "reliability/pool."

_FIRST_WAIT_SECONDS = 0.05
_LONGEST_WAIT_SECONDS = 0.5


def model_pool(provider: str, step: str) -> str:
    """The pool of a model call: its vendor. An offline-rules call stands in for
    the vendor the step is assigned to by default (judge B: openai, the rest:
    anthropic); an openai-compatible endpoint is a server of its own."""
    if provider == OFFLINE_NAME:
        return DEFAULT_ASSIGNMENT.get(step, ANTHROPIC).split(":", 1)[0]
    return provider


def pool_tags(pools: set[str]) -> dict[str, str]:
    """Asset tags naming the pools a step calls, e.g. ``reliability/pool.web``."""
    unknown = pools - set(PROVIDER_POOLS)
    if unknown:
        raise ValueError(f"unknown provider pools {sorted(unknown)}; pools are {PROVIDER_POOLS}")
    return {f"{POOL_TAG_PREFIX}{pool}": "" for pool in sorted(pools)}


def declared_pools(tags: dict[str, str]) -> set[str]:
    return {key.removeprefix(POOL_TAG_PREFIX) for key in tags if key.startswith(POOL_TAG_PREFIX)}


@dataclass
class PoolLimiter:
    """Claims slots of the instance's pools for one step of one run."""

    instance: dg.DagsterInstance
    run_id: str
    step: str
    _limits: dict[str, int | None] = field(default_factory=dict)
    _local: dict[str, PerLoop[asyncio.Semaphore]] = field(default_factory=dict)
    _held: dict[str, asyncio.Semaphore] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _limit(self, pool: str) -> int | None:
        """The limit of ``pool``, giving it the instance default (``concurrency.pools.default_limit``)
        the first time, as Dagster does for a step pool; None when it has neither (unlimited)."""
        with self._lock:  # the step's concurrent calls ask at once, from worker threads
            if pool not in self._limits:
                self._limits[pool] = self._read_limit(pool)
            return self._limits[pool]

    def _read_limit(self, pool: str) -> int | None:
        storage = self.instance.event_log_storage
        if not storage.supports_global_concurrency_limits:
            return None
        limits = {limit.name: limit.limit for limit in storage.get_pool_limits()}
        if pool not in limits and self.instance.global_op_concurrency_default_limit is not None:
            # Another run creating the limit at the same moment makes Dagster's insert fail on
            # the unique key: the limit exists then, which is all we need.
            with suppress(sqlalchemy.exc.DBAPIError):
                storage.initialize_concurrency_limit_to_default(pool)
            limits = {limit.name: limit.limit for limit in storage.get_pool_limits()}
        return limits.get(pool)

    async def acquire(self, pool: str) -> str | None:
        """Wait (sleeping) for a slot of ``pool``; the claim to release, or None when the pool has no limit."""
        limit = await asyncio.to_thread(self._limit, pool)
        if limit is None:
            return None
        # This process can never hold more than ``limit`` slots, so at most that many of its
        # calls queue in the database; the rest wait here, at no cost to the database.
        local = self._local.setdefault(pool, PerLoop(lambda: asyncio.Semaphore(max(limit, 1))))
        semaphore = local.get()
        await semaphore.acquire()
        storage = self.instance.event_log_storage
        # One claim per call, under its own step key: Dagster frees claims by run and step key.
        claim = f"{self.step}[{pool}:{uuid.uuid4().hex[:12]}]"
        wait = _FIRST_WAIT_SECONDS
        try:
            # Registered as a pending step too: run monitoring finds the runs whose slots to free
            # there (get_concurrency_run_ids), and freeing the claim removes the row again.
            assert isinstance(storage, SqlEventLogStorage), "provider pools need a SQL event log storage"
            await asyncio.to_thread(storage.add_pending_step, pool, self.run_id, claim)
            while not await asyncio.to_thread(claim_slot, storage, pool, self.run_id, claim):
                await asyncio.sleep(wait * random.uniform(0.5, 1.0))
                wait = min(wait * 2, _LONGEST_WAIT_SECONDS)
        except BaseException:
            await self._free(claim, semaphore)  # cancelled while queued: leave no pending claim behind
            raise
        self._held[claim] = semaphore
        return claim

    async def _free(self, claim: str, semaphore: asyncio.Semaphore) -> None:
        try:
            await asyncio.to_thread(self.instance.event_log_storage.free_concurrency_slot_for_step, self.run_id, claim)
        finally:
            semaphore.release()

    async def release(self, claim: str | None) -> None:
        if claim is not None:
            await self._free(claim, self._held.pop(claim))

    @asynccontextmanager
    async def slot(self, pool: str) -> AsyncIterator[None]:
        """Hold one slot of ``pool`` for the duration of one call."""
        claim = await self.acquire(pool)
        try:
            yield
        finally:
            await self.release(claim)


_LIMITERS: dict[tuple[str, str], PoolLimiter] = {}


def claim_slot(storage: EventLogStorage, pool: str, run_id: str, claim: str) -> bool:
    """Take a free slot row of ``pool`` for ``claim``, or report that none is free.

    A compare-and-set on the instance's slot table: ``UPDATE ... WHERE id = ? AND step_key IS NULL``
    succeeds for exactly one of two racing claimants (PostgreSQL re-checks the row after the
    first commits; SQLite serialises writes). Dagster 1.13.27's own ``claim_concurrency_slot``
    selects a free row and then updates it by id alone, so two processes can take the same row,
    and a pool of 2 then saw 3 calls in flight (tests/orchestration/test_queued_runs.py). The
    slots stay Dagster's: the UI shows them and run monitoring frees them by run id."""
    assert isinstance(storage, SqlEventLogStorage), "provider pools need a SQL event log storage"
    with storage.index_connection() as conn:
        free = conn.execute(
            db.select(ConcurrencySlotsTable.c.id).where(
                db.and_(
                    ConcurrencySlotsTable.c.concurrency_key == pool,
                    ConcurrencySlotsTable.c.step_key.is_(None),
                    ConcurrencySlotsTable.c.deleted.is_(False),
                )
            )
        ).fetchall()
        for (slot_id,) in random.sample(free, len(free)):  # racing claimants start on different rows
            taken = conn.execute(
                ConcurrencySlotsTable.update()
                .values(run_id=run_id, step_key=claim)
                .where(db.and_(ConcurrencySlotsTable.c.id == slot_id, ConcurrencySlotsTable.c.step_key.is_(None)))
            )
            if taken.rowcount == 1:
                return True
    return False


def current_limiter() -> PoolLimiter | None:
    """The limiter of the running asset step (one per run and step, shared by its gateway,
    search and fetcher), or None outside a Dagster step."""
    try:
        context = dg.AssetExecutionContext.get()
    except Exception:  # no step is running: a CLI, a test calling a resource directly
        return None
    if context is None:
        return None
    key = (context.run.run_id, context.op_execution_context.op_handle.name)
    if key not in _LIMITERS:
        _LIMITERS[key] = PoolLimiter(instance=context.instance, run_id=key[0], step=key[1])
    return _LIMITERS[key]


class PooledProvider:
    """A model provider whose every call holds a slot of its vendor's pool."""

    def __init__(self, inner: ModelProvider, limiter: PoolLimiter) -> None:
        self.inner = inner
        self.limiter = limiter
        self.name = inner.name
        self.family = inner.family

    async def complete(self, request: ModelRequest) -> ModelResponse:
        async with self.limiter.slot(model_pool(self.inner.name, request.step)):
            return await self.inner.complete(request)


class PooledSearch:
    """A search provider whose every query holds a slot of the ``perplexity`` pool."""

    def __init__(self, inner: SearchProvider, limiter: PoolLimiter) -> None:
        self.inner = inner
        self.limiter = limiter
        self.name = inner.name

    async def search(self, query: SearchQuery) -> list[SearchResult]:
        async with self.limiter.slot(PERPLEXITY):
            return await self.inner.search(query)


def pooled_gateway(gateway: StepGateway, limiter: PoolLimiter | None, offline_pools: bool) -> StepGateway:
    """``gateway`` with every live provider (and offline ones if ``offline_pools``) pooled."""
    if limiter is None:
        return gateway
    return gateway.with_providers(
        lambda provider: provider
        if provider.name == OFFLINE_NAME and not offline_pools
        else PooledProvider(provider, limiter)
    )


def pooled_search(search: RecordingSearch, limiter: PoolLimiter | None, offline_pools: bool) -> RecordingSearch:
    """``search`` with its provider pooled when it is live (or ``offline_pools``); cache hits take no
    slot: they never reach the provider."""
    if limiter is not None and (search.provider.name != OfflineSearch.name or offline_pools):
        search.provider = PooledSearch(search.provider, limiter)
    return search
