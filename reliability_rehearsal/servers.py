"""Local vendor servers for the rehearsal: real HTTP on 127.0.0.1, ephemeral ports.

Each speaks one vendor's wire format as documented (sources in
``docs/architecture/providers.md``, "Rehearsal servers") and enforces the rules
a live run meets:

* Anthropic Messages API (``POST /v1/messages``): a forced ``tool_choice``
  (``any`` or a named tool) on Claude Opus 5.5 and Sonnet 5.5 is HTTP 400
  ``invalid_request_error``; so is disabling thinking or giving it a budget on
  Opus 5.5 (adaptive thinking is always on there, ``output_config.effort`` sets
  its depth). Thinking blocks come before the text; thinking counts against
  ``max_tokens``; an answer cut by it ends ``stop_reason: max_tokens``; a refusal
  is ``stop_reason: refusal`` with ``stop_details`` (category, explanation).
  Prompt caching: a ``cache_control`` breakpoint (on a block, or top level for
  automatic caching) caches the prefix up to it once it reaches the model's
  minimum; ``usage`` reports ``cache_creation_input_tokens`` and
  ``cache_read_input_tokens`` beside the uncached ``input_tokens``.
* OpenAI Responses API (``POST /v1/responses``): ``text.format`` json_schema
  with ``strict: true`` must be a strict schema (every object closed, every
  property required) or the call is 400; ``temperature`` on a reasoning model is
  400; reasoning tokens count against ``max_output_tokens`` and a cut answer is
  ``status: incomplete`` with ``incomplete_details.reason: max_output_tokens``;
  refusals are a ``refusal`` content item; prompts of 1,024 tokens or more are
  cached automatically (``usage.input_tokens_details.cached_tokens``).
* OpenAI Chat Completions (``POST /v1/chat/completions``, for openai-compatible):
  ``max_tokens`` on a reasoning model is 400 (``max_completion_tokens`` is
  required); ``json_object`` is not schema-enforced, so prose can surround it;
  a cut answer has ``finish_reason: length``.
* Perplexity Search API (``POST /search``): at most 20 ``search_domain_filter``
  entries and never allow and deny entries mixed (400 otherwise); results from
  the offline index over the corpus, as ``results[]`` of title, url, snippet, date.

Both model servers answer only for the model ids their vendor serves (the installed SDK's
catalogue and ``RELIABILITY_ALLOWED_MODELS``): any other id is the vendor's 404
(Anthropic ``not_found_error``, OpenAI ``model_not_found``), as a live call would be.

Every server also fails a seeded share of calls the way its vendor does: 429
with ``retry-after`` (and Anthropic's 529 ``overloaded_error``), each error body
in the vendor's shape with a request id.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from email.parser import BytesParser
from email.policy import default as email_default
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from reliability_core.providers.base import SearchProvider, SearchQuery
from reliability_core.providers.catalogue import sdk_model_catalogue
from reliability_core.settings import settings
from reliability_rehearsal.scripted_model import (
    ScriptedAnswer,
    ScriptedModel,
    estimate_tokens,
    request_key,
)

# Models whose forced tool use is rejected ("What's new in Claude Opus 5.5").
NO_FORCED_TOOL_MODELS = frozenset({"claude-opus-5-5", "claude-sonnet-5-5"})
# Adaptive thinking always on: disabling it or setting a budget is rejected.
ALWAYS_THINKING_MODELS = frozenset({"claude-opus-5-5"})
ANTHROPIC_EFFORTS = frozenset({"low", "medium", "high", "xhigh", "max"})
OPENAI_EFFORTS = frozenset({"none", "minimal", "low", "medium", "high", "xhigh", "max"})
# GPT-6.1 Sol takes no "none" or "minimal" effort (its model page; apidog's migration guide);
# nor do GPT-6.2 Astra and Sol ("Both models ... reject reasoning_effort values none and
# minimal": LiteLLM's GPT-6.2 support notes; the GPT-6.2 Sol model page).
NO_MINIMAL_EFFORT_PREFIXES = ("gpt-6.1", "gpt-6.2")
ANTHROPIC_MAX_OUTPUT = 128_000
# Prompt caching. These are the vendors' rules, which the local servers enforce, not
# rules of the method: nothing the method decides depends on them (caching changes what
# a call costs, never what it answers), so they stay here beside the other vendor limits
# rather than in ``reliability_core.constants``.
# Minimum cacheable prefix (tokens). The 5.5 generation's figures are not on the
# pages we could read; these follow the last published ones for the 5 line.
ANTHROPIC_MIN_CACHEABLE = {"claude-opus-5-5": 512, "claude-sonnet-5-5": 1024, "claude-haiku-5-5": 1024}
ANTHROPIC_DEFAULT_MIN_CACHEABLE = 1024  # a model not listed: the common figure
ANTHROPIC_CACHE_TTL_SECONDS = 300.0
OPENAI_MIN_CACHEABLE = 1024
OPENAI_CACHE_INCREMENT = 128
PERPLEXITY_MAX_DOMAINS = 20
PERPLEXITY_MAX_RESULTS = 20
RETRY_AFTER_SECONDS = 1


@dataclass(frozen=True)
class FaultRates:
    """Seeded share of calls each server fails the way its vendor does."""

    rate_limited: float = 0.02  # 429 with retry-after
    overloaded: float = 0.01  # Anthropic 529 overloaded_error; OpenAI 503

    @classmethod
    def none(cls) -> FaultRates:
        return cls(0.0, 0.0)


@dataclass
class StepTally:
    """What one vendor billed for one step and model."""

    calls: int = 0
    input_tokens: int = 0  # uncached input
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0
    output_tokens: int = 0
    thinking_tokens: int = 0
    errors: int = 0


@dataclass
class VendorLog:
    """Every request the servers saw, by vendor, step and model; the mistakes made."""

    tallies: dict[tuple[str, str, str], StepTally] = field(default_factory=lambda: defaultdict(StepTally))
    mistakes: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    statuses: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    searches: int = 0
    batches: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    batch_requests: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def note_answer(self, vendor: str, model: str, answer: ScriptedAnswer, usage: StepTally) -> None:
        with self._lock:
            tally = self.tallies[(vendor, answer.step, model)]
            tally.calls += 1
            tally.input_tokens += usage.input_tokens
            tally.cache_write_tokens += usage.cache_write_tokens
            tally.cache_read_tokens += usage.cache_read_tokens
            tally.output_tokens += usage.output_tokens
            tally.thinking_tokens += usage.thinking_tokens
            for mistake in answer.mistakes:
                self.mistakes[mistake] += 1
            self.statuses[200] += 1

    def note_status(self, status: int) -> None:
        with self._lock:
            self.statuses[status] += 1

    def note_batch(self, vendor: str, requests: int) -> None:
        with self._lock:
            self.batches[vendor] += 1
            self.batch_requests[vendor] += requests

    def note_search(self) -> None:
        with self._lock:
            self.searches += 1
            self.statuses[200] += 1


class _Faults:
    """A seeded, thread-safe draw per request and attempt: the n-th sending of the same
    body (data-mark tokens left out, ``request_key``) always draws the same fault, so which
    calls fail does not depend on the order concurrent calls arrive in (one shared random
    sequence handed its faults to whichever call came first)."""

    def __init__(self, rates: FaultRates, seed: int) -> None:
        self._rates = rates
        self._seed = seed
        self._attempts: dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()

    def draw(self, body: bytes) -> str | None:
        key = hashlib.sha256(request_key(body.decode("utf-8", "replace")).encode("utf-8")).hexdigest()
        with self._lock:
            attempt = self._attempts[key]
            self._attempts[key] += 1
        digest = hashlib.sha256(f"{self._seed}\x1f{key}\x1f{attempt}".encode()).digest()
        roll = int.from_bytes(digest[:8], "big") / 2**64
        if roll < self._rates.rate_limited:
            return "rate_limited"
        if roll < self._rates.rate_limited + self._rates.overloaded:
            return "overloaded"
        return None


def _request_id(prefix: str, body: bytes) -> str:
    return f"{prefix}{hashlib.sha256(body + str(time.monotonic_ns()).encode()).hexdigest()[:24]}"


# -- Anthropic -----------------------------------------------------------------


def _anthropic_error(status: int, kind: str, message: str, request_id: str, **headers: str) -> JSONResponse:
    # {"type": "error", "error": {"type", "message"}, "request_id"} (Claude API errors page).
    return JSONResponse(
        {"type": "error", "error": {"type": kind, "message": message}, "request_id": request_id},
        status_code=status,
        headers={"request-id": request_id, **headers},
    )


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(block.get("text", "")) for block in content if isinstance(block, dict))
    return ""


def _blocks(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, str):
        return [{"type": "text", "text": value}]
    if isinstance(value, list):
        return [block for block in value if isinstance(block, dict)]
    return []


def anthropic_rule_violation(body: dict[str, Any]) -> str | None:
    """The documented 400s of the Messages API this server enforces, or ``None``."""
    model = str(body.get("model") or "")
    if not model:
        return "model: Field required"
    if not isinstance(body.get("max_tokens"), int) or body["max_tokens"] < 1:
        return "max_tokens: Field required (a positive integer)"
    if body["max_tokens"] > ANTHROPIC_MAX_OUTPUT:
        return f"max_tokens: {body['max_tokens']} > {ANTHROPIC_MAX_OUTPUT}, the maximum allowed for {model}"
    if not body.get("messages"):
        return "messages: Field required"
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and choice.get("type") in ("any", "tool") and model in NO_FORCED_TOOL_MODELS:
        return (
            f"tool_choice type {choice.get('type')!r} forces tool use, which is not supported on {model}; "
            "use tool_choice 'auto' or 'none', or structured outputs (output_config.format)"
        )
    thinking = body.get("thinking")
    if isinstance(thinking, dict) and model in ALWAYS_THINKING_MODELS:
        if thinking.get("type") == "disabled":
            return f"thinking cannot be disabled on {model}; adaptive thinking is always on (use output_config.effort)"
        if thinking.get("type") == "enabled" or "budget_tokens" in thinking:
            return f"thinking.budget_tokens is not supported on {model}; use thinking type 'adaptive' and output_config.effort"
    output_config = body.get("output_config")
    if output_config is not None:
        if not isinstance(output_config, dict):
            return "output_config: Input should be an object"
        effort = output_config.get("effort")
        if effort is not None and effort not in ANTHROPIC_EFFORTS:
            return f"output_config.effort: Input should be one of {sorted(ANTHROPIC_EFFORTS)}"
        fmt = output_config.get("format")
        if fmt is not None and (
            not isinstance(fmt, dict) or fmt.get("type") != "json_schema" or not isinstance(fmt.get("schema"), dict)
        ):
            return "output_config.format: expected {'type': 'json_schema', 'schema': {...}}"
    return None


class _AnthropicCache:
    """Prompt-cache entries by prefix hash, with the 5-minute TTL refreshed on use. An entry
    can be read only once the call that writes it has been answered (``commit``): calls sent
    at the same moment with the same new prefix all miss it and all write it, as they do
    at the vendor, so the rehearsal does not credit cache reads a live run would not get."""

    def __init__(self) -> None:
        self._expiry: dict[str, float] = {}
        self._lock = threading.Lock()

    def longest_hit(self, keys: list[str]) -> int:
        """The index of the longest readable prefix among ``keys`` (shortest first), or -1;
        a hit refreshes that entry's TTL."""
        now = time.monotonic()
        with self._lock:
            for index in range(len(keys) - 1, -1, -1):
                if self._expiry.get(keys[index], 0.0) > now:
                    self._expiry[keys[index]] = now + ANTHROPIC_CACHE_TTL_SECONDS
                    return index
        return -1

    def commit(self, keys: list[str]) -> None:
        """The answered call's prefixes become readable (written or refreshed)."""
        until = time.monotonic() + ANTHROPIC_CACHE_TTL_SECONDS
        with self._lock:
            for key in keys:
                self._expiry[key] = until


def _anthropic_segments(body: dict[str, Any]) -> list[tuple[str, bool]]:
    """The prompt in cache order (tools, system, messages) as (text, breakpoint after it)."""
    segments: list[tuple[str, bool]] = []
    for tool in body.get("tools") or []:
        if isinstance(tool, dict):
            segments.append((json.dumps(tool, sort_keys=True), "cache_control" in tool))
    fmt = (body.get("output_config") or {}).get("format")
    if fmt:
        # The schema becomes part of the prompt (a grammar plus its description).
        segments.append((json.dumps(fmt, sort_keys=True), False))
    for block in _blocks(body.get("system")):
        segments.append((str(block.get("text", "")), "cache_control" in block))
    for message in body.get("messages") or []:
        for block in _blocks(message.get("content") if isinstance(message, dict) else None):
            segments.append((str(block.get("text", "")), "cache_control" in block))
    if body.get("cache_control") and segments:
        # Automatic caching: the breakpoint goes on the last cacheable block.
        text, _ = segments[-1]
        segments[-1] = (text, True)
    return segments


def anthropic_usage(body: dict[str, Any], cache: _AnthropicCache) -> tuple[StepTally, list[str]]:
    """Input tokens split as Anthropic bills them, looked up when the call arrives: the longest
    prefix ending at a breakpoint that is cached is read, the rest up to the last breakpoint
    is written, the remainder is uncached input. Also the prefixes to ``commit`` once the
    call has been answered."""
    segments = _anthropic_segments(body)
    total = sum(estimate_tokens(text) for text, _ in segments)
    minimum = ANTHROPIC_MIN_CACHEABLE.get(str(body.get("model")), ANTHROPIC_DEFAULT_MIN_CACHEABLE)
    digest = hashlib.sha256(str(body.get("model")).encode())
    running = 0
    breakpoints: list[tuple[int, str]] = []  # (tokens up to the breakpoint, prefix hash)
    for text, breakpoint_after in segments:
        digest.update(text.encode("utf-8"))
        running += estimate_tokens(text)
        if breakpoint_after and running >= minimum:
            breakpoints.append((running, digest.hexdigest()))
    usage = StepTally(input_tokens=total)
    if not breakpoints:
        return usage, []
    keys = [key for _, key in breakpoints]
    hit = cache.longest_hit(keys)
    cached_prefix = breakpoints[-1][0]
    read = breakpoints[hit][0] if hit >= 0 else 0
    usage.input_tokens = total - cached_prefix
    usage.cache_read_tokens = read
    usage.cache_write_tokens = cached_prefix - read
    return usage, keys


def served_models(vendor: str, allowed: Collection[str] = ()) -> frozenset[str]:
    """The model ids a server answers for: its vendor's catalogue as the installed SDK lists
    it, and the ids the settings allow beyond it (``RELIABILITY_ALLOWED_MODELS``), as the
    start-up check accepts them. Any other id gets the vendor's 404, so a rehearsal with a
    model that does not exist fails the way a live run would."""
    return sdk_model_catalogue(vendor) | frozenset(allowed)


def anthropic_app(
    model: ScriptedModel, log: VendorLog, faults: _Faults, served: frozenset[str] | None = None
) -> Starlette:
    """The Messages API over the scripted model (``served``: the model ids it knows)."""
    cache = _AnthropicCache()
    known = served if served is not None else served_models("anthropic")

    async def answer(body: dict[str, Any], request_id: str) -> JSONResponse:
        """The scripted model's message for a request that passed the rules."""
        name = str(body["model"])
        if name not in known:
            # A model id the API does not serve: 404 not_found_error "model: <id>".
            log.note_status(404)
            return _anthropic_error(404, "not_found_error", f"model: {name}", request_id)
        output_config = body.get("output_config") or {}
        choice = body.get("tool_choice") or {}
        forced_tool = choice.get("name") if choice.get("type") == "tool" else None
        thinking_cfg = body.get("thinking") or {}
        # Adaptive thinking is on by default on the 5.5 models (always on Opus 5.5).
        thinking_on = name in ALWAYS_THINKING_MODELS or thinking_cfg.get("type") != "disabled"
        system = _text_of(body.get("system"))
        user = "\n".join(
            _text_of(m.get("content")) for m in body["messages"] if isinstance(m, dict) and m.get("role") == "user"
        )
        # The cache is looked up when the call arrives; what it writes is readable once answered.
        usage, prefixes = anthropic_usage(body, cache)
        try:
            answer = await asyncio.to_thread(
                model.answer,
                system=system,
                user=user,
                model=name,
                max_tokens=int(body["max_tokens"]),
                effort=output_config.get("effort"),
                schema_enforced=bool(output_config.get("format")) or forced_tool is not None,
                thinking=thinking_on,
            )
        except ValueError as exc:
            log.note_status(400)
            return _anthropic_error(400, "invalid_request_error", f"scripted model: {exc}", request_id)
        cache.commit(prefixes)
        usage.output_tokens = answer.output_tokens
        usage.thinking_tokens = answer.thinking_tokens
        log.note_answer("anthropic", name, answer, usage)

        content: list[dict[str, Any]] = []
        if answer.thinking_tokens:
            content.append(
                {
                    "type": "thinking",
                    "thinking": f"(scripted model, {answer.thinking_tokens} thinking tokens for {answer.step})",
                    "signature": hashlib.sha256(request_id.encode()).hexdigest(),
                }
            )
        stop_details: dict[str, Any] | None = None
        if answer.stop == "refusal":
            stop_details = {"type": "refusal", "category": "general_harms", "explanation": answer.refusal_explanation}
        elif forced_tool is not None and answer.stop == "end_turn":
            content.append(
                {
                    "type": "tool_use",
                    "id": f"toolu_{request_id[4:28]}",
                    "name": forced_tool,
                    "input": json.loads(answer.text),
                }
            )
        elif answer.text:
            content.append({"type": "text", "text": answer.text})
        stop_reason = "tool_use" if content and content[-1]["type"] == "tool_use" else answer.stop
        return JSONResponse(
            {
                "id": f"msg_{request_id[4:28]}",
                "type": "message",
                "role": "assistant",
                "model": name,
                "content": content,
                "stop_reason": stop_reason,
                "stop_sequence": None,
                "stop_details": stop_details,
                "usage": {
                    "input_tokens": usage.input_tokens,
                    "output_tokens": usage.output_tokens,
                    "cache_creation_input_tokens": usage.cache_write_tokens,
                    "cache_read_input_tokens": usage.cache_read_tokens,
                    "cache_creation": {
                        "ephemeral_5m_input_tokens": usage.cache_write_tokens,
                        "ephemeral_1h_input_tokens": 0,
                    },
                    "service_tier": "standard",
                },
            },
            headers={"request-id": request_id},
        )

    async def messages(request: Request) -> Response:
        raw = await request.body()
        request_id = _request_id("req_", raw)
        try:
            body = json.loads(raw)
        except ValueError:
            log.note_status(400)
            return _anthropic_error(400, "invalid_request_error", "request body is not valid JSON", request_id)
        if not isinstance(body, dict):
            log.note_status(400)
            return _anthropic_error(400, "invalid_request_error", "request body must be an object", request_id)
        # The SDK sends the key as a bearer token; older clients send x-api-key.
        if not (request.headers.get("x-api-key") or request.headers.get("authorization", "").startswith("Bearer ")):
            log.note_status(401)
            return _anthropic_error(401, "authentication_error", "x-api-key header is required", request_id)
        violation = anthropic_rule_violation(body)
        if violation is not None:
            log.note_status(400)
            return _anthropic_error(400, "invalid_request_error", violation, request_id)
        fault = faults.draw(raw)
        if fault == "rate_limited":
            log.note_status(429)
            return _anthropic_error(
                429,
                "rate_limit_error",
                "This request would exceed your organization's rate limit of output tokens per minute.",
                request_id,
                **{"retry-after": str(RETRY_AFTER_SECONDS)},
            )
        if fault == "overloaded":
            log.note_status(529)
            return _anthropic_error(529, "overloaded_error", "Overloaded", request_id)

        return await answer(body, request_id)

    batches: dict[str, dict[str, Any]] = {}

    def batch_object(batch_id: str, base: str) -> dict[str, Any]:
        state = batches[batch_id]
        ended = state["status"] == "ended"
        counts = {"processing": 0 if ended else len(state["requests"]), "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}
        for line in state["results"]:
            counts[line["result"]["type"]] += 1
        return {
            "id": batch_id,
            "type": "message_batch",
            "processing_status": state["status"],
            "request_counts": counts,
            "ended_at": state["ended_at"],
            "created_at": state["created_at"],
            "expires_at": state["expires_at"],
            "archived_at": None,
            "cancel_initiated_at": None,
            "results_url": f"{base}v1/messages/batches/{batch_id}/results" if ended else None,
        }

    async def process(batch_id: str) -> None:
        state = batches[batch_id]
        for item in state["requests"]:
            params = item.get("params") if isinstance(item, dict) else None
            custom_id = str(item.get("custom_id")) if isinstance(item, dict) else ""
            violation = anthropic_rule_violation(params) if isinstance(params, dict) else "params: Field required"
            if violation is not None:
                log.note_status(400)
                error = {"type": "error", "error": {"type": "invalid_request_error", "message": violation}}
                state["results"].append({"custom_id": custom_id, "result": {"type": "errored", "error": error}})
                continue
            assert isinstance(params, dict)
            reply = await answer(params, _request_id("req_", json.dumps(params).encode()))
            if reply.status_code != 200:
                error = json.loads(bytes(reply.body))
                state["results"].append({"custom_id": custom_id, "result": {"type": "errored", "error": error}})
                continue
            message = json.loads(bytes(reply.body))
            state["results"].append({"custom_id": custom_id, "result": {"type": "succeeded", "message": message}})
        state["status"] = "ended"
        state["ended_at"] = datetime.now(UTC).isoformat()

    async def create_batch(request: Request) -> Response:
        raw = await request.body()
        request_id = _request_id("req_", raw)
        body = json.loads(raw) if raw else {}
        items = body.get("requests") if isinstance(body, dict) else None
        if not isinstance(items, list) or not items:
            log.note_status(400)
            return _anthropic_error(400, "invalid_request_error", "requests: Field required", request_id)
        ids = [str(i.get("custom_id")) for i in items if isinstance(i, dict)]
        if len(set(ids)) != len(items):
            log.note_status(400)
            return _anthropic_error(400, "invalid_request_error", "custom_id values must be unique", request_id)
        batch_id = f"msgbatch_{request_id[4:28]}"
        now = datetime.now(UTC)
        batches[batch_id] = {
            "status": "in_progress",
            "requests": items,
            "results": [],
            "created_at": now.isoformat(),
            "expires_at": (now + timedelta(hours=24)).isoformat(),
            "ended_at": None,
        }
        log.note_batch("anthropic", len(items))
        asyncio.get_running_loop().create_task(process(batch_id))
        return JSONResponse(batch_object(batch_id, str(request.base_url)), headers={"request-id": request_id})

    async def get_batch(request: Request) -> Response:
        batch_id = request.path_params["batch_id"]
        if batch_id not in batches:
            return _anthropic_error(404, "not_found_error", f"message batch {batch_id} not found", "req_none")
        return JSONResponse(batch_object(batch_id, str(request.base_url)))

    async def batch_results(request: Request) -> Response:
        batch_id = request.path_params["batch_id"]
        state = batches.get(batch_id)
        if state is None or state["status"] != "ended":
            return _anthropic_error(404, "not_found_error", f"no results for message batch {batch_id}", "req_none")
        lines = "".join(json.dumps(line) + "\n" for line in state["results"])
        return Response(lines, media_type="application/binary")

    return Starlette(
        routes=[
            Route("/v1/messages", messages, methods=["POST"]),
            Route("/v1/messages/batches", create_batch, methods=["POST"]),
            Route("/v1/messages/batches/{batch_id}", get_batch, methods=["GET"]),
            Route("/v1/messages/batches/{batch_id}/results", batch_results, methods=["GET"]),
        ]
    )


# -- OpenAI --------------------------------------------------------------------


def _openai_error(status: int, message: str, kind: str, code: str | None, param: str | None, **headers: str) -> JSONResponse:
    # {"error": {"message", "type", "param", "code"}} (OpenAI error codes page).
    return JSONResponse(
        {"error": {"message": message, "type": kind, "param": param, "code": code}},
        status_code=status,
        headers={"x-request-id": _request_id("req_", message.encode()), **headers},
    )


def is_reasoning_model(model: str) -> bool:
    """GPT-5 and later, and the o-series, are reasoning models."""
    return model.startswith(("gpt-5", "gpt-6", "o1", "o3", "o4"))


def _reasoning_model_refuses(
    body: dict[str, Any], model: str, parameter: str, log: VendorLog, instead: str = ""
) -> JSONResponse | None:
    """The 400 a reasoning model gives for a sampling parameter it does not take
    (``temperature`` on the Responses API, ``max_tokens`` on Chat Completions), or
    None when the request may go on. One function for both endpoints, so the
    error's shape is the same wherever OpenAI sends it."""
    if parameter not in body or not is_reasoning_model(model):
        return None
    log.note_status(400)
    message = f"Unsupported parameter: '{parameter}' is not supported with this model."
    return _openai_error(
        400,
        f"{message} {instead}" if instead else message,
        "invalid_request_error",
        "unsupported_parameter",
        parameter,
    )


def strict_schema_problem(schema: Any, where: str = "schema") -> str | None:
    """Why ``schema`` is not in OpenAI's strict subset, or ``None`` when it is."""
    if not isinstance(schema, dict):
        return None
    if schema.get("type") == "object" or "properties" in schema:
        if schema.get("additionalProperties") is not False:
            return f"In context={where}, 'additionalProperties' is required to be supplied and to be false."
        properties = schema.get("properties", {})
        missing = [key for key in properties if key not in (schema.get("required") or [])]
        if missing:
            return f"In context={where}, 'required' is required to be supplied and to be an array including every key in properties. Missing '{missing[0]}'."
        for key, value in properties.items():
            problem = strict_schema_problem(value, f"{where}.properties.{key}")
            if problem:
                return problem
    for container in ("$defs", "definitions"):
        for key, value in (schema.get(container) or {}).items():
            problem = strict_schema_problem(value, f"{where}.{container}.{key}")
            if problem:
                return problem
    if isinstance(schema.get("items"), dict):
        return strict_schema_problem(schema["items"], f"{where}.items")
    for combinator in ("anyOf", "oneOf", "allOf"):
        for index, value in enumerate(schema.get(combinator) or []):
            problem = strict_schema_problem(value, f"{where}.{combinator}.{index}")
            if problem:
                return problem
    return None


class _OpenAICache:
    """Automatic prompt caching: a prefix of 1,024+ tokens seen before is read in 128-token steps."""

    def __init__(self) -> None:
        self._seen: set[str] = set()
        self._lock = threading.Lock()

    def cached_tokens(self, model: str, prefix: str) -> int:
        tokens = estimate_tokens(prefix)
        if tokens < OPENAI_MIN_CACHEABLE:
            return 0
        key = hashlib.sha256(f"{model}\x1f{prefix}".encode()).hexdigest()
        with self._lock:
            hit = key in self._seen
            self._seen.add(key)
        return (tokens // OPENAI_CACHE_INCREMENT) * OPENAI_CACHE_INCREMENT if hit else 0


def openai_app(model: ScriptedModel, log: VendorLog, faults: _Faults, served: frozenset[str] | None = None) -> Starlette:
    """The Responses API and Chat Completions over the scripted model (``served``: the model
    ids the Responses API knows; Chat Completions also serves the OpenAI-compatible
    provider's models, which no catalogue lists)."""
    cache = _OpenAICache()
    known = served if served is not None else served_models("openai")

    async def _guarded(request: Request, handle: Callable[[dict[str, Any]], Awaitable[Response]]) -> Response:
        if not request.headers.get("authorization", "").startswith("Bearer "):
            log.note_status(401)
            return _openai_error(401, "You didn't provide an API key.", "invalid_request_error", "invalid_api_key", None)
        try:
            body = json.loads(await request.body())
        except ValueError:
            log.note_status(400)
            return _openai_error(400, "We could not parse the JSON body of your request.", "invalid_request_error", None, None)
        if not isinstance(body, dict) or not body.get("model"):
            log.note_status(400)
            return _openai_error(400, "Missing required parameter: 'model'.", "invalid_request_error", "missing_required_parameter", "model")
        fault = faults.draw(await request.body())
        if fault == "rate_limited":
            log.note_status(429)
            return _openai_error(
                429,
                f"Rate limit reached for {body['model']} on tokens per min (TPM). Please try again in {RETRY_AFTER_SECONDS}s.",
                "tokens",
                "rate_limit_exceeded",
                None,
                **{"retry-after": str(RETRY_AFTER_SECONDS)},
            )
        if fault == "overloaded":
            log.note_status(503)
            return _openai_error(503, "The server is overloaded or not ready yet.", "server_error", None, None)
        return await handle(body)

    async def respond(body: dict[str, Any]) -> Response:
        """A Responses API answer for a request that passed authentication and faults."""
        name = str(body["model"])
        if name not in known:
            log.note_status(404)
            return _openai_error(
                404,
                f"The model `{name}` does not exist or you do not have access to it.",
                "invalid_request_error",
                "model_not_found",
                None,
            )
        refused = _reasoning_model_refuses(body, name, "temperature", log)
        if refused is not None:
            return refused
        effort = (body.get("reasoning") or {}).get("effort")
        if effort in ("none", "minimal") and name.startswith(NO_MINIMAL_EFFORT_PREFIXES):
            log.note_status(400)
            return _openai_error(
                400,
                f"Unsupported value: 'reasoning.effort' does not support '{effort}' with this model.",
                "invalid_request_error",
                "unsupported_value",
                "reasoning.effort",
            )
        if effort is not None and effort not in OPENAI_EFFORTS:
            log.note_status(400)
            return _openai_error(400, f"Invalid value: '{effort}'.", "invalid_request_error", "invalid_value", "reasoning.effort")
        fmt = (body.get("text") or {}).get("format") or {}
        if fmt.get("type") == "json_schema" and fmt.get("strict"):
            problem = strict_schema_problem(fmt.get("schema"))
            if problem:
                log.note_status(400)
                return _openai_error(
                    400,
                    f"Invalid schema for response_format '{fmt.get('name')}': {problem}",
                    "invalid_request_error",
                    "invalid_json_schema",
                    "text.format.schema",
                )
        instructions = str(body.get("instructions") or "")
        items = body.get("input")
        user = items if isinstance(items, str) else "\n".join(
            _text_of(i.get("content")) for i in items or [] if isinstance(i, dict) and i.get("role") != "system"
        )
        max_tokens = int(body.get("max_output_tokens") or 16_384)
        try:
            answer = await asyncio.to_thread(
                model.answer,
                system=instructions,
                user=user,
                model=name,
                max_tokens=max_tokens,
                effort=effort,
                schema_enforced=fmt.get("type") == "json_schema" and bool(fmt.get("strict")),
                thinking=is_reasoning_model(name) and effort != "none",
            )
        except ValueError as exc:
            log.note_status(400)
            return _openai_error(400, f"scripted model: {exc}", "invalid_request_error", None, "input")
        prefix = instructions + json.dumps(fmt, sort_keys=True)
        total = estimate_tokens(prefix) + estimate_tokens(user)
        cached = cache.cached_tokens(name, prefix)
        usage = StepTally(
            input_tokens=total - cached,
            cache_read_tokens=cached,
            output_tokens=answer.output_tokens,
            thinking_tokens=answer.thinking_tokens,
        )
        log.note_answer("openai", name, answer, usage)
        rid = _request_id("", user.encode())
        output: list[dict[str, Any]] = []
        if answer.thinking_tokens:
            output.append({"id": f"rs_{rid[:24]}", "type": "reasoning", "summary": []})
        part: dict[str, Any]
        if answer.stop == "refusal":
            part = {"type": "refusal", "refusal": answer.refusal_explanation}
        else:
            part = {"type": "output_text", "text": answer.text, "annotations": []}
        if answer.stop == "refusal" or answer.text:
            output.append(
                {
                    "id": f"msg_{rid[:24]}",
                    "type": "message",
                    "status": "incomplete" if answer.stop == "max_tokens" else "completed",
                    "role": "assistant",
                    "content": [part],
                }
            )
        incomplete = answer.stop == "max_tokens"
        return JSONResponse(
            {
                "id": f"resp_{rid[:24]}",
                "object": "response",
                "created_at": int(time.time()),
                "status": "incomplete" if incomplete else "completed",
                "incomplete_details": {"reason": "max_output_tokens"} if incomplete else None,
                "error": None,
                "model": name,
                "output": output,
                "parallel_tool_calls": True,
                "tool_choice": "auto",
                "tools": [],
                "max_output_tokens": max_tokens,
                "reasoning": {"effort": effort, "summary": None},
                "store": bool(body.get("store", True)),
                "usage": {
                    "input_tokens": total,
                    "input_tokens_details": {"cached_tokens": cached, "cache_write_tokens": 0},
                    "output_tokens": answer.output_tokens,
                    "output_tokens_details": {"reasoning_tokens": answer.thinking_tokens},
                    "total_tokens": total + answer.output_tokens,
                },
            },
            headers={"x-request-id": rid},
        )

    async def responses(request: Request) -> Response:
        return await _guarded(request, respond)

    async def chat_completions(request: Request) -> Response:
        async def handle(body: dict[str, Any]) -> Response:
            name = str(body["model"])
            refused = _reasoning_model_refuses(
                body, name, "max_tokens", log, instead="Use 'max_completion_tokens' instead."
            )
            if refused is not None:
                return refused
            messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
            system = "\n".join(_text_of(m.get("content")) for m in messages if m.get("role") in ("system", "developer"))
            user = "\n".join(_text_of(m.get("content")) for m in messages if m.get("role") == "user")
            fmt = body.get("response_format") or {}
            strict = fmt.get("type") == "json_schema" and bool((fmt.get("json_schema") or {}).get("strict"))
            max_tokens = int(body.get("max_completion_tokens") or body.get("max_tokens") or 16_384)
            try:
                answer = await asyncio.to_thread(
                    model.answer,
                    system=system,
                    user=user,
                    model=name,
                    max_tokens=max_tokens,
                    effort=body.get("reasoning_effort"),
                    schema_enforced=strict,
                    thinking=is_reasoning_model(name),
                )
            except ValueError as exc:
                log.note_status(400)
                return _openai_error(400, f"scripted model: {exc}", "invalid_request_error", None, "messages")
            total = estimate_tokens(system) + estimate_tokens(user) + estimate_tokens(json.dumps(fmt))
            usage = StepTally(input_tokens=total, output_tokens=answer.output_tokens, thinking_tokens=answer.thinking_tokens)
            log.note_answer("openai", name, answer, usage)
            rid = _request_id("chatcmpl-", user.encode())
            finish = {"max_tokens": "length", "refusal": "stop", "end_turn": "stop"}[answer.stop]
            return JSONResponse(
                {
                    "id": rid,
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": name,
                    "choices": [
                        {
                            "index": 0,
                            "message": {
                                "role": "assistant",
                                "content": None if answer.stop == "refusal" else answer.text,
                                "refusal": answer.refusal_explanation or None,
                            },
                            "finish_reason": finish,
                        }
                    ],
                    "usage": {
                        "prompt_tokens": total,
                        "completion_tokens": answer.output_tokens,
                        "total_tokens": total + answer.output_tokens,
                        "prompt_tokens_details": {"cached_tokens": 0},
                        "completion_tokens_details": {"reasoning_tokens": answer.thinking_tokens},
                    },
                }
            )

        return await _guarded(request, handle)

    files: dict[str, bytes] = {}
    batches: dict[str, dict[str, Any]] = {}

    def _auth_error(request: Request) -> Response | None:
        if not request.headers.get("authorization", "").startswith("Bearer "):
            log.note_status(401)
            return _openai_error(401, "You didn't provide an API key.", "invalid_request_error", "invalid_api_key", None)
        return None

    async def upload_file(request: Request) -> Response:
        denied = _auth_error(request)
        if denied is not None:
            return denied
        purpose, content, filename = multipart_fields(request.headers.get("content-type", ""), await request.body())
        if purpose != "batch" or content is None:
            log.note_status(400)
            return _openai_error(400, "purpose must be 'batch' with a file", "invalid_request_error", None, "purpose")
        file_id = f"file-{hashlib.sha256(content).hexdigest()[:24]}{len(files)}"
        files[file_id] = content
        return JSONResponse(
            {"id": file_id, "object": "file", "bytes": len(content), "created_at": int(time.time()),
             "filename": filename, "purpose": "batch", "status": "processed"}
        )

    def batch_object(batch_id: str) -> dict[str, Any]:
        state = batches[batch_id]
        return {
            "id": batch_id, "object": "batch", "endpoint": state["endpoint"], "errors": None,
            "input_file_id": state["input_file_id"], "completion_window": "24h", "status": state["status"],
            "output_file_id": state.get("output_file_id"), "error_file_id": state.get("error_file_id"),
            "created_at": state["created_at"], "completed_at": state.get("completed_at"),
            "request_counts": state["counts"], "metadata": None,
        }

    async def process(batch_id: str) -> None:
        state = batches[batch_id]
        state["status"] = "in_progress"
        done: list[str] = []
        failed: list[str] = []
        for line in files[state["input_file_id"]].decode("utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            custom_id = str(row.get("custom_id"))
            reply = await respond(row.get("body") or {})
            body = json.loads(bytes(reply.body))
            out = {"id": f"batch_req_{len(done) + len(failed)}", "custom_id": custom_id,
                   "response": {"status_code": reply.status_code, "request_id": reply.headers.get("x-request-id"), "body": body},
                   "error": None}
            (done if reply.status_code == 200 else failed).append(json.dumps(out))
        state["counts"] = {"total": len(done) + len(failed), "completed": len(done), "failed": len(failed)}
        if done:
            state["output_file_id"] = f"file-out-{batch_id}"
            files[state["output_file_id"]] = ("\n".join(done) + "\n").encode()
        if failed:
            state["error_file_id"] = f"file-err-{batch_id}"
            files[state["error_file_id"]] = ("\n".join(failed) + "\n").encode()
        state["status"] = "completed"
        state["completed_at"] = int(time.time())

    async def create_batch(request: Request) -> Response:
        denied = _auth_error(request)
        if denied is not None:
            return denied
        body = json.loads(await request.body())
        if body.get("input_file_id") not in files:
            log.note_status(400)
            return _openai_error(400, "input_file_id not found", "invalid_request_error", None, "input_file_id")
        if body.get("endpoint") not in ("/v1/responses", "/v1/chat/completions") or body.get("completion_window") != "24h":
            log.note_status(400)
            return _openai_error(400, "endpoint or completion_window not supported", "invalid_request_error", None, "endpoint")
        batch_id = f"batch_{hashlib.sha256(str(body).encode()).hexdigest()[:24]}{len(batches)}"
        lines = [line for line in files[body["input_file_id"]].decode("utf-8").splitlines() if line.strip()]
        batches[batch_id] = {"endpoint": body["endpoint"], "input_file_id": body["input_file_id"], "status": "validating",
                             "created_at": int(time.time()), "counts": {"total": len(lines), "completed": 0, "failed": 0}}
        log.note_batch("openai", len(lines))
        asyncio.get_running_loop().create_task(process(batch_id))
        return JSONResponse(batch_object(batch_id))

    async def get_batch(request: Request) -> Response:
        batch_id = request.path_params["batch_id"]
        if batch_id not in batches:
            return _openai_error(404, f"No batch found with id '{batch_id}'.", "invalid_request_error", None, None)
        return JSONResponse(batch_object(batch_id))

    async def file_content(request: Request) -> Response:
        file_id = request.path_params["file_id"]
        if file_id not in files:
            return _openai_error(404, f"No such File object: {file_id}", "invalid_request_error", None, "id")
        return Response(files[file_id], media_type="application/octet-stream")

    return Starlette(
        routes=[
            Route("/v1/responses", responses, methods=["POST"]),
            Route("/v1/chat/completions", chat_completions, methods=["POST"]),
            Route("/v1/files", upload_file, methods=["POST"]),
            Route("/v1/files/{file_id}/content", file_content, methods=["GET"]),
            Route("/v1/batches", create_batch, methods=["POST"]),
            Route("/v1/batches/{batch_id}", get_batch, methods=["GET"]),
        ]
    )


def multipart_fields(content_type: str, body: bytes) -> tuple[str | None, bytes | None, str]:
    """``purpose``, the file's bytes and its name from a multipart/form-data upload."""
    message = BytesParser(policy=email_default).parsebytes(
        f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode() + body
    )
    purpose: str | None = None
    content: bytes | None = None
    filename = "upload.jsonl"
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        if name == "purpose":
            purpose = data.decode("utf-8").strip()
        elif name == "file":
            content = data
            filename = str(part.get_filename() or filename)
    return purpose, content, filename


# -- Perplexity ----------------------------------------------------------------


def _perplexity_error(status: int, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": "invalid_request_error", "code": status}}, status_code=status, headers=headers)


def perplexity_rule_violation(body: dict[str, Any]) -> str | None:
    """The Search API's documented request rules this server enforces, or ``None``."""
    query = body.get("query")
    if not query or not isinstance(query, str | list):
        return "query: Field required"
    results = body.get("max_results", 10)
    if not isinstance(results, int) or not 1 <= results <= PERPLEXITY_MAX_RESULTS:
        return f"max_results must be between 1 and {PERPLEXITY_MAX_RESULTS}"
    domains = body.get("search_domain_filter")
    if domains is not None:
        if not isinstance(domains, list) or not all(isinstance(d, str) for d in domains):
            return "search_domain_filter must be a list of domain strings"
        if len(domains) > PERPLEXITY_MAX_DOMAINS:
            return f"search_domain_filter accepts at most {PERPLEXITY_MAX_DOMAINS} entries, got {len(domains)}"
        denied = [d for d in domains if d.startswith("-")]
        if denied and len(denied) != len(domains):
            return "search_domain_filter cannot mix allowlist and denylist entries"
    for key in ("search_after_date_filter", "search_before_date_filter"):
        if key in body:
            try:
                datetime.strptime(str(body[key]), "%m/%d/%Y")
            except ValueError:
                return f"{key} must be a date in %m/%d/%Y format"
    return None


def _us_date(value: Any) -> date | None:
    return datetime.strptime(str(value), "%m/%d/%Y").date() if value else None


def perplexity_app(index: SearchProvider, log: VendorLog, faults: _Faults) -> Starlette:
    """The Search API over the offline index of the corpus."""

    async def search(request: Request) -> Response:
        if not request.headers.get("authorization", "").startswith("Bearer "):
            log.note_status(401)
            return _perplexity_error(401, "Missing or invalid API key")
        try:
            body = json.loads(await request.body())
        except ValueError:
            log.note_status(400)
            return _perplexity_error(400, "invalid JSON body")
        if not isinstance(body, dict):
            log.note_status(400)
            return _perplexity_error(400, "request body must be an object")
        violation = perplexity_rule_violation(body)
        if violation is not None:
            log.note_status(400)
            return _perplexity_error(400, violation)
        if faults.draw(await request.body()) is not None:
            log.note_status(429)
            return _perplexity_error(429, "Rate limit exceeded", **{"retry-after": str(RETRY_AFTER_SECONDS)})
        domains = list(body.get("search_domain_filter") or [])
        queries = body["query"] if isinstance(body["query"], list) else [body["query"]]
        rows: list[dict[str, Any]] = []
        for text in queries:
            found = await index.search(
                SearchQuery(
                    query=str(text),
                    max_results=int(body.get("max_results", 10)),
                    published_after=_us_date(body.get("search_after_date_filter")),
                    published_before=_us_date(body.get("search_before_date_filter")),
                    include_domains=[d for d in domains if not d.startswith("-")],
                    exclude_domains=[d[1:] for d in domains if d.startswith("-")],
                )
            )
            rows.extend(
                {
                    "title": r.title,
                    "url": r.url,
                    "snippet": r.snippet,
                    "date": r.published_date.isoformat() if r.published_date else None,
                    "last_updated": None,
                }
                for r in found
            )
        log.note_search()
        return JSONResponse({"id": _request_id("", json.dumps(body).encode()), "results": rows})

    return Starlette(routes=[Route("/search", search, methods=["POST"])])


# -- running them ----------------------------------------------------------------


class _Loopback:
    """One uvicorn server on 127.0.0.1 with an ephemeral port, in a daemon thread."""

    def __init__(self, app: Starlette) -> None:
        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="off", access_log=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.port = 0

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20.0
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("a rehearsal server did not start on 127.0.0.1")
            time.sleep(0.01)
        self.port = int(self.server.servers[0].sockets[0].getsockname()[1])

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10.0)


@dataclass
class RehearsalServers:
    """The three vendor servers, started together: ``with RehearsalServers(...) as s: s.anthropic_url``."""

    corpus_dir: Path
    model: ScriptedModel = field(default_factory=ScriptedModel)
    faults: FaultRates = field(default_factory=FaultRates)
    seed: int = 0
    log: VendorLog = field(default_factory=VendorLog)
    # Model ids the servers answer for beyond the SDKs' catalogues, as the start-up check allows.
    allowed_models: tuple[str, ...] = field(default_factory=lambda: tuple(settings().allowed_models))
    _servers: list[_Loopback] = field(default_factory=list, init=False, repr=False)

    def __enter__(self) -> RehearsalServers:
        from reliability_core.stand_in.search import OfflineSearch

        index = OfflineSearch(self.corpus_dir)
        self._servers = [
            _Loopback(
                anthropic_app(
                    self.model, self.log, _Faults(self.faults, self.seed + 1),
                    served_models("anthropic", self.allowed_models),
                )
            ),
            _Loopback(
                openai_app(
                    self.model, self.log, _Faults(self.faults, self.seed + 2),
                    served_models("openai", self.allowed_models),
                )
            ),
            _Loopback(perplexity_app(index, self.log, _Faults(self.faults, self.seed + 3))),
        ]
        try:
            for server in self._servers:
                server.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for server in self._servers:
            server.stop()

    @property
    def anthropic_url(self) -> str:
        """Base URL for the Anthropic SDK (it appends ``/v1/messages``)."""
        return f"http://127.0.0.1:{self._servers[0].port}"

    @property
    def openai_url(self) -> str:
        """Base URL for the OpenAI SDK (it appends ``/responses``, ``/chat/completions``)."""
        return f"http://127.0.0.1:{self._servers[1].port}/v1"

    @property
    def perplexity_url(self) -> str:
        """Base URL of the Search API (the endpoint is ``<base>/search``)."""
        return f"http://127.0.0.1:{self._servers[2].port}"
