"""OpenAI Responses API through the official async SDK, with a strict JSON schema.

``text.format`` is ``json_schema`` with ``strict: true`` when the output schema
can be made strict (every object closed, every property required, nullable
where optional); otherwise the schema is sent non-strict and the gateway's
validation and repair attempt still guard the output. ``reasoning.effort``
is set per step (GPT-6.1 Sol takes low to max, not none or minimal). A
``refusal`` content item is a refusal; ``status: incomplete`` is a truncation
when ``incomplete_details.reason`` is ``max_output_tokens`` (reasoning tokens
count against that budget) and a refusal when it is ``content_filter``;
``status: failed`` is a provider error. The stable instructions come first
(OpenAI caches the longest repeated prefix by itself) and a
``prompt_cache_key`` per step and template routes like requests together;
cache reads and writes are read from ``input_tokens_details``.
"""

from __future__ import annotations

from typing import Any

import httpx2
import openai

from reliability_core.providers.base import ModelRequest, ModelResponse, Usage
from reliability_core.providers.errors import PermanentProviderError, TransientProviderError
from reliability_core.providers.loops import PerLoop
from reliability_core.providers.messages import user_content
from reliability_core.providers.retry import http_status_error
from reliability_core.providers.schemas import strict_json_schema


class OpenAIProvider:
    """``complete`` = one ``responses.create`` with ``text.format`` json_schema."""

    name = "openai"
    family = "gpt"

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str | None = None,
        http_client: httpx2.AsyncClient | None = None,
        timeout: float = 120.0,
        send_temperature: bool = False,
    ) -> None:
        # Reasoning models reject ``temperature``; send it only when asked to.
        self._clients = openai_clients(api_key, base_url, http_client, timeout)
        self._send_temperature = send_temperature

    def client(self) -> openai.AsyncOpenAI:
        """The SDK client of the running event loop (the batch submitter uses it too)."""
        return self._clients.get()

    def response_params(self, request: ModelRequest) -> dict[str, Any]:
        """The ``responses.create`` parameters for ``request`` (also a Batch line's ``body``)."""
        strict = strict_json_schema(request.output_schema)
        fmt: dict[str, Any] = {
            "type": "json_schema",
            "name": _format_name(request.output_schema_name),
            "schema": strict if strict is not None else request.output_schema,
            "strict": strict is not None,
        }
        kwargs: dict[str, Any] = {
            "model": request.model,
            "input": [{"role": "user", "content": user_content(request)}],
            "text": {"format": fmt},
            "max_output_tokens": request.max_output_tokens,
            "store": False,
        }
        if request.system_prompt:
            kwargs["instructions"] = request.system_prompt
            kwargs["prompt_cache_key"] = f"{request.step}:{request.template_sha256[:16]}"
        if request.effort is not None:
            kwargs["reasoning"] = {"effort": request.effort}
        if self._send_temperature:
            kwargs["temperature"] = request.temperature
        return kwargs

    async def complete(self, request: ModelRequest) -> ModelResponse:
        kwargs = self.response_params(request)
        try:
            response = await self._clients.get().responses.create(**kwargs)
        except openai.APIStatusError as exc:
            raise status_error("openai", exc) from exc
        except openai.APITimeoutError as exc:
            raise TransientProviderError(f"openai timeout: {exc}") from exc
        except openai.APIConnectionError as exc:
            raise TransientProviderError(f"openai connection failed: {exc}", connection=True) from exc

        return response_from_api(response, request, getattr(response, "_request_id", None))


def response_from_api(response: Any, request: ModelRequest, request_id: str | None) -> ModelResponse:
    """A Responses API ``Response`` as a ``ModelResponse`` (interactive or from a Batch)."""
    if response.status == "failed":
        code = response.error.code if response.error is not None else "unknown"
        detail = response.error.message if response.error is not None else ""
        message = f"openai response failed ({code}) (request id {request_id}): {detail}"
        if code in ("server_error", "rate_limit_exceeded", "vector_store_timeout"):
            raise TransientProviderError(message, request_id=request_id)
        raise PermanentProviderError(message, request_id=request_id)
    texts: list[str] = []
    refusals: list[str] = []
    for item in response.output:
        if item.type != "message":
            continue
        for part in item.content:
            if part.type == "output_text":
                texts.append(part.text)
            elif part.type == "refusal":
                refusals.append(part.refusal)
    raw = response.usage
    details = raw.input_tokens_details if raw else None
    usage = Usage(
        provider="openai",
        model=request.model,
        step=request.step,
        input_tokens=raw.input_tokens if raw else 0,
        output_tokens=raw.output_tokens if raw else 0,
        cached_tokens=(details.cached_tokens or 0) if details else 0,
        cache_write_tokens=(getattr(details, "cache_write_tokens", 0) or 0) if details else 0,
    )
    reason = response.incomplete_details.reason if response.incomplete_details else None
    if response.status == "incomplete" and reason == "content_filter":
        return ModelResponse(
            output_json=None,
            refusal=" ".join(refusals) or "status=incomplete (content_filter)",
            refusal_category="content_filter",
            request_id=request_id,
            usage=usage,
        )
    truncated = (reason or "incomplete") if response.status == "incomplete" else None
    return ModelResponse(
        output_json="".join(texts) if texts else None,
        refusal=" ".join(refusals) if refusals else None,
        truncated=truncated,
        request_id=request_id,
        usage=usage,
    )


def openai_clients(
    api_key: str, base_url: str | None, http_client: httpx2.AsyncClient | None, timeout: float
) -> PerLoop[openai.AsyncOpenAI]:
    """OpenAI SDK clients with the SDK's retries off (ours are the policy), one per
    event loop unless a client is injected (tests)."""

    def make() -> openai.AsyncOpenAI:
        # The SDK's default client class, not its wrapper (whose finaliser schedules an
        # aclose on the next loop: "Event loop is closed" at the end of a run).
        return openai.AsyncOpenAI(
            api_key=api_key,
            base_url=base_url,
            http_client=http_client or openai.DefaultAsyncHttpxClient(),
            timeout=timeout,
            max_retries=0,
        )

    return PerLoop(make)


def _format_name(schema_name: str) -> str:
    cleaned = "".join(ch if ch.isalnum() or ch in "_-" else "_" for ch in schema_name)
    return (cleaned or "output")[:64]


def status_error(provider: str, exc: openai.APIStatusError) -> Exception:
    """Map an HTTP error of the OpenAI SDK to a transient or permanent provider
    error, naming the request id (``x-request-id``)."""
    return http_status_error(
        provider, exc.status_code, exc.message, headers=dict(exc.response.headers), request_id=exc.request_id
    )
