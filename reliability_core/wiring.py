"""Which provider answers each step in this environment: the live provider classes
when their keys are set, the offline stand-in otherwise.

The one place that builds both, so the provider layer below never imports the
stand-in and the stand-in never decides what runs live. Callers: the Dagster
resources, the CLI, the rehearsal and tests.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from reliability_core.providers.assignment import (
    StepAssignment,
    check_model_table,
    concurrency_limits,
    resolve_assignment,
)
from reliability_core.providers.base import OFFLINE_NAME, ModelProvider, SearchProvider
from reliability_core.providers.catalogue import check_models_are_listed
from reliability_core.settings import Settings
from reliability_core.verdicts.steering_screen import window_cache
from reliability_core.version import SAME_FAMILY_EXPERIMENT, active_experiments

# The key that makes a vendor's steps run live (an unset key leaves them to the stand-in).
VENDOR_KEYS: dict[str, str] = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}

if TYPE_CHECKING:
    import httpx
    import httpx2

    from reliability_core.clock import Clock
    from reliability_core.providers.gateway import StepGateway
    from reliability_core.providers.recording import RecordingSearch
    from reliability_core.providers.retry import RetryPolicy
    from reliability_core.subjects.coverage import StandInWorld


def build_gateway(
    env: Mapping[str, str],
    cache_dir: Path | None,
    *,
    settings: Settings | None = None,
    config: Mapping[str, str] | None = None,
    prices_path: Path | None = None,
    prompts_dir: Path | None = None,
    http_client: httpx2.AsyncClient | None = None,
    retry: RetryPolicy | None = None,
) -> StepGateway:
    """The gateway for this environment.

    ``env`` holds the keys and vendor base URLs (the process environment, or a test's
    explicit values); ``settings`` the ``RELIABILITY_*`` settings, by default read from
    the same ``env`` (``Settings.from_environ``), so a test passes one mapping.
    A step assigned to Anthropic runs live when ``ANTHROPIC_API_KEY`` is set, a
    step assigned to OpenAI when ``OPENAI_API_KEY`` is set; otherwise the step
    runs on the offline rules (so with no keys everything is offline).
    ``openai-compatible`` steps always run live (the base URL is an explicit
    choice; ``OPENAI_COMPATIBLE_API_KEY`` is sent when set).
    ``offline`` (``RELIABILITY_OFFLINE=1``) forces the offline rules for every step;
    ``cache_bypass`` (``RELIABILITY_CACHE_BYPASS=1``) makes fresh calls (still writing the
    cache); ``concurrency`` (``RELIABILITY_CONCURRENCY_<PROVIDER>=n``) bounds concurrent calls.
    ``gateway.describe()`` shows the outcome.
    """
    from reliability_core.providers.cache import ResponseCache
    from reliability_core.providers.gateway import DEFAULT_PROMPTS_DIR, StepGateway
    from reliability_core.providers.pricing import DEFAULT_PRICES_PATH, load_prices
    from reliability_core.stand_in.model import OfflineRulesProvider

    # The vendor SDKs are imported only for a step that uses them: importing anthropic and
    # openai costs ~3 s of CPU, which an offline run paid in its first step.

    chosen_settings = settings or Settings.from_environ(env)
    wanted = resolve_assignment(chosen_settings.models, config)
    check_model_table(
        wanted, env, same_family_experiment=SAME_FAMILY_EXPERIMENT in active_experiments(chosen_settings)
    )
    force_offline = chosen_settings.offline
    # An id the vendor does not serve would fail every call of its step (a reviewer that does
    # not exist shows no verdict): refused now, for the steps that will call a vendor. Steps
    # left to the stand-in call nothing, and checking them would import both SDKs (~3 s)
    # into every offline run.
    check_models_are_listed(
        {
            step: (chosen.provider, chosen.model)
            for step, chosen in wanted.items()
            if not force_offline and chosen.provider in VENDOR_KEYS and env.get(VENDOR_KEYS[chosen.provider])
        },
        chosen_settings.allowed_models,
    )
    offline = StepAssignment(provider=OFFLINE_NAME, model=OFFLINE_NAME)
    offline_provider = OfflineRulesProvider()
    shared: dict[str, ModelProvider] = {}
    assignment: dict[str, StepAssignment] = {}
    providers: dict[str, ModelProvider] = {}
    for step, chosen in wanted.items():
        provider: ModelProvider | None = None
        if force_offline or chosen.provider == OFFLINE_NAME:
            provider = None
        elif chosen.provider == "anthropic" and env.get(VENDOR_KEYS["anthropic"]):
            if "anthropic" not in shared:
                from reliability_core.providers.anthropic_provider import AnthropicProvider

                shared["anthropic"] = AnthropicProvider(
                    env["ANTHROPIC_API_KEY"],
                    base_url=env.get("ANTHROPIC_BASE_URL") or None,
                    http_client=http_client,
                )
            provider = shared["anthropic"]
        elif chosen.provider == "openai" and env.get(VENDOR_KEYS["openai"]):
            if "openai" not in shared:
                from reliability_core.providers.openai_provider import OpenAIProvider

                shared["openai"] = OpenAIProvider(
                    env["OPENAI_API_KEY"],
                    base_url=env.get("OPENAI_BASE_URL") or None,
                    http_client=http_client,
                )
            provider = shared["openai"]
        elif chosen.provider == "openai-compatible":
            assert chosen.base_url is not None
            slot = f"openai-compatible@{chosen.base_url}"
            if slot not in shared:
                from reliability_core.providers.openai_compatible import OpenAICompatibleProvider

                shared[slot] = OpenAICompatibleProvider(
                    chosen.base_url,
                    api_key=env.get("OPENAI_COMPATIBLE_API_KEY") or "not-needed",
                    family=env.get("OPENAI_COMPATIBLE_FAMILY") or chosen.model.split("-")[0],
                    http_client=http_client,
                )
            provider = shared[slot]
        if provider is None:
            assignment[step] = offline
            providers[step] = offline_provider
        else:
            assignment[step] = chosen
            providers[step] = provider
    cache = None
    if cache_dir is not None:
        cache = ResponseCache(cache_dir / "models", bypass=chosen_settings.cache_bypass)
        # The steering screen's flagged windows per text, beside the model answers: a re-run
        # or refresh reads the same evidence pages (steering_screen.window_cache); a bypass
        # (the stability check) re-scores, as it re-asks the models.
        windows = ResponseCache(cache_dir / "steering_screen", bypass=chosen_settings.cache_bypass)
        window_cache.use_cache(windows)
    return StepGateway(
        assignment,
        providers,
        cache=cache,
        prices=load_prices(prices_path or DEFAULT_PRICES_PATH),
        retry=retry,
        prompts_dir=prompts_dir or DEFAULT_PROMPTS_DIR,
        concurrency=concurrency_limits(chosen_settings.concurrency),
    )


def _manifest_mtime(corpus_dir: Path) -> float:
    manifest = corpus_dir / "manifest.yaml"
    return manifest.stat().st_mtime if manifest.exists() else 0.0


@functools.lru_cache(maxsize=4)
def _offline_search(corpus_dir: Path, manifest_mtime: float) -> SearchProvider:
    """One FTS5 index per corpus per process (building it reads every page:
    ~0.8 s for the demo corpus); a changed manifest builds a new one."""
    from reliability_core.stand_in.search import OfflineSearch

    return OfflineSearch(corpus_dir)


def stand_in_subjects(
    gateway: StepGateway, search_name: str, corpus_dir: Path, *, rehearsal: bool
) -> StandInWorld | None:
    """The stand-in's world (``subjects.coverage.stand_in_cannot_decide``) when a stand-in
    takes part in this run's coverage decision: the offline rules on a coverage step, the
    offline search (``search_name``), or the rehearsal's scripted model, whose servers answer
    from the same demo corpus. None when live providers decide."""
    from reliability_core.stand_in.corpus import corpus_subject_names, corpus_subjects
    from reliability_core.stand_in.search import OfflineSearch
    from reliability_core.subjects.coverage import CONFIRM_IDENTITY_STEP, DECIDE_COVERAGE_STEP, StandInWorld

    stand_in = (
        rehearsal
        or search_name == OfflineSearch.name
        or gateway.is_offline(CONFIRM_IDENTITY_STEP)
        or gateway.is_offline(DECIDE_COVERAGE_STEP)
    )
    if not stand_in:
        return None
    return StandInWorld(subject_ids=corpus_subjects(corpus_dir), names=corpus_subject_names(corpus_dir))


def build_search(
    env: Mapping[str, str],
    corpus_dir: Path,
    *,
    settings: Settings | None = None,
    cache_dir: Path | None = None,
    clock: Clock | None = None,
    http_client: httpx.AsyncClient | None = None,
    retry: RetryPolicy | None = None,
) -> RecordingSearch:
    """Perplexity when ``PERPLEXITY_API_KEY`` is set in ``env`` (and the settings'
    ``offline`` is not; ``PERPLEXITY_BASE_URL`` points it at a gateway or the rehearsal
    server), otherwise the FTS5 index over ``corpus_dir``; wrapped so every result set is
    recorded. ``settings`` as for ``build_gateway``."""
    from reliability_core.clock import SystemClock
    from reliability_core.providers.cache import ResponseCache
    from reliability_core.providers.recording import RecordingSearch

    chosen_settings = settings or Settings.from_environ(env)
    provider: SearchProvider
    live = bool(env.get("PERPLEXITY_API_KEY")) and not chosen_settings.offline
    if live:
        # Imported only here: the Perplexity SDK costs a process ~1.5 s and an offline run
        # never calls it (issue 29).
        from reliability_core.providers.perplexity import PERPLEXITY_BASE_URL, PerplexitySearch

        provider = PerplexitySearch(
            env["PERPLEXITY_API_KEY"],
            client=http_client,
            retry=retry,
            base_url=(env.get("PERPLEXITY_BASE_URL") or PERPLEXITY_BASE_URL).rstrip("/"),
        )
    else:
        provider = _offline_search(corpus_dir.resolve(), _manifest_mtime(corpus_dir))
    cache = None
    # The offline index is local and fast, and its answers change whenever the
    # corpus does: caching them by query alone served stale pages after a
    # corpus edit. Only live search is cached.
    if cache_dir is not None and live:
        cache = ResponseCache(cache_dir / "search", bypass=chosen_settings.cache_bypass)
    return RecordingSearch(provider, cache, clock or SystemClock())

