"""OpenAI Responses API through the official async SDK, with a strict JSON schema.

``text.format`` is ``json_schema`` with ``strict: true`` when the output schema
can be made strict (every object closed, every property required, nullable
where optional); otherwise the schema is sent non-strict and the gateway's
validation and repair attempt still guard the output. A ``refusal`` content
item is recorded as a refusal.
"""

from __future__ import annotations

import copy
from typing import Any

import httpx2
import openai

from reliability_core.providers.base import ModelRequest, ModelResponse, Usage
from reliability_core.providers.errors import PermanentProviderError, TransientProviderError
from reliability_core.providers.loops import PerLoop
from reliability_core.providers.messages import user_content
from reliability_core.providers.retry import is_retryable_status, retry_after_from_headers


def strict_json_schema(schema: dict[str, Any]) -> dict[str, Any] | None:
    """The schema in OpenAI's strict subset, or ``None`` when it cannot be
    (an object with free-form ``additionalProperties``, e.g. a ``dict[str, X]`` field).

    Every object gets ``additionalProperties: false`` and lists all its
    properties as required; defaults and titles are dropped; ``$ref`` stands alone.
    """
    result = copy.deepcopy(schema)
    try:
        _make_strict(result)
    except _NotStrictable:
        return None
    return result


class _NotStrictable(Exception):
    pass


def _make_strict(node: Any) -> None:
    """Make one schema node (and everything under it) strict, in place."""
    if not isinstance(node, dict):
        return
    if "$ref" in node:
        for key in [k for k in node if k != "$ref"]:
            del node[key]
        return
    node.pop("default", None)
    node.pop("examples", None)
    if isinstance(node.get("title"), str):
        del node["title"]
    if node.get("type") == "object" or "properties" in node:
        extra = node.get("additionalProperties")
        if isinstance(extra, dict) or extra is True:
            raise _NotStrictable
        properties = node.get("properties", {})
        node["additionalProperties"] = False
        node["required"] = list(properties)
        for value in properties.values():
            _make_strict(value)
    for container in ("$defs", "definitions"):
        for value in node.get(container, {}).values():
            _make_strict(value)
    if isinstance(node.get("items"), dict):
        _make_strict(node["items"])
    for combinator in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for value in node.get(combinator, []):
            _make_strict(value)


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

    async def complete(self, request: ModelRequest) -> ModelResponse:
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
        if self._send_temperature:
            kwargs["temperature"] = request.temperature
        try:
            response = await self._clients.get().responses.create(**kwargs)
        except openai.APIStatusError as exc:
            raise status_error("openai", exc) from exc
        except openai.APITimeoutError as exc:
            raise TransientProviderError(f"openai timeout: {exc}") from exc
        except openai.APIConnectionError as exc:
            raise TransientProviderError(f"openai connection failed: {exc}") from exc

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
        usage = Usage(
            provider=self.name,
            model=request.model,
            step=request.step,
            input_tokens=raw.input_tokens if raw else 0,
            output_tokens=raw.output_tokens if raw else 0,
            cached_tokens=(raw.input_tokens_details.cached_tokens or 0)
            if raw and raw.input_tokens_details
            else 0,
        )
        return ModelResponse(
            output_json="".join(texts) if texts else None,
            refusal=" ".join(refusals) if refusals else None,
            usage=usage,
        )


def openai_clients(
    api_key: str, base_url: str | None, http_client: httpx2.AsyncClient | None, timeout: float
) -> PerLoop[openai.AsyncOpenAI]:
    """OpenAI SDK clients with the SDK's retries off (ours are the policy), one per
    event loop unless a client is injected (tests)."""

    def make() -> openai.AsyncOpenAI:
        return openai.AsyncOpenAI(
            api_key=api_key, base_url=base_url, http_client=http_client, timeout=timeout, max_retries=0
        )

    return PerLoop(make)


def _format_name(schema_name: str) -> str:
    cleaned = "".join(ch if ch.isalnum() or ch in "_-" else "_" for ch in schema_name)
    return (cleaned or "output")[:64]


def status_error(provider: str, exc: openai.APIStatusError) -> Exception:
    """Map an HTTP error of the OpenAI SDK to a transient or permanent provider error."""
    status = exc.status_code
    message = f"{provider} HTTP {status}: {exc.message}"
    if is_retryable_status(status):
        return TransientProviderError(
            message, status=status, retry_after=retry_after_from_headers(dict(exc.response.headers))
        )
    return PermanentProviderError(message, status=status)
