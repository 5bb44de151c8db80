"""Resources: the warehouse, the clock, model providers, search and the fetcher.

Secrets come in through ``EnvVar`` (resolved by Dagster, visible as
"environment variable" in the UI, never logged). With no keys set, the offline
providers over the demo corpus are used; the choice shows in the resource
config and in every record (``offline-rules``).

Everything else comes from ``reliability_core.settings`` (the ``RELIABILITY_*``
variables, read once): ``default_resources`` passes each value explicitly so the UI
shows it as the resource's config, and the fields default to the same settings when
a resource is built by hand (a rehearsal, a benchmark)."""

import os
from pathlib import Path
from typing import Any

import dagster as dg
from pydantic import Field

from reliability_core.clock import Clock, parse_clock_override
from reliability_core.providers.cache import ResponseCache
from reliability_core.providers.faults import FaultInjectingSearch, with_fault_injection
from reliability_core.providers.gateway import StepGateway
from reliability_core.providers.latency import DelayedSearch, with_model_latency, with_recording, with_replay
from reliability_core.providers.recording import RecordingSearch
from reliability_core.providers.retry import RetryPolicy
from reliability_core.records import TABLE_MODELS
from reliability_core.settings import Settings, settings
from reliability_core.stand_in.corpus import DEMO_CORPUS_NOW
from reliability_core.stand_in.web import offline_fetcher
from reliability_core.version import method_version
from reliability_core.warehouse import Ledger, Warehouse
from reliability_core.web.fetch import SafeFetcher, live_fetcher
from reliability_core.wiring import build_gateway, build_search
from reliability_dagster.pools import WEB, current_limiter, pooled_gateway, pooled_search


class WarehouseResource(dg.ConfigurableResource[Any]):
    """Parquet-per-partition warehouse; ``root`` may be a local path or an object-store URL."""

    root: str = Field(
        description="Warehouse root: a local path or a pyarrow.fs URL (s3://, gs://); env RELIABILITY_WAREHOUSE"
    )

    def warehouse(self) -> Warehouse:
        # The tables' record models: an empty partition gets its table's schema.
        return Warehouse(self.root, TABLE_MODELS)

    def ledger(self) -> Ledger:
        return Ledger(self.warehouse())


class ClockResource(dg.ConfigurableResource[Any]):
    """The clock every time-dependent rule uses; ``fixed_now`` (ISO 8601) pins
    it, e.g. for the reproducible demo."""

    fixed_now: str = Field(default="", description="ISO 8601 time the clock is pinned to; env RELIABILITY_NOW")

    def clock(self) -> Clock:
        return parse_clock_override(self.fixed_now)


class ProvidersResource(dg.ConfigurableResource[Any]):
    """Model and search providers. Keys are optional: absent keys mean the
    deterministic offline providers over ``corpus_dir``."""

    anthropic_api_key: str | None = None
    openai_api_key: str | None = None
    perplexity_api_key: str | None = None
    corpus_dir: str = Field(description="Offline corpus served when no live provider is configured")
    cache_dir: str = Field(description="Durable content-addressed response cache")
    bypass_cache: bool = Field(
        default_factory=lambda: settings().cache_bypass,
        description="Make fresh model and search calls (still writing the cache); env RELIABILITY_CACHE_BYPASS",
    )
    force_offline: bool = Field(
        default_factory=lambda: settings().offline,
        description="Every step on the offline stand-in, even with keys set; env RELIABILITY_OFFLINE",
    )
    step_models: dict[str, str] = Field(
        default_factory=lambda: settings().models,
        description="Per-step model overrides, step -> <provider>:<model>[@<base_url>]; env RELIABILITY_MODEL_<STEP>",
    )
    concurrency: dict[str, int] = Field(
        default_factory=lambda: settings().concurrency,
        description="Concurrent calls per provider (anthropic, openai, openai-compatible, offline-rules); "
        "env RELIABILITY_CONCURRENCY_<PROVIDER>",
    )
    fault_rate: float = Field(
        default=0.0, description="Resilience testing only: share of model calls that fail like a real API would"
    )
    fault_seed: int = 0
    fault_max_consecutive: int | None = Field(
        default=None,
        description="Resilience testing only: most attempts in a row one call may fail (empty: unbounded)",
    )
    search_fault_rate: float = Field(
        default=0.0,
        description="Resilience testing only: share of search attempts that fail like the search API would, "
        "each query retried as live search retries it (same seed and consecutive bound as fault_rate)",
    )
    search_fault_retry_delay: float = Field(
        default=1.0,
        description="Resilience testing only: base delay in seconds of the retries of injected search faults "
        "(live search: 1 s; 0 lets a test run many subjects without sleeping)",
    )
    simulated_model_latency: float = Field(default=0.0, description="Benchmarks only: seconds added to every model call")
    simulated_search_latency: float = Field(default=0.0, description="Benchmarks only: seconds added to every search")
    anthropic_base_url: str = Field(default="", description="Anthropic API base URL (a gateway or proxy); empty: the vendor's")
    openai_base_url: str = Field(default="", description="OpenAI API base URL (a gateway or proxy); empty: the vendor's")
    perplexity_base_url: str = Field(default="", description="Perplexity API base URL (a gateway or proxy); empty: the vendor's")
    rehearsal: bool = Field(
        default=False,
        description="The base URLs are the local rehearsal servers (a scripted model): every record says so",
    )
    batch_jobs: list[str] = Field(
        default_factory=lambda: settings().batch_jobs,
        description="Jobs whose model calls go through the vendors' batch APIs at their batch prices "
        "(not urgent work: e.g. refresh, backtest_gold_set); env RELIABILITY_BATCH_JOBS (comma-separated)",
    )
    batch_poll_seconds: float = Field(default=30.0, description="How often a step polls its pending batch")
    offline_pools: bool = Field(
        default=False,
        description="Rehearsals and tests: offline-rules calls also take slots of the provider pools they stand "
        "in for (live calls always do)",
    )
    model_recording_dir: str = Field(
        default="",
        description="Benchmarks only: record model answers here; with a simulated model latency, replay them "
        "instead (no local compute, like a remote model)",
    )

    def _settings(self) -> Settings:
        """The process's settings with this resource's config in place of theirs."""
        return settings().model_copy(
            update={
                "offline": self.force_offline,
                "cache_bypass": self.bypass_cache,
                "models": dict(self.step_models),
                "concurrency": dict(self.concurrency),
            }
        )

    def _env(self) -> dict[str, str]:
        """The keys and vendor base URLs ``build_gateway`` and ``build_search`` read."""
        env: dict[str, str] = {}
        for key, value in (
            ("ANTHROPIC_API_KEY", self.anthropic_api_key),
            ("OPENAI_API_KEY", self.openai_api_key),
            ("PERPLEXITY_API_KEY", self.perplexity_api_key),
        ):
            if value:
                env[key] = value
        for key, value in (
            ("ANTHROPIC_BASE_URL", self.anthropic_base_url),
            ("OPENAI_BASE_URL", self.openai_base_url),
            ("PERPLEXITY_BASE_URL", self.perplexity_base_url),
        ):
            # Base URLs are configuration (a company gateway), not secrets.
            if value or os.environ.get(key):
                env[key] = value or os.environ[key]
        return env

    @property
    def offline(self) -> bool:
        """True when any step runs on the offline rules (e.g. only one vendor's
        key set): then every record says offline-rules in its method version."""
        return self.gateway().is_offline()

    def gateway(self, job: str = "") -> StepGateway:
        """The model gateway, each provider's calls bounded across runs by its pool
        (``reliability_dagster.pools``). For a job named in ``batch_jobs``, Anthropic and
        OpenAI calls go through their batch APIs (the step polls its batch until it ends)
        and take no per-call slots: a batch is one request, queued by the vendor."""
        base = self.base_gateway(job)
        if job and job in self.batch_jobs:
            return base
        return pooled_gateway(base, current_limiter(), self.offline_pools)

    def base_gateway(self, job: str = "") -> StepGateway:
        """The gateway before pooling: assignment, cache, batches, and the benchmark and fault wrappers."""
        gateway = build_gateway(self._env(), cache_dir=Path(self.cache_dir), settings=self._settings())
        if job and job in self.batch_jobs:
            # Imported here: the batch module loads the Anthropic and OpenAI SDKs (~1.2 s of CPU),
            # which every other process (each offline run, the code server) would pay for nothing.
            from reliability_core.providers.batch import BatchSettings, with_batches

            gateway = with_batches(gateway, BatchSettings(poll_seconds=self.batch_poll_seconds))
        if self.model_recording_dir:
            recording = ResponseCache(Path(self.model_recording_dir))
            if self.simulated_model_latency > 0:
                gateway = with_replay(gateway, recording, self.simulated_model_latency)
            else:
                gateway = with_recording(gateway, recording)
        elif self.simulated_model_latency > 0:
            gateway = with_model_latency(gateway, self.simulated_model_latency)
        if self.fault_rate > 0:
            gateway = with_fault_injection(gateway, self.fault_rate, self.fault_seed, self.fault_max_consecutive)
        return gateway

    def search(self, clock: Clock, *, refresh: bool = False) -> RecordingSearch:
        """Web search, its provider's queries bounded across runs by the ``perplexity`` pool;
        for a refresh, one that reuses no identity or evidence result retrieved before now
        (candidate searches keep their 90-day window)."""
        search = pooled_search(self.base_search(clock), current_limiter(), self.offline_pools)
        return search.for_refresh() if refresh else search

    def base_search(self, clock: Clock) -> RecordingSearch:
        search = build_search(
            self._env(),
            corpus_dir=Path(self.corpus_dir),
            settings=self._settings(),
            cache_dir=Path(self.cache_dir),
            clock=clock,
        )
        if self.simulated_search_latency > 0:
            search.provider = DelayedSearch(search.provider, self.simulated_search_latency)
        if self.search_fault_rate > 0:
            search.provider = FaultInjectingSearch(
                search.provider,
                self.search_fault_rate,
                self.fault_seed,
                self.fault_max_consecutive,
                retry=RetryPolicy(base_delay=self.search_fault_retry_delay),
            )
        return search

    def method_version(self) -> str:
        return method_version(offline=self.offline, rehearsal=self.rehearsal)


class FetcherResource(dg.ConfigurableResource[Any]):
    """The safe fetcher: over the offline corpus (``mode="offline"``) or the live web."""

    mode: str = Field(default="offline", description='"offline" (demo corpus) or "live" (the web)')
    corpus_dir: str
    simulated_latency: float = Field(default=0.0, description="Benchmarks only: seconds added to every offline fetch")
    offline_pools: bool = Field(
        default=False, description="Rehearsals and tests: offline fetches also take slots of the web pool"
    )

    def fetcher(self, clock: Clock) -> SafeFetcher:
        """The fetcher, its requests bounded across runs by the ``web`` pool (live, or offline with ``offline_pools``)."""
        fetcher = self.base_fetcher(clock)
        limiter = current_limiter()
        if limiter is not None and (self.mode == "live" or self.offline_pools):
            fetcher.gate_requests(lambda: limiter.slot(WEB))
        return fetcher

    def base_fetcher(self, clock: Clock) -> SafeFetcher:
        if self.mode == "live":
            return live_fetcher(clock)
        if self.mode != "offline":
            raise ValueError(f'fetcher mode must be "offline" or "live", not {self.mode!r}')
        return offline_fetcher(Path(self.corpus_dir), clock, latency_seconds=self.simulated_latency)


def _optional_secret(name: str) -> dg.EnvVar | None:
    # Only the presence of the variable is checked here; its value is resolved by Dagster.
    return dg.EnvVar(name) if name in os.environ else None


def default_resources() -> dict[str, dg.ConfigurableResource[Any]]:
    """Resources for the code location: offline unless keys are in the environment.
    Every settings value is passed explicitly, so the UI shows it as configured (a
    field's default factory is invisible there)."""
    chosen = settings()
    live_web = bool(os.environ.get("PERPLEXITY_API_KEY"))
    live_models = "ANTHROPIC_API_KEY" in os.environ or "OPENAI_API_KEY" in os.environ
    return {
        "warehouse": WarehouseResource(root=chosen.warehouse),
        "clock": ClockResource(fixed_now=chosen.now or ("" if live_models else DEMO_CORPUS_NOW)),
        "providers": ProvidersResource(
            anthropic_api_key=_optional_secret("ANTHROPIC_API_KEY"),
            openai_api_key=_optional_secret("OPENAI_API_KEY"),
            perplexity_api_key=_optional_secret("PERPLEXITY_API_KEY"),
            corpus_dir=str(chosen.corpus_dir),
            cache_dir=str(chosen.cache_dir),
            bypass_cache=chosen.cache_bypass,
            force_offline=chosen.offline,
            step_models=chosen.models,
            concurrency=chosen.concurrency,
            batch_jobs=chosen.batch_jobs,
        ),
        "fetcher": FetcherResource(mode="live" if live_web else "offline", corpus_dir=str(chosen.corpus_dir)),
    }
