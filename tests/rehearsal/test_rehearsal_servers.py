"""The rehearsal servers enforce the vendors' documented rules on the wire."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from reliability_rehearsal import FaultRates, MistakeRates, RehearsalServers, ScriptedModel
from tests.conftest import PROJECT_ROOT

CORPUS = PROJECT_ROOT / "data" / "corpus"
PROMPTS = PROJECT_ROOT / "reliability_core" / "prompts"
PAGE = (
    "Amara Okafor said on Tuesday that grid batteries would be cheaper than gas peakers by 2030. "
    "\"We will see storage undercut gas peaking plants before the end of the decade,\" Okafor said."
)


def _extract_user() -> str:
    payload = {
        "subject_id": "amara-okafor",
        "subject_name": "Amara Okafor",
        "aliases": ["Dr Amara Okafor"],
        "subject_kind": "public_figure",
        "subject_urls": ["https://amaraokafor.example/"],
        "document_id": "doc-1",
        "url": "https://wire.example/okafor",
        "title": "Okafor on storage",
        "published_date": "2024-03-01",
        "own_document": False,
        "page_text": PAGE,
    }
    return f"Input (extract_statements) as JSON:\n{json.dumps(payload)}"


def _servers(faults: FaultRates | None = None, rates: MistakeRates | None = None) -> RehearsalServers:
    return RehearsalServers(
        corpus_dir=CORPUS, model=ScriptedModel(rates=rates or MistakeRates.none()), faults=faults or FaultRates.none()
    )


@pytest.fixture(scope="module")
def servers() -> Iterator[RehearsalServers]:
    with _servers() as running:
        yield running


def _messages(base: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{base}/v1/messages", json=body, headers={"x-api-key": "k"}, timeout=30)


def _message_body(model: str, **extra: Any) -> dict[str, Any]:
    return {
        "model": model,
        "max_tokens": 8192,
        "system": [{"type": "text", "text": (PROMPTS / "extract_statements.md").read_text(), "cache_control": {"type": "ephemeral"}}],
        "messages": [{"role": "user", "content": _extract_user()}],
        **extra,
    }


@pytest.mark.parametrize("model", ["claude-opus-5-5", "claude-sonnet-5-5"])
@pytest.mark.parametrize("choice", [{"type": "any"}, {"type": "tool", "name": "ExtractOutput"}])
def test_forced_tool_choice_on_opus_and_sonnet_5_5_is_http_400(
    servers: RehearsalServers, model: str, choice: dict[str, str]
) -> None:
    tool = {"name": "ExtractOutput", "input_schema": {"type": "object"}}
    reply = _messages(servers.anthropic_url, _message_body(model, tools=[tool], tool_choice=choice))
    assert reply.status_code == 400
    body = reply.json()
    assert body["type"] == "error" and body["error"]["type"] == "invalid_request_error"
    assert "tool_choice" in body["error"]["message"]
    assert body["request_id"] == reply.headers["request-id"]


def test_disabling_thinking_on_opus_5_5_is_http_400(servers: RehearsalServers) -> None:
    reply = _messages(servers.anthropic_url, _message_body("claude-opus-5-5", thinking={"type": "disabled"}))
    assert reply.status_code == 400
    assert "thinking" in reply.json()["error"]["message"]


def test_structured_answer_comes_after_the_thinking_block_and_thinking_is_billed_as_output(
    servers: RehearsalServers,
) -> None:
    fmt = {"type": "json_schema", "schema": {"type": "object"}}
    reply = _messages(servers.anthropic_url, _message_body("claude-sonnet-5-5", output_config={"format": fmt, "effort": "low"}))
    assert reply.status_code == 200
    body = reply.json()
    assert [block["type"] for block in body["content"]] == ["thinking", "text"]
    answer = json.loads(body["content"][1]["text"])
    # Answered from the page in the request: the quote is on that page.
    assert answer["statements"] and all(s["quote"] in PAGE for s in answer["statements"])
    assert body["stop_reason"] == "end_turn"
    assert body["usage"]["output_tokens"] > len(body["content"][1]["text"]) // 4


def test_answer_cut_by_the_budget_ends_with_stop_reason_max_tokens(servers: RehearsalServers) -> None:
    body = _message_body("claude-haiku-5-5", output_config={"format": {"type": "json_schema", "schema": {}}})
    body["max_tokens"] = 60
    reply = _messages(servers.anthropic_url, body)
    assert reply.status_code == 200
    assert reply.json()["stop_reason"] == "max_tokens"
    assert reply.json()["usage"]["output_tokens"] <= 60


def test_a_cacheable_prefix_is_written_once_then_read(servers: RehearsalServers) -> None:
    first = _messages(servers.anthropic_url, _message_body("claude-haiku-5-5")).json()["usage"]
    second = _messages(servers.anthropic_url, _message_body("claude-haiku-5-5")).json()["usage"]
    assert first["cache_creation_input_tokens"] > 0 or first["cache_read_input_tokens"] > 0
    assert second["cache_read_input_tokens"] > 0 and second["cache_creation_input_tokens"] == 0
    assert second["input_tokens"] < second["cache_read_input_tokens"]


def test_rate_limit_is_429_with_retry_after_and_overload_is_529() -> None:
    with _servers(faults=FaultRates(rate_limited=1.0, overloaded=0.0)) as limited:
        reply = _messages(limited.anthropic_url, _message_body("claude-haiku-5-5"))
        assert reply.status_code == 429
        assert reply.json()["error"]["type"] == "rate_limit_error"
        assert float(reply.headers["retry-after"]) > 0
    with _servers(faults=FaultRates(rate_limited=0.0, overloaded=1.0)) as overloaded:
        reply = _messages(overloaded.anthropic_url, _message_body("claude-haiku-5-5"))
        assert reply.status_code == 529
        assert reply.json()["error"] == {"type": "overloaded_error", "message": "Overloaded"}


def test_judge_refusal_is_stop_reason_refusal_with_category_and_explanation() -> None:
    payload = {
        "claim": "Amara Okafor said storage would undercut gas peakers by 2030.",
        "claim_type": "prediction",
        "made_on": "2024-03-01",
        "deadline": "2030-12-31",
        "judge_at": "2031-01-01",
        "levels": {k: k for k in ("true", "mostly_true", "mixed", "mostly_false", "false")},
        "numeric": None,
        "evidence": [],
    }
    rates = MistakeRates(0.0, 0.0, 0.0, 0.0, judge_refusal=1.0, runaway=0.0, prose_around_json=0.0)
    with _servers(rates=rates) as refusing:
        reply = _messages(
            refusing.anthropic_url,
            {
                "model": "claude-opus-5-5",
                "max_tokens": 4096,
                "system": (PROMPTS / "judge.md").read_text(),
                "messages": [{"role": "user", "content": f"Input (judge_a) as JSON:\n{json.dumps(payload)}"}],
            },
        )
    body = reply.json()
    assert body["stop_reason"] == "refusal"
    assert body["stop_details"]["type"] == "refusal" and body["stop_details"]["category"] == "general_harms"
    assert body["stop_details"]["explanation"]


def _responses(base: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{base}/responses", json=body, headers={"authorization": "Bearer k"}, timeout=30)


def test_openai_strict_schema_must_close_every_object(servers: RehearsalServers) -> None:
    fmt = {"type": "json_schema", "name": "ExtractOutput", "strict": True, "schema": {"type": "object", "properties": {"a": {"type": "string"}}}}
    reply = _responses(servers.openai_url, {"model": "gpt-6.1-sol", "input": _extract_user(), "text": {"format": fmt}})
    assert reply.status_code == 400
    assert reply.json()["error"]["code"] == "invalid_json_schema"


def test_openai_reasoning_model_rejects_temperature(servers: RehearsalServers) -> None:
    reply = _responses(servers.openai_url, {"model": "gpt-6.1-sol", "input": _extract_user(), "temperature": 0})
    assert reply.status_code == 400
    assert reply.json()["error"]["param"] == "temperature"


def test_openai_answer_cut_by_the_budget_is_status_incomplete(servers: RehearsalServers) -> None:
    reply = _responses(
        servers.openai_url,
        {"model": "gpt-6.1-sol", "input": _extract_user(), "instructions": "x", "max_output_tokens": 50},
    )
    body = reply.json()
    assert body["status"] == "incomplete"
    assert body["incomplete_details"] == {"reason": "max_output_tokens"}
    assert body["usage"]["output_tokens_details"]["reasoning_tokens"] > 0


def test_chat_completions_needs_max_completion_tokens_on_a_reasoning_model(servers: RehearsalServers) -> None:
    body = {"model": "gpt-6.1-sol", "messages": [{"role": "user", "content": _extract_user()}], "max_tokens": 500}
    reply = httpx.post(f"{servers.openai_url}/chat/completions", json=body, headers={"authorization": "Bearer k"}, timeout=30)
    assert reply.status_code == 400
    assert "max_completion_tokens" in reply.json()["error"]["message"]


def _search(base: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{base}/search", json=body, headers={"authorization": "Bearer k"}, timeout=30)


def test_perplexity_rejects_mixed_or_more_than_twenty_domain_filters(servers: RehearsalServers) -> None:
    mixed = _search(servers.perplexity_url, {"query": "Northwind", "search_domain_filter": ["wire.example", "-x.example"]})
    assert mixed.status_code == 400 and "mix" in mixed.json()["error"]["message"]
    many = [f"-site{i}.example" for i in range(21)]
    too_many = _search(servers.perplexity_url, {"query": "Northwind", "search_domain_filter": many})
    assert too_many.status_code == 400


def test_perplexity_answers_from_the_corpus_index(servers: RehearsalServers) -> None:
    reply = _search(servers.perplexity_url, {"query": "Northwind Energy offshore wind", "max_results": 5})
    assert reply.status_code == 200
    results = reply.json()["results"]
    assert 0 < len(results) <= 5
    assert all(set(r) >= {"title", "url", "snippet", "date"} for r in results)




def test_gpt_6_1_sol_takes_no_minimal_reasoning_effort(servers: RehearsalServers) -> None:
    reply = _responses(servers.openai_url, {"model": "gpt-6.1-sol", "input": _extract_user(), "reasoning": {"effort": "minimal"}})
    assert reply.status_code == 400
    assert reply.json()["error"]["param"] == "reasoning.effort"


def test_gpt_6_2_astra_takes_no_minimal_reasoning_effort(servers: RehearsalServers) -> None:
    reply = _responses(servers.openai_url, {"model": "gpt-6.2-astra", "input": _extract_user(), "reasoning": {"effort": "none"}})
    assert reply.status_code == 400
    assert reply.json()["error"]["param"] == "reasoning.effort"


def test_a_model_the_vendor_does_not_serve_is_the_vendors_404(servers: RehearsalServers) -> None:
    reply = _responses(servers.openai_url, {"model": "gpt-6.1-sol-pro", "input": _extract_user()})
    assert reply.status_code == 404 and reply.json()["error"]["code"] == "model_not_found"
    reply = _messages(servers.anthropic_url, _message_body("claude-opus-9"))
    assert reply.status_code == 404 and reply.json()["error"]["type"] == "not_found_error"
    # The reviewer's model is served.
    assert _responses(servers.openai_url, {"model": "gpt-6.2-astra", "input": _extract_user()}).status_code == 200


def test_an_allow_listed_model_is_served() -> None:
    with RehearsalServers(CORPUS, faults=FaultRates.none(),
                          allowed_models=("gpt-6.3-nova",)) as allowing:  # fmt: skip
        reply = _responses(allowing.openai_url, {"model": "gpt-6.3-nova", "input": _extract_user()})
    assert reply.status_code == 200


def _judge_user(token: str) -> str:
    payload = {
        "claim": f"<<DATA {token}>>\nAmara Okafor said storage would undercut gas peakers by 2030.\n<</DATA {token}>>",
        "claim_type": "prediction",
        "made_on": "2024-03-01",
        "deadline": "2030-12-31",
        "judge_at": "2031-01-01",
        "levels": {k: k for k in ("true", "mostly_true", "mixed", "mostly_false", "false")},
        "numeric": None,
        "evidence": [],
        "data_mark": {"token": token},
    }
    return f"Input (judge_a) as JSON:\n{json.dumps(payload)}"


def test_the_same_request_with_another_data_mark_gets_the_same_answer() -> None:
    """The rehearsal is reproducible: a judge's input carries a fresh random delimiter token per
    call by design ([#16]), and the scripted model's draws (thinking length, refusal, runaway)
    must not depend on it; a different question still draws afresh."""
    model = ScriptedModel()
    system = (PROMPTS / "judge.md").read_text()

    def answer(user: str) -> tuple[int, str, str]:
        got = model.answer(
            system=system, user=user, model="claude-opus-5-5", max_tokens=8192, effort="medium", schema_enforced=True
        )
        return got.thinking_tokens, got.stop, got.text

    assert len({answer(_judge_user(f"{n:016x}")) for n in range(1, 6)}) == 1
    other = _judge_user("00000000000000ab").replace("gas peakers", "coal plants")
    assert answer(other)[0] != answer(_judge_user("00000000000000ab"))[0]


def test_faults_fall_on_the_same_requests_whatever_order_they_arrive_in() -> None:
    """A fault is drawn per request and attempt, not from one sequence shared by whichever
    call arrives first, so concurrent calls cannot trade faults between runs."""
    rates = FaultRates(rate_limited=0.3, overloaded=0.0)
    bodies = [_message_body("claude-haiku-5-5", metadata={"user_id": f"user-{n}"}) for n in range(12)]

    def statuses(order: list[int]) -> dict[int, int]:
        with _servers(faults=rates) as running:
            return {n: _messages(running.anthropic_url, bodies[n]).status_code for n in order}

    forward = statuses(list(range(12)))
    assert statuses(list(reversed(range(12)))) == forward
    assert set(forward.values()) == {200, 429}


def test_a_prefix_is_readable_only_once_the_call_writing_it_was_answered() -> None:
    """Calls sent together with one new prefix all miss and all write it (as at the vendor);
    once one is answered, the next reads it. With two breakpoints, a call whose system prompt
    is cached but whose item part is new reads the first and writes only the difference."""
    from reliability_rehearsal.servers import _AnthropicCache, anthropic_usage

    # Over Sonnet's cacheable minimum on its own (the live request adds the output schema too).
    rules = (PROMPTS / "read_evidence.md").read_text() * 2
    system = [{"type": "text", "text": rules, "cache_control": {"type": "ephemeral"}}]

    def body(claim: str, page: str) -> dict[str, Any]:
        return {
            "model": "claude-sonnet-5-5",
            "max_tokens": 2048,
            "system": system,
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": f"Input (read_evidence) as JSON:\n{{\"restatement\":\"{claim}\",", "cache_control": {"type": "ephemeral"}},
                        {"type": "text", "text": f"\"page_text\":\"{page}\"}}"},
                    ],
                }
            ],
        }

    cache = _AnthropicCache()
    first, first_keys = anthropic_usage(body("claim one " * 200, "page a"), cache)
    together, _ = anthropic_usage(body("claim one " * 200, "page b"), cache)
    assert first.cache_read_tokens == together.cache_read_tokens == 0
    assert first.cache_write_tokens == together.cache_write_tokens > 0
    cache.commit(first_keys)
    later, _ = anthropic_usage(body("claim one " * 200, "page c"), cache)
    assert later.cache_read_tokens == first.cache_write_tokens and later.cache_write_tokens == 0
    other_claim, _ = anthropic_usage(body("claim two " * 200, "page a"), cache)
    assert 0 < other_claim.cache_read_tokens < later.cache_read_tokens  # the system prompt only
    assert other_claim.cache_read_tokens + other_claim.cache_write_tokens == later.cache_read_tokens
