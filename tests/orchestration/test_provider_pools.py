"""Provider pools: every step declares the pools its calls draw on, and a call
waits for a slot of its provider's pool asleep, not spinning."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dagster as dg
import pytest

from reliability_core.clock import FixedClock
from reliability_core.stand_in.web import OfflineCorpusTransport, OfflineResolver
from reliability_core.web.fetch import SafeFetcher
from reliability_core.web.robots import VirtualTimer
from reliability_dagster.assets import subject_assets
from reliability_dagster.pools import PROVIDER_POOLS, PoolLimiter, declared_pools
from reliability_dagster.resources import FetcherResource
from tests.orchestration.conftest import CORPUS, Pipeline, make_providers, make_resources


@pytest.fixture
def sqlite_instance(tmp_path: Path) -> Iterator[dg.DagsterInstance]:
    # The in-memory instance does not support pools; the local default is SQLite.
    home = tmp_path / "dagster_home"
    home.mkdir()
    with dg.DagsterInstance.local_temp(str(home)) as instance:
        assert instance.event_log_storage.supports_global_concurrency_limits
        yield instance


def test_every_step_declares_exactly_the_provider_pools_its_calls_draw_on(
    sqlite_instance: dg.DagsterInstance, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PERPLEXITY_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    for pool in PROVIDER_POOLS:
        sqlite_instance.event_log_storage.set_concurrency_slots(pool, 64)
    used: dict[str, set[str]] = {}
    acquire = PoolLimiter.acquire

    async def recording_acquire(self: PoolLimiter, pool: str) -> str | None:
        used.setdefault(self.step, set()).add(pool)
        return await acquire(self, pool)

    monkeypatch.setattr(PoolLimiter, "acquire", recording_acquire)
    pipeline = Pipeline(root=tmp_path, instance=sqlite_instance, resources=make_resources(tmp_path))
    pipeline.resources["providers"] = make_providers(tmp_path, offline_pools=True)
    pipeline.resources["fetcher"] = FetcherResource(mode="offline", corpus_dir=str(CORPUS), offline_pools=True)
    assert pipeline.run("northwind-energy").success

    for asset in subject_assets:
        (key,) = asset.keys
        step = key.to_user_string()
        assert declared_pools(dict(asset.tags_by_key[key])) == used.get(step, set()), step
    assert set().union(*used.values()) == set(PROVIDER_POOLS), "the run exercised every provider pool"
    info = {pool: sqlite_instance.event_log_storage.get_concurrency_info(pool) for pool in PROVIDER_POOLS}
    left = {pool: (i.claimed_slots, i.pending_steps) for pool, i in info.items() if i.claimed_slots or i.pending_steps}
    assert not left, f"every slot was freed and no claim left pending: {left}"


def test_a_call_waiting_for_a_slot_sleeps_until_the_holder_frees_it(sqlite_instance: dg.DagsterInstance) -> None:
    instance = sqlite_instance
    if True:
        instance.event_log_storage.set_concurrency_slots("openai", 1)
        holder = PoolLimiter(instance=instance, run_id="run-a", step="verdicts")
        waiter = PoolLimiter(instance=instance, run_id="run-b", step="verdicts")
        timeline: list[str] = []

        async def hold() -> None:
            async with holder.slot("openai"):
                timeline.append("a in")
                await asyncio.sleep(1.5)
                timeline.append("a out")

        async def wait() -> float:
            await asyncio.sleep(0.1)
            cpu = time.process_time()
            async with waiter.slot("openai"):
                timeline.append("b in")
            return time.process_time() - cpu

        async def both() -> float:
            _, waited_cpu = await asyncio.gather(hold(), wait())
            return waited_cpu

        waited_cpu = asyncio.run(both())
    assert timeline == ["a in", "a out", "b in"], "the second call got no slot while the first held it"
    # 1.4 s of waiting: a spinning wait would burn ~1.4 s of CPU; a sleeping one a few polls' worth.
    print(f"a call waiting 1.4 s for a pool slot used {waited_cpu * 1000:.0f} ms of CPU")
    assert waited_cpu < 0.5, f"waiting for a slot cost {waited_cpu:.2f} s of CPU"


def test_a_pool_with_no_limit_and_no_default_does_not_block(sqlite_instance: dg.DagsterInstance) -> None:
    instance = sqlite_instance
    if True:
        limiter = PoolLimiter(instance=instance, run_id="run-a", step="evidence")

        async def two_at_once() -> list[Any]:
            async def call() -> None:
                async with limiter.slot("web"):
                    await asyncio.sleep(0.05)

            return await asyncio.gather(call(), call())

        asyncio.run(asyncio.wait_for(two_at_once(), timeout=5))


def test_waiting_for_a_web_slot_does_not_count_against_the_fetch_timeout(sqlite_instance: dg.DagsterInstance, clock: FixedClock) -> None:
    sqlite_instance.event_log_storage.set_concurrency_slots("web", 1)
    transport = OfflineCorpusTransport(CORPUS)
    host = sorted(transport.hosts())[0]
    fetcher = SafeFetcher(
        transport=transport, resolver=OfflineResolver(transport.hosts()), clock=clock, timer=VirtualTimer(), timeout_seconds=0.5
    )
    limiter = PoolLimiter(instance=sqlite_instance, run_id="run-b", step="page_snapshots")
    fetcher.gate_requests(lambda: limiter.slot("web"))
    holder = PoolLimiter(instance=sqlite_instance, run_id="run-a", step="evidence")

    async def scenario() -> tuple[str, float]:
        async def hold() -> None:
            async with holder.slot("web"):
                await asyncio.sleep(1.5)  # three times the fetch timeout

        holding = asyncio.create_task(hold())
        await asyncio.sleep(0.2)
        started = time.monotonic()
        result = await fetcher.fetch(f"https://{host}/", check_robots=False)
        await holding
        return result.outcome, time.monotonic() - started

    outcome, took = asyncio.run(scenario())
    assert took > 1.0, "the fetch waited for the slot"
    assert outcome != "timeout", "waiting for a slot is not the server being slow"
    assert not sqlite_instance.event_log_storage.get_concurrency_info("web").claimed_slots
