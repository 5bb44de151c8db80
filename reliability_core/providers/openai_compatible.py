"""Any OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp server, other
vendors) by base URL and model name, through the OpenAI SDK's Chat Completions.

Asks for ``response_format`` json_schema; an endpoint that rejects it (HTTP
400/422 naming ``response_format``/``json_schema``) is asked again with
``json_object`` and the schema spelled out in the system prompt, and is
remembered as json_object-only. The gateway validates either way.

The output budget goes in ``max_completion_tokens`` (OpenAI deprecated
``max_tokens`` for Chat Completions, and its reasoning models reject it); an
endpoint that rejects that name (HTTP 400/422 naming it) is asked again with
``max_tokens`` and remembered. ``finish_reason: length`` is a truncation,
``content_filter`` a refusal. No ``reasoning_effort`` is sent: endpoints
differ on whether they take it.
"""

from __future__ import annotations

from typing import Any

import httpx2
import openai

from reliability_core.providers.base import ModelRequest, ModelResponse, Usage
from reliability_core.providers.errors import TransientProviderError
from reliability_core.providers.messages import schema_instruction, user_content
from reliability_core.providers.openai_provider import openai_clients, status_error
from reliability_core.providers.schemas import strict_json_schema


class OpenAICompatibleProvider:
    """``complete`` = one ``chat.completions.create`` with a JSON response format."""

    name = "openai-compatible"

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str = "not-needed",
        family: str = "openai-compatible",
        http_client: httpx2.AsyncClient | None = None,
        timeout: float = 300.0,
    ) -> None:
        self.family = family
        self.base_url = base_url

        self._clients = openai_clients(api_key, base_url, http_client, timeout)
        self.json_object_only = False
        self.legacy_max_tokens = False

    async def complete(self, request: ModelRequest) -> ModelResponse:
        for _ in range(3):  # at most one fallback of each kind
            try:
                return await self._create(request, json_object=self.json_object_only)
            except _JsonSchemaUnsupported:
                self.json_object_only = True
            except _MaxCompletionTokensUnsupported:
                self.legacy_max_tokens = True
        return await self._create(request, json_object=True)

    async def _create(self, request: ModelRequest, *, json_object: bool) -> ModelResponse:
        system = request.system_prompt
        if json_object:
            system = f"{system}\n\n{schema_instruction(request)}".strip()
            response_format: dict[str, Any] = {"type": "json_object"}
        else:
            strict = strict_json_schema(request.output_schema)
            response_format = {
                "type": "json_schema",
                "json_schema": {
                    "name": request.output_schema_name[:64],
                    "schema": strict if strict is not None else request.output_schema,
                    "strict": strict is not None,
                },
            }
        messages: list[dict[str, str]] = []
        if system:
            messages.append({"role": "system", "content": system})
        messages.append({"role": "user", "content": user_content(request)})
        kwargs: dict[str, Any] = {
            "model": request.model,
            "messages": messages,
            "response_format": response_format,
            "temperature": request.temperature,
        }
        budget_name = "max_tokens" if self.legacy_max_tokens else "max_completion_tokens"
        kwargs[budget_name] = request.max_output_tokens
        try:
            completion = await self._clients.get().chat.completions.create(**kwargs)
        except openai.APIStatusError as exc:
            if exc.status_code in (400, 422):
                if not self.legacy_max_tokens and _rejects(exc, ("max_completion_tokens",)):
                    raise _MaxCompletionTokensUnsupported from exc
                if not json_object and _rejects(exc, ("response_format", "json_schema", "json schema")):
                    raise _JsonSchemaUnsupported from exc
            raise status_error(self.name, exc) from exc
        except openai.APITimeoutError as exc:
            raise TransientProviderError(f"{self.name} timeout: {exc}") from exc
        except openai.APIConnectionError as exc:
            raise TransientProviderError(f"{self.name} connection failed: {exc}", connection=True) from exc

        content: str | None = None
        refusal: str | None = None
        finish: str | None = None
        if completion.choices:
            message = completion.choices[0].message
            content = message.content
            refusal = getattr(message, "refusal", None)
            finish = completion.choices[0].finish_reason
        if finish == "content_filter" and refusal is None:
            refusal = "finish_reason=content_filter"
        raw = completion.usage
        cached = 0
        if raw is not None and raw.prompt_tokens_details is not None:
            cached = raw.prompt_tokens_details.cached_tokens or 0
        usage = Usage(
            provider=self.name,
            model=request.model,
            step=request.step,
            input_tokens=raw.prompt_tokens if raw else 0,
            output_tokens=raw.completion_tokens if raw else 0,
            cached_tokens=cached,
        )
        return ModelResponse(
            output_json=content,
            refusal=refusal,
            truncated="length" if finish == "length" else None,
            request_id=getattr(completion, "_request_id", None),
            usage=usage,
        )


class _JsonSchemaUnsupported(Exception):
    """The endpoint rejected ``response_format`` json_schema."""


class _MaxCompletionTokensUnsupported(Exception):
    """The endpoint rejected ``max_completion_tokens`` (an older server that knows only ``max_tokens``)."""


def _rejects(exc: openai.APIStatusError, words: tuple[str, ...]) -> bool:
    text = f"{exc.message} {exc.body}".lower()
    return any(word in text for word in words)
