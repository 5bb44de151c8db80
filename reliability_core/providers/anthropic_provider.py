"""Anthropic Messages API through the official async SDK.

Structured output through ``output_config.format`` (a ``json_schema`` made
with the SDK's ``transform_schema``), not forced tool use: Claude Opus 5.5 and
Sonnet 5.5 answer a forced ``tool_choice`` with HTTP 400 ("What's new in
Claude Opus 5.5"). ``output_config.effort`` is set per step; ``thinking`` is
left out, which is adaptive thinking on every current model (Opus 5.5 has no
other mode). The answer is the ``text`` blocks, chosen by their type: a reply
may start with ``thinking`` or ``redacted_thinking`` blocks, never to be taken
by position. ``stop_reason`` ``refusal`` is a refusal with the vendor's
``stop_details`` category and explanation; ``max_tokens`` and
``model_context_window_exceeded`` are truncations. The stable system prompt
(rules, examples) comes first and carries ``cache_control`` so it is cached;
the per-call input follows it. The SDK's own retries are off
(``max_retries=0``) so the gateway's retry policy is the only one, and every
error names the request id (the ``request-id`` response header).
"""

from __future__ import annotations

from typing import Any

import anthropic
import httpx2

from reliability_core.providers.base import ModelRequest, ModelResponse, Usage
from reliability_core.providers.errors import TransientProviderError
from reliability_core.providers.loops import PerLoop
from reliability_core.providers.messages import input_blocks, user_blocks, user_content
from reliability_core.providers.retry import http_status_error
from reliability_core.providers.schemas import strict_json_schema

# Stop reasons that mean the answer was cut off before it was finished.
TRUNCATION_STOPS = frozenset({"max_tokens", "model_context_window_exceeded"})


def anthropic_output_format(schema: dict[str, Any]) -> dict[str, Any]:
    """``output_config.format`` for ``schema``: every property required (so an
    omission is visible), then the SDK's ``transform_schema`` (closed objects,
    unsupported constraints moved into descriptions)."""
    strict = strict_json_schema(schema)
    return {
        "type": "json_schema",
        "schema": anthropic.transform_schema(strict if strict is not None else schema),
    }


class AnthropicProvider:
    """``complete`` = one ``messages.create`` with ``output_config.format``."""

    name = "anthropic"
    family = "claude"

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str | None = None,
        http_client: httpx2.AsyncClient | None = None,
        timeout: float = 120.0,
    ) -> None:
        def make() -> anthropic.AsyncAnthropic:
            # Without an injected client, the SDK's default client class itself: the SDK's
            # own wrapper schedules an aclose on the next loop when collected ("Event loop
            # is closed" at the end of a run).
            return anthropic.AsyncAnthropic(
                api_key=api_key,
                base_url=base_url,
                http_client=http_client or anthropic.DefaultAsyncHttpxClient(),
                timeout=timeout,
                max_retries=0,
            )

        # An injected client (tests) is used as is; otherwise one client per event loop.
        self._clients = PerLoop(make)

    def client(self) -> anthropic.AsyncAnthropic:
        """The SDK client of the running event loop (the batch submitter uses it too)."""
        return self._clients.get()

    def message_params(self, request: ModelRequest) -> dict[str, Any]:
        """The ``messages.create`` parameters for ``request`` (also a Message Batch item's ``params``)."""
        output_config: dict[str, Any] = {"format": anthropic_output_format(request.output_schema)}
        if request.effort is not None:
            output_config["effort"] = request.effort
        kwargs: dict[str, Any] = {
            "model": request.model,
            # No temperature (the current models reject non-default sampling
            # parameters) and no thinking field (adaptive is the default; Opus 5.5
            # rejects "disabled" and manual budgets). Thinking counts against max_tokens.
            "max_tokens": request.max_output_tokens,
            "messages": [{"role": "user", "content": _user_content(request)}],
            "output_config": output_config,
        }
        if request.system_prompt:
            # The stable part (the step's rules and examples) first, marked cacheable.
            kwargs["system"] = [
                {"type": "text", "text": request.system_prompt, "cache_control": {"type": "ephemeral"}}
            ]
        return kwargs

    async def complete(self, request: ModelRequest) -> ModelResponse:
        kwargs = self.message_params(request)
        try:
            message = await self._clients.get().messages.create(**kwargs)
        except anthropic.APIStatusError as exc:
            raise _status_error(exc) from exc
        except anthropic.APITimeoutError as exc:
            raise TransientProviderError(f"anthropic timeout: {exc}") from exc
        except anthropic.APIConnectionError as exc:
            raise TransientProviderError(f"anthropic connection failed: {exc}", connection=True) from exc
        return response_from_message(message, request, getattr(message, "_request_id", None))


def _user_content(request: ModelRequest) -> str | list[dict[str, Any]]:
    """The user turn. When the input has shared fields (the claim a page is read for), it is
    sent as text blocks whose first ends at them and carries a second cache breakpoint: the
    calls of one item then read the system prompt and the item's part from the cache, and
    only the rest (the page) is uncached input. Otherwise one string, as before."""
    if len(input_blocks(request)) < 2:
        return user_content(request)
    blocks: list[dict[str, Any]] = [{"type": "text", "text": text} for text in user_blocks(request)]
    blocks[0]["cache_control"] = {"type": "ephemeral"}
    return blocks


def response_from_message(message: Any, request: ModelRequest, request_id: str | None) -> ModelResponse:
    """A Messages API ``Message`` as a ``ModelResponse`` (interactive or from a Message Batch)."""
    usage = _usage(message.usage, request)
    # Blocks by their type, never by position: thinking blocks may come first.
    texts = [block.text for block in message.content if block.type == "text"]
    text = "".join(texts).strip()
    if message.stop_reason == "refusal":
        details = message.stop_details
        category = details.category if details is not None else None
        explanation = details.explanation if details is not None else None
        said = text or explanation or "stop_reason=refusal"
        return ModelResponse(
            output_json=None,
            refusal=said,
            refusal_category=category,
            refusal_explanation=explanation,
            request_id=request_id,
            usage=usage,
        )
    truncated = message.stop_reason if message.stop_reason in TRUNCATION_STOPS else None
    return ModelResponse(
        output_json=text or None,
        truncated=truncated,
        request_id=request_id,
        usage=usage,
    )


def _usage(raw: Any, request: ModelRequest) -> Usage:
    """Anthropic's ``input_tokens`` excludes cache reads and writes; ours counts all input."""
    cache_read = int(getattr(raw, "cache_read_input_tokens", 0) or 0)
    cache_write = int(getattr(raw, "cache_creation_input_tokens", 0) or 0)
    return Usage(
        provider="anthropic",
        model=request.model,
        step=request.step,
        input_tokens=int(raw.input_tokens or 0) + cache_read + cache_write,
        output_tokens=int(raw.output_tokens or 0),
        cached_tokens=cache_read,
        cache_write_tokens=cache_write,
    )


def _status_error(exc: anthropic.APIStatusError) -> Exception:
    return http_status_error(
        "anthropic", exc.status_code, exc.message, headers=dict(exc.response.headers), request_id=exc.request_id
    )
