"""Model calls through the vendors' batch interfaces, for work that is not urgent.

Scheduled refreshes and backtests can wait: the Anthropic Message Batches API
and the OpenAI Batch API take the same requests at a lower price (the
``batch_discount`` of ``reliability_core/providers/prices.yaml``) and answer within hours.
``with_batches(gateway)`` puts a ``BatchingProvider`` in front of each Anthropic
and OpenAI provider: calls that arrive together (a step issues its calls
concurrently) are collected for a short window, submitted as one batch, and the
step itself polls the batch until it has ended; each call then gets its own
result. A request the batch reports as errored, expired or canceled raises for
that call alone, so the gateway's retry policy and item-level failure handling
apply to it as to an interactive call. The request parameters and the parsing
of each answer are the interactive providers' own (``message_params`` /
``response_from_message``, ``response_params`` / ``response_from_api``), so a
batch never sends or reads anything different.

Wire shapes: Anthropic ``POST /v1/messages/batches`` with ``requests[]`` of
``custom_id`` and ``params``, ``GET .../{id}`` until ``processing_status`` is
``ended``, then the JSONL results (``result.type`` succeeded / errored /
canceled / expired). OpenAI: a JSONL file of ``custom_id``, ``method``,
``url``, ``body`` uploaded with ``purpose=batch``, ``POST /v1/batches`` with
``endpoint=/v1/responses`` and ``completion_window=24h``, ``GET`` until the
status is final, then the output file's lines (``response.status_code``,
``response.body``) and the error file's.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from openai.types.responses import Response as OpenAIResponse
from pydantic import ValidationError

from reliability_core.providers.anthropic_provider import AnthropicProvider, response_from_message
from reliability_core.providers.base import ModelProvider, ModelRequest, ModelResponse
from reliability_core.providers.errors import PermanentProviderError, TransientProviderError
from reliability_core.providers.gateway import StepGateway
from reliability_core.providers.loops import PerLoop
from reliability_core.providers.openai_provider import OpenAIProvider, response_from_api

# Calls waiting for a batch are not concurrent API calls: the per-provider
# concurrency bound of interactive calls would cut every batch to its size.
BATCH_CONCURRENCY = 10_000
DEFAULT_WINDOW_SECONDS = 0.5
DEFAULT_POLL_SECONDS = 30.0
DEFAULT_MAX_WAIT_SECONDS = 24 * 3600.0
MAX_BATCH_REQUESTS = 10_000
ANTHROPIC_FINAL = "ended"
OPENAI_FINAL = frozenset({"completed", "failed", "expired", "cancelled"})

Outcome = ModelResponse | Exception
Submit = Callable[[Sequence[ModelRequest]], Awaitable[list[Outcome]]]


@dataclass(frozen=True)
class BatchSettings:
    """How long to collect calls, how often to poll, how long to wait at most."""

    window_seconds: float = DEFAULT_WINDOW_SECONDS
    poll_seconds: float = DEFAULT_POLL_SECONDS
    max_wait_seconds: float = DEFAULT_MAX_WAIT_SECONDS


def _as_batch(outcome: Outcome) -> Outcome:
    """Mark a batch answer's usage as batch (priced at the batch discount)."""
    if isinstance(outcome, ModelResponse):
        return outcome.model_copy(update={"usage": outcome.usage.model_copy(update={"batch": True})})
    return outcome


async def _wait_until(
    fetch: Callable[[], Awaitable[Any]], done: Callable[[Any], bool], settings: BatchSettings, what: str
) -> Any:
    """Poll ``fetch`` until ``done``; the step waits here, sleeping, not spinning."""
    waited = 0.0
    while True:
        state = await fetch()
        if done(state):
            return state
        if waited >= settings.max_wait_seconds:
            raise TransientProviderError(f"{what} still not finished after {waited:.0f} s")
        await asyncio.sleep(settings.poll_seconds)
        waited += settings.poll_seconds


def _parsed(parse: Callable[[], ModelResponse]) -> Outcome:
    """One item's answer, or the provider error its parsing raised (that item alone fails)."""
    try:
        return parse()
    except (PermanentProviderError, TransientProviderError) as exc:
        return exc


def anthropic_submitter(provider: AnthropicProvider, settings: BatchSettings) -> Submit:
    """One Message Batch per group of calls."""

    async def submit(requests: Sequence[ModelRequest]) -> list[Outcome]:
        client = provider.client()
        batch = await client.messages.batches.create(
            requests=[
                {"custom_id": f"r{i}", "params": provider.message_params(r)}  # type: ignore[typeddict-item]
                for i, r in enumerate(requests)
            ]
        )
        batch = await _wait_until(
            lambda: client.messages.batches.retrieve(batch.id),
            lambda b: b.processing_status == ANTHROPIC_FINAL,
            settings,
            f"anthropic message batch {batch.id}",
        )
        results: dict[str, Any] = {}
        async for entry in await client.messages.batches.results(batch.id):
            results[entry.custom_id] = entry.result
        outcomes: list[Outcome] = []
        for i, request in enumerate(requests):
            result = results.get(f"r{i}")
            where = f"anthropic message batch {batch.id} item r{i}"
            if result is None:
                outcomes.append(TransientProviderError(f"{where}: no result"))
            elif result.type == "succeeded":
                outcomes.append(_parsed(partial(response_from_message, result.message, request, None)))
            elif result.type == "errored":
                error = getattr(result.error, "error", None)
                kind = getattr(error, "type", "api_error")
                text = f"{where} errored ({kind}): {getattr(error, 'message', '')}"
                retryable = kind in ("overloaded_error", "api_error", "rate_limit_error")
                outcomes.append(TransientProviderError(text) if retryable else PermanentProviderError(text))
            else:  # canceled or expired: the request never ran
                outcomes.append(TransientProviderError(f"{where} {result.type}"))
        return outcomes

    return submit


def openai_submitter(provider: OpenAIProvider, settings: BatchSettings) -> Submit:
    """One OpenAI Batch (a JSONL input file) per group of calls."""

    async def submit(requests: Sequence[ModelRequest]) -> list[Outcome]:
        client = provider.client()
        lines = [
            json.dumps(
                {"custom_id": f"r{i}", "method": "POST", "url": "/v1/responses", "body": provider.response_params(r)}
            )
            for i, r in enumerate(requests)
        ]
        upload = await client.files.create(
            file=("batch.jsonl", ("\n".join(lines) + "\n").encode("utf-8"), "application/jsonl"), purpose="batch"
        )
        batch = await client.batches.create(
            input_file_id=upload.id, endpoint="/v1/responses", completion_window="24h"
        )
        batch = await _wait_until(
            lambda: client.batches.retrieve(batch.id),
            lambda b: b.status in OPENAI_FINAL,
            settings,
            f"openai batch {batch.id}",
        )
        rows: dict[str, dict[str, Any]] = {}
        for file_id in (batch.output_file_id, batch.error_file_id):
            if file_id:
                content = await client.files.content(file_id)
                for line in content.text.splitlines():
                    if line.strip():
                        row = json.loads(line)
                        rows[str(row.get("custom_id"))] = row
        outcomes: list[Outcome] = []
        for i, request in enumerate(requests):
            row = rows.get(f"r{i}")
            where = f"openai batch {batch.id} item r{i}"
            response = (row or {}).get("response") or {}
            status = int(response.get("status_code") or 0)
            if row is None:
                outcomes.append(TransientProviderError(f"{where}: no result (batch {batch.status})"))
            elif status == 200:
                try:
                    body = OpenAIResponse.model_validate(response.get("body") or {})
                except ValidationError as exc:
                    outcomes.append(PermanentProviderError(f"{where}: not a Response: {exc}"))
                    continue
                outcomes.append(_parsed(partial(response_from_api, body, request, response.get("request_id"))))
            else:
                error = row.get("error") or (response.get("body") or {}).get("error") or {}
                text = f"{where} HTTP {status}: {error.get('message', '')}"
                retryable = status == 429 or status >= 500
                outcomes.append(TransientProviderError(text) if retryable else PermanentProviderError(text))
        return outcomes

    return submit


@dataclass
class _Pending:
    requests: list[ModelRequest] = field(default_factory=list)
    futures: list[asyncio.Future[Outcome]] = field(default_factory=list)
    flusher: asyncio.Task[None] | None = None


class BatchingProvider:
    """A provider whose calls go out in batches: ``complete`` waits for its batch's answer."""

    def __init__(self, inner: ModelProvider, submit: Submit, settings: BatchSettings) -> None:
        self.name = inner.name
        self.family = inner.family
        self.inner = inner
        self._submit = submit
        self._settings = settings
        self._pending: PerLoop[_Pending] = PerLoop(_Pending)
        self.batches_submitted = 0

    async def complete(self, request: ModelRequest) -> ModelResponse:
        pending = self._pending.get()
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        pending.requests.append(request)
        pending.futures.append(future)
        if pending.flusher is None:
            pending.flusher = asyncio.create_task(self._flush_later(pending))
        if len(pending.requests) >= MAX_BATCH_REQUESTS:
            await self._flush(pending)
        outcome = await future
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    async def _flush_later(self, pending: _Pending) -> None:
        await asyncio.sleep(self._settings.window_seconds)
        await self._flush(pending)

    async def _flush(self, pending: _Pending) -> None:
        requests, futures = pending.requests, pending.futures
        pending.requests, pending.futures = [], []
        if pending.flusher is not None and pending.flusher is not asyncio.current_task():
            pending.flusher.cancel()
        pending.flusher = None
        if not requests:
            return
        self.batches_submitted += 1
        try:
            outcomes = await self._submit(requests)
        except Exception as exc:  # the whole batch failed: every call in it gets the error
            outcomes = [exc] * len(requests)
        for future, outcome in zip(futures, outcomes, strict=True):
            if not future.done():
                future.set_result(_as_batch(outcome))


def with_batches(gateway: StepGateway, settings: BatchSettings | None = None) -> StepGateway:
    """The same gateway with Anthropic and OpenAI calls going through their batch APIs
    (other providers, e.g. the offline rules or an OpenAI-compatible server, unchanged)."""
    chosen = settings or BatchSettings()

    def wrap(provider: ModelProvider) -> ModelProvider:
        if isinstance(provider, AnthropicProvider):
            return BatchingProvider(provider, anthropic_submitter(provider, chosen), chosen)
        if isinstance(provider, OpenAIProvider):
            return BatchingProvider(provider, openai_submitter(provider, chosen), chosen)
        return provider

    batched = gateway.with_providers(wrap)
    batched.concurrency = {**batched.concurrency, "anthropic": BATCH_CONCURRENCY, "openai": BATCH_CONCURRENCY}
    return batched
