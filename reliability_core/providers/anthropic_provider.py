"""Anthropic Messages API through the official async SDK.

Structured output through tool use: one tool whose ``input_schema`` is the
output schema, with ``tool_choice`` forcing it, so the answer arrives as the
tool call's parsed ``input``. The SDK's own retries are off (``max_retries=0``)
so the gateway's retry policy is the only one.
"""

from __future__ import annotations

import json
import re
from typing import Any

import anthropic
import httpx2

from reliability_core.providers.base import ModelRequest, ModelResponse, Usage
from reliability_core.providers.errors import PermanentProviderError, TransientProviderError
from reliability_core.providers.loops import PerLoop
from reliability_core.providers.messages import user_content
from reliability_core.providers.retry import is_retryable_status, retry_after_from_headers

_TOOL_NAME_BAD = re.compile(r"[^a-zA-Z0-9_-]")


def tool_name_for(schema_name: str) -> str:
    """A tool name the API accepts (``^[a-zA-Z0-9_-]{1,64}$``)."""
    return (_TOOL_NAME_BAD.sub("_", schema_name) or "output")[:64]


class AnthropicProvider:
    """``complete`` = one ``messages.create`` with a forced output tool."""

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
            return anthropic.AsyncAnthropic(
                api_key=api_key,
                base_url=base_url,
                http_client=http_client,
                timeout=timeout,
                max_retries=0,
            )

        # An injected client (tests) is used as is; otherwise one client per event loop.
        self._clients = PerLoop(make)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        tool_name = tool_name_for(request.output_schema_name)
        kwargs: dict[str, Any] = {
            "model": request.model,
            # No temperature: the current Messages API no longer takes one.
            "max_tokens": request.max_output_tokens,
            "messages": [{"role": "user", "content": user_content(request)}],
            "tools": [
                {
                    "name": tool_name,
                    "description": f"Record the {request.output_schema_name} for step {request.step}.",
                    "input_schema": request.output_schema,
                }
            ],
            "tool_choice": {"type": "tool", "name": tool_name},
        }
        if request.system_prompt:
            kwargs["system"] = request.system_prompt
        try:
            message = await self._clients.get().messages.create(**kwargs)
        except anthropic.APIStatusError as exc:
            raise _status_error(exc) from exc
        except anthropic.APITimeoutError as exc:
            raise TransientProviderError(f"anthropic timeout: {exc}") from exc
        except anthropic.APIConnectionError as exc:
            raise TransientProviderError(f"anthropic connection failed: {exc}") from exc

        usage = _usage(message.usage, request)
        output_json: str | None = None
        texts: list[str] = []
        for block in message.content:
            if block.type == "tool_use" and block.name == tool_name:
                output_json = json.dumps(block.input, ensure_ascii=False)
                break
            if block.type == "text":
                texts.append(block.text)
        refusal: str | None = None
        if message.stop_reason == "refusal":
            refusal = " ".join(texts).strip() or "stop_reason=refusal"
            output_json = None
        elif output_json is None and texts:
            # The tool was forced, so text without a tool call is the model declining.
            refusal = " ".join(texts).strip()
        return ModelResponse(output_json=output_json, refusal=refusal, usage=usage)


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
    )


def _status_error(exc: anthropic.APIStatusError) -> Exception:
    status = exc.status_code
    message = f"anthropic HTTP {status}: {exc.message}"
    if is_retryable_status(status):
        return TransientProviderError(
            message, status=status, retry_after=retry_after_from_headers(dict(exc.response.headers))
        )
    return PermanentProviderError(message, status=status)
