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


def anthropic_tool_reply(
    tool_input: dict[str, Any] | Any,
    *,
    name: str,
    input_tokens: int = 120,
    output_tokens: int = 30,
    cache_read: int = 0,
    cache_write: int = 0,
) -> httpx2.Response:
    return httpx2.Response(
        200,
        json={
            "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
            "type": "message",
            "role": "assistant",
            "model": "claude-opus-5-5",
            "content": [
                {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": name, "input": tool_input}
            ],
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {
                "input_tokens": input_tokens,
                "output_tokens": output_tokens,
                "cache_creation_input_tokens": cache_write,
                "cache_read_input_tokens": cache_read,
            },
        },
    )


def anthropic_refusal_reply(text: str = "I can't help with that.") -> httpx2.Response:
    return httpx2.Response(
        200,
        json={
            "id": "msg_02",
            "type": "message",
            "role": "assistant",
            "model": "claude-opus-5-5",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "refusal",
            "stop_sequence": None,
            "usage": {"input_tokens": 80, "output_tokens": 5},
        },
    )


def anthropic_error(status: int, kind: str, headers: dict[str, str] | None = None) -> httpx2.Response:
    return httpx2.Response(
        status,
        headers=headers or {},
        json={"type": "error", "error": {"type": kind, "message": f"{kind} happened"}},
    )


def openai_response_reply(
    text: str | None = None,
    *,
    refusal: str | None = None,
    input_tokens: int = 200,
    output_tokens: int = 40,
    cached_tokens: int = 0,
) -> httpx2.Response:
    content: list[dict[str, Any]] = []
    if text is not None:
        content.append({"type": "output_text", "text": text, "annotations": []})
    if refusal is not None:
        content.append({"type": "refusal", "refusal": refusal})
    return httpx2.Response(
        200,
        json={
            "id": "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b",
            "object": "response",
            "created_at": 1741476542,
            "status": "completed",
            "error": None,
            "incomplete_details": None,
            "instructions": None,
            "max_output_tokens": None,
            "model": "gpt-6.1-sol",
            "output": [
                {
                    "type": "message",
                    "id": "msg_67ccd2bf17f0819081ff3bb2cf6508e60bb6a6b452d3795b",
                    "status": "completed",
                    "role": "assistant",
                    "content": content,
                }
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
                "input_tokens_details": {"cached_tokens": cached_tokens},
                "output_tokens": output_tokens,
                "output_tokens_details": {"reasoning_tokens": 0},
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
    content: str | None, *, refusal: str | None = None, prompt_tokens: int = 90, completion_tokens: int = 25
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
                    "finish_reason": "stop",
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
