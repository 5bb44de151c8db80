"""Scripted HTTP transports and real wire-format bodies for the provider tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import httpx2

Reply = httpx2.Response | Exception


class Scripted2:
    """An httpx2 transport (what the Anthropic and OpenAI SDKs use) that replays
    scripted replies in order and keeps every request it saw."""

    def __init__(self, *replies: Reply) -> None:
        self.replies = list(replies)
        self.requests: list[httpx2.Request] = []

    def handler(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        if not self.replies:
            raise AssertionError(f"unexpected extra request to {request.url}")
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply

    def client(self) -> httpx2.AsyncClient:
        return httpx2.AsyncClient(transport=httpx2.MockTransport(self.handler))

    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(r.content) for r in self.requests]


class Scripted1:
    """The same for plain httpx (Perplexity)."""

    def __init__(
        self, *replies: httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]
    ) -> None:
        self.replies = list(replies)
        self.requests: list[httpx.Request] = []

    def handler(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if not self.replies:
            raise AssertionError(f"unexpected extra request to {request.url}")
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        if callable(reply):
            return reply(request)
        return reply

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self.handler))


def _anthropic_message(
    content: list[dict[str, Any]],
    *,
    stop_reason: str,
    stop_details: dict[str, Any] | None = None,
    input_tokens: int = 120,
    output_tokens: int = 30,
    cache_read: int = 0,
    cache_write: int = 0,
    request_id: str = "req_011CTxMSmKqZqcT5Gcn3VNfj",
) -> httpx2.Response:
    return httpx2.Response(
        200,
        headers={"request-id": request_id},
        json={
            "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
            "type": "message",
            "role": "assistant",
            "model": "claude-opus-5-5",
            "content": content,
            "stop_reason": stop_reason,
            "stop_details": stop_details,
            "stop_sequence": None,
            "usage": {
                "input_tokens": input_tokens,
                "output_tokens": output_tokens,
                "cache_creation_input_tokens": cache_write,
                "cache_read_input_tokens": cache_read,
                "output_tokens_details": {"thinking_tokens": max(0, output_tokens // 3)},
            },
        },
    )


# What adaptive thinking puts first at the default display ("omitted"): an
# empty thinking text with a signature. Answers are read by block type.
THINKING_BLOCK: dict[str, Any] = {"type": "thinking", "thinking": "", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA"}


def anthropic_json_reply(
    output: dict[str, Any] | str,
    *,
    thinking: bool = True,
    stop_reason: str = "end_turn",
    input_tokens: int = 120,
    output_tokens: int = 30,
    cache_read: int = 0,
    cache_write: int = 0,
    request_id: str = "req_011CTxMSmKqZqcT5Gcn3VNfj",
) -> httpx2.Response:
    """A structured-output reply (``output_config.format``): the JSON arrives as the
    text block, after a thinking block. ``output`` as a string is sent verbatim
    (prose around JSON, a cut-off object)."""
    text = output if isinstance(output, str) else json.dumps(output)
    content = [*([THINKING_BLOCK] if thinking else []), {"type": "text", "text": text}]
    return _anthropic_message(
        content,
        stop_reason=stop_reason,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cache_read=cache_read,
        cache_write=cache_write,
        request_id=request_id,
    )


def anthropic_refusal_reply(
    text: str = "",
    *,
    category: str | None = "general_harms",
    explanation: str | None = "The request could be related to an area that was determined as harmful.",
) -> httpx2.Response:
    """A refusal as the API sends it: ``stop_reason: refusal`` with ``stop_details``."""
    content = [{"type": "text", "text": text}] if text else []
    return _anthropic_message(
        content,
        stop_reason="refusal",
        stop_details={"type": "refusal", "category": category, "explanation": explanation},
        input_tokens=80,
        output_tokens=5,
        request_id="req_011CTxRefusal0000000001",
    )


def anthropic_truncated_reply(
    partial: str, *, stop_reason: str = "max_tokens", output_tokens: int = 4096
) -> httpx2.Response:
    """A reply cut off by the budget (or the context window): partial JSON text."""
    return _anthropic_message(
        [THINKING_BLOCK, {"type": "text", "text": partial}],
        stop_reason=stop_reason,
        output_tokens=output_tokens,
        request_id="req_011CTxTruncated000000001",
    )


def anthropic_error(status: int, kind: str, headers: dict[str, str] | None = None) -> httpx2.Response:
    return httpx2.Response(
        status,
        headers={"request-id": "req_011CTxError00000000001", **(headers or {})},
        json={"type": "error", "error": {"type": kind, "message": f"{kind} happened"}},
    )


def openai_response_reply(
    text: str | None = None,
    *,
    refusal: str | None = None,
    input_tokens: int = 200,
    output_tokens: int = 40,
    cached_tokens: int = 0,
    cache_write_tokens: int = 0,
    status: str = "completed",
    incomplete_reason: str | None = None,
    reasoning_tokens: int = 0,
) -> httpx2.Response:
    content: list[dict[str, Any]] = []
    if text is not None:
        content.append({"type": "output_text", "text": text, "annotations": []})
    if refusal is not None:
        content.append({"type": "refusal", "refusal": refusal})
    return httpx2.Response(
        200,
        headers={"x-request-id": "req_7f3c9a1b2d4e5f60"},
        json={
            "id": "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b",
            "object": "response",
            "created_at": 1741476542,
            "status": status,
            "error": None,
            "incomplete_details": {"reason": incomplete_reason} if incomplete_reason else None,
            "instructions": None,
            "max_output_tokens": None,
            "model": "gpt-6.1-sol",
            "output": [
                {"type": "reasoning", "id": "rs_67ccd2bf0b0c8190", "summary": []},
                {
                    "type": "message",
                    "id": "msg_67ccd2bf17f0819081ff3bb2cf6508e60bb6a6b452d3795b",
                    "status": status,
                    "role": "assistant",
                    "content": content,
                },
            ],
            "parallel_tool_calls": True,
            "previous_response_id": None,
            "reasoning": {"effort": None, "summary": None},
            "store": True,
            "temperature": 1.0,
            "text": {"format": {"type": "text"}},
            "tool_choice": "auto",
            "tools": [],
            "top_p": 1.0,
            "truncation": "disabled",
            "usage": {
                "input_tokens": input_tokens,
                "input_tokens_details": {
                    "cached_tokens": cached_tokens,
                    "cache_write_tokens": cache_write_tokens,
                },
                "output_tokens": output_tokens,
                "output_tokens_details": {"reasoning_tokens": reasoning_tokens},
                "total_tokens": input_tokens + output_tokens,
            },
            "user": None,
            "metadata": {},
        },
    )


def openai_error(status: int, code: str, headers: dict[str, str] | None = None) -> httpx2.Response:
    return httpx2.Response(
        status,
        headers=headers or {},
        json={"error": {"message": f"{code} happened", "type": code, "param": None, "code": code}},
    )


def chat_completion_reply(
    content: str | None,
    *,
    refusal: str | None = None,
    prompt_tokens: int = 90,
    completion_tokens: int = 25,
    finish_reason: str = "stop",
) -> httpx2.Response:
    return httpx2.Response(
        200,
        json={
            "id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
            "object": "chat.completion",
            "created": 1741569952,
            "model": "llama-4",
            "choices": [
                {
                    "index": 0,
                    "message": {
                        "role": "assistant",
                        "content": content,
                        "refusal": refusal,
                        "annotations": [],
                    },
                    "logprobs": None,
                    "finish_reason": finish_reason,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
                "prompt_tokens_details": {"cached_tokens": 0},
            },
        },
    )
