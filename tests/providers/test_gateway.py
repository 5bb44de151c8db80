from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import httpx2
import pytest
from pydantic import BaseModel

from reliability_core.providers.anthropic_provider import AnthropicProvider
from reliability_core.providers.assignment import StepAssignment
from reliability_core.providers.base import ModelProvider, ModelRequest, ModelResponse, Usage
from reliability_core.providers.cache import ResponseCache
from reliability_core.providers.errors import (
    ConfigurationError,
    ModelOutputError,
    ModelRefusalError,
    ModelTruncatedError,
    ProviderCallError,
    ProviderUnreachableError,
)
from reliability_core.providers.gateway import StepGateway
from reliability_core.providers.openai_compatible import OpenAICompatibleProvider
from reliability_core.providers.openai_provider import OpenAIProvider
from reliability_core.providers.pricing import ModelPrice, PriceTable
from reliability_core.providers.retry import RetryPolicy

from .wire import (
    Scripted2,
    anthropic_error,
    anthropic_json_reply,
    anthropic_refusal_reply,
    anthropic_truncated_reply,
    chat_completion_reply,
    openai_error,
    openai_response_reply,
)


class JudgeInput(BaseModel):
    claim: str


class JudgeOutput(BaseModel):
    verdict: str
    confidence: float


GOOD = {"verdict": "true", "confidence": 0.9}
PRICES = PriceTable(
    models={
        "claude-opus-5-5": ModelPrice(input=4.0, output=20.0, cache_write=5.0, cache_read=0.2),
        "gpt-6.1-sol": ModelPrice(input=2.0, output=10.0, cache_write=2.5, cache_read=0.1),
    }
)


class Sleeps:
    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.fixture
def prompts(tmp_path: Path) -> Path:
    folder = tmp_path / "prompts"
    folder.mkdir()
    (folder / "judge.md").write_text("You are a judge. Rules of the method.\n", encoding="utf-8")
    return folder


def _gateway(
    provider: ModelProvider,
    model: str,
    prompts: Path,
    *,
    sleeps: Sleeps | None = None,
    cache: ResponseCache | None = None,
    max_attempts: int = 4,
) -> StepGateway:
    assignment = {"judge_a": StepAssignment(provider=provider.name, model=model)}
    retry = RetryPolicy(max_attempts=max_attempts, sleep=sleeps or Sleeps(), rng=random.Random(7))
    return StepGateway(
        assignment, {"judge_a": provider}, cache=cache, prices=PRICES, retry=retry, prompts_dir=prompts
    )


def _anthropic(script: Scripted2) -> AnthropicProvider:
    return AnthropicProvider("sk-ant-test", http_client=script.client())


def _openai(script: Scripted2) -> OpenAIProvider:
    return OpenAIProvider("sk-test", http_client=script.client())


async def test_anthropic_structured_output_uses_output_config_not_a_forced_tool(prompts: Path) -> None:
    script = Scripted2(
        anthropic_json_reply(GOOD, input_tokens=100, output_tokens=20, cache_read=50, cache_write=30)
    )
    gateway = _gateway(_anthropic(script), "claude-opus-5-5", prompts)

    out = await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    assert out == JudgeOutput(verdict="true", confidence=0.9)
    (body,) = script.bodies()
    assert script.requests[0].url.path == "/v1/messages"
    headers = script.requests[0].headers
    assert "sk-ant-test" in headers.get("x-api-key", "") + headers.get("authorization", "")
    assert body["model"] == "claude-opus-5-5"
    # Opus 5.5 and Sonnet 5.5 answer a forced tool_choice with HTTP 400; thinking
    # cannot be disabled on Opus 5.5, so neither field is sent.
    assert "tool_choice" not in body and "tools" not in body and "thinking" not in body
    assert "temperature" not in body
    fmt = body["output_config"]["format"]
    assert fmt["type"] == "json_schema"
    assert fmt["schema"]["additionalProperties"] is False
    assert sorted(fmt["schema"]["required"]) == ["confidence", "verdict"]
    assert body["output_config"]["effort"] == "medium"  # judge_a's effort in the step table
    assert body["max_tokens"] == 8192  # judge_a's budget, not one size for every step
    # The stable rules come first and are marked cacheable; the input follows.
    assert body["system"] == [
        {
            "type": "text",
            "text": "You are a judge. Rules of the method.\n",
            "cache_control": {"type": "ephemeral"},
        }
    ]
    assert '{"claim":"c"}' in body["messages"][0]["content"]
    meta = gateway.metadata()
    # input counts cache reads and writes too: 100 uncached + 50 read + 30 written
    assert meta["anthropic.input_tokens"] == 180
    assert meta["anthropic.cached_tokens"] == 50
    assert meta["anthropic.cache_write_tokens"] == 30
    assert meta["anthropic.output_tokens"] == 20
    assert meta["anthropic.total_tokens"] == 200
    assert meta["anthropic.calls"] == 1
    assert meta["anthropic.cost_usd"] == pytest.approx((100 * 4.0 + 50 * 0.2 + 30 * 5.0 + 20 * 20.0) / 1e6)


async def test_anthropic_answer_is_read_by_block_type_not_position(prompts: Path) -> None:
    reply = httpx2.Response(
        200,
        json={
            "id": "msg_05",
            "type": "message",
            "role": "assistant",
            "model": "claude-opus-5-5",
            "content": [
                {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"},
                {"type": "thinking", "thinking": "", "signature": "EqQBCgIYAhIM"},
                {"type": "text", "text": json.dumps(GOOD)},
            ],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 50, "output_tokens": 90},
        },
    )
    gateway = _gateway(_anthropic(Scripted2(reply)), "claude-opus-5-5", prompts)

    assert await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput) == JudgeOutput(**GOOD)


async def test_rate_limit_is_retried_after_the_seconds_the_server_asked_for(prompts: Path) -> None:
    sleeps = Sleeps()
    script = Scripted2(
        anthropic_error(429, "rate_limit_error", {"retry-after": "7"}),
        anthropic_json_reply(GOOD),
    )
    gateway = _gateway(_anthropic(script), "claude-opus-5-5", prompts, sleeps=sleeps)

    out = await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    assert out.verdict == "true"
    assert sleeps.waits == [7.0]
    assert len(script.requests) == 2


async def test_server_error_is_retried_with_jittered_exponential_backoff(prompts: Path) -> None:
    sleeps = Sleeps()
    script = Scripted2(
        anthropic_error(500, "api_error"),
        anthropic_error(529, "overloaded_error"),
        anthropic_json_reply(GOOD),
    )
    gateway = _gateway(_anthropic(script), "claude-opus-5-5", prompts, sleeps=sleeps)

    await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    assert len(sleeps.waits) == 2
    assert 0.0 <= sleeps.waits[0] <= 1.0  # base 1s, first attempt
    assert 0.0 <= sleeps.waits[1] <= 2.0  # doubled


async def test_timeouts_and_dropped_connections_are_retried(prompts: Path) -> None:
    sleeps = Sleeps()
    script = Scripted2(
        httpx2.ReadTimeout("read timed out"),
        httpx2.RemoteProtocolError("peer closed connection"),
        openai_response_reply(json.dumps(GOOD)),
    )
    gateway = _gateway(_openai(script), "gpt-6.1-sol", prompts, sleeps=sleeps)

    out = await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    assert out.confidence == 0.9
    assert len(sleeps.waits) == 2


async def test_retries_are_bounded_then_the_error_names_step_and_provider(prompts: Path) -> None:
    script = Scripted2(*(anthropic_error(503, "api_error") for _ in range(3)))
    gateway = _gateway(_anthropic(script), "claude-opus-5-5", prompts, max_attempts=3)

    with pytest.raises(ProviderCallError) as info:
        await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    assert "judge_a" in str(info.value) and "anthropic" in str(info.value)
    assert info.value.attempts == 3
    assert len(script.requests) == 3


async def test_retry_after_beyond_the_total_time_budget_gives_up_without_waiting(prompts: Path) -> None:
    sleeps = Sleeps()
    script = Scripted2(anthropic_error(429, "rate_limit_error", {"retry-after": "50"}))
    gateway = _gateway(_anthropic(script), "claude-opus-5-5", prompts, sleeps=sleeps)
    gateway.retry.max_total_seconds = 30.0

    with pytest.raises(ProviderCallError, match="judge_a"):
        await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)
    assert sleeps.waits == []


async def test_client_error_is_not_retried(prompts: Path) -> None:
    script = Scripted2(openai_error(400, "invalid_request_error"))
    gateway = _gateway(_openai(script), "gpt-6.1-sol", prompts)

    with pytest.raises(ProviderCallError, match="openai") as info:
        await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)
    assert info.value.attempts == 1


async def test_openai_request_uses_responses_api_with_strict_json_schema(prompts: Path) -> None:
    script = Scripted2(
        openai_response_reply(
            json.dumps(GOOD), input_tokens=1000, output_tokens=100, cached_tokens=400, cache_write_tokens=200
        )
    )
    gateway = _gateway(_openai(script), "gpt-6.1-sol", prompts)

    await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    (body,) = script.bodies()
    assert script.requests[0].url.path == "/v1/responses"
    assert script.requests[0].headers["authorization"] == "Bearer sk-test"
    fmt = body["text"]["format"]
    assert fmt["type"] == "json_schema" and fmt["strict"] is True and fmt["name"] == "JudgeOutput"
    assert fmt["schema"]["additionalProperties"] is False
    assert fmt["schema"]["required"] == ["verdict", "confidence"]
    assert body["instructions"].startswith("You are a judge.")
    assert body["reasoning"] == {"effort": "medium"} and body["max_output_tokens"] == 8192
    assert body["prompt_cache_key"].startswith("judge_a:")
    meta = gateway.metadata()
    assert meta["openai.input_tokens"] == 1000 and meta["openai.cached_tokens"] == 400
    assert meta["openai.cache_write_tokens"] == 200
    assert meta["openai.cost_usd"] == pytest.approx((400 * 2.0 + 400 * 0.1 + 200 * 2.5 + 100 * 10.0) / 1e6)


async def test_malformed_json_gets_one_repair_attempt_that_sends_the_error_back(prompts: Path) -> None:
    script = Scripted2(
        openai_response_reply('{"verdict": "true", "confidence": 0.9'),
        openai_response_reply(json.dumps(GOOD)),
    )
    gateway = _gateway(_openai(script), "gpt-6.1-sol", prompts)

    out = await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    assert out.verdict == "true"
    repair_text = script.bodies()[1]["input"][0]["content"]
    assert "Previous output:" in repair_text and '"confidence": 0.9' in repair_text
    assert "Validation error:" in repair_text and "Invalid JSON" in repair_text
    assert gateway.metadata()["openai.calls"] == 2


async def test_output_still_invalid_after_repair_is_a_clear_error_not_a_partial_record(prompts: Path) -> None:
    script = Scripted2(openai_response_reply("not json"), openai_response_reply('{"verdict": "true"}'))
    gateway = _gateway(_openai(script), "gpt-6.1-sol", prompts)

    with pytest.raises(ModelOutputError) as info:
        await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    message = str(info.value)
    assert "judge_a" in message and "openai" in message and "JudgeOutput" in message
    assert "confidence" in info.value.last_error


async def test_schema_violation_in_structured_output_is_repaired(prompts: Path) -> None:
    script = Scripted2(
        anthropic_json_reply({"verdict": "true", "confidence": "very"}),
        anthropic_json_reply(GOOD),
    )
    gateway = _gateway(_anthropic(script), "claude-opus-5-5", prompts)

    out = await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    assert out.confidence == 0.9
    assert "confidence" in script.bodies()[1]["messages"][0]["content"]


async def test_anthropic_refusal_is_typed_with_the_vendors_category_and_explanation(prompts: Path) -> None:
    reply = anthropic_refusal_reply(
        category="cyber", explanation="The request could enable cyber harm, such as malware."
    )
    gateway = _gateway(_anthropic(Scripted2(reply)), "claude-opus-5-5", prompts)

    with pytest.raises(ModelRefusalError) as info:
        await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    assert info.value.step == "judge_a" and info.value.reason == "refused"
    assert info.value.category == "cyber"
    assert info.value.explanation == "The request could enable cyber harm, such as malware."
    assert info.value.request_id == "req_011CTxRefusal0000000001"
    assert "req_011CTxRefusal0000000001" in str(info.value) and "cyber" in str(info.value)
    assert gateway.metadata()["model.refusals"] == 1
    assert gateway.metadata()["anthropic.calls"] == 1  # the refused call still cost tokens


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (
            openai_response_reply(refusal="I'm sorry, I cannot assist with that."),
            "I'm sorry, I cannot assist with that.",
        ),
        (openai_response_reply(""), "(empty output)"),
    ],
)
async def test_openai_refusal_or_empty_output_is_recorded_as_a_refusal(
    prompts: Path, reply: httpx2.Response, said: str
) -> None:
    gateway = _gateway(_openai(Scripted2(reply)), "gpt-6.1-sol", prompts)

    with pytest.raises(ModelRefusalError) as info:
        await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    assert info.value.refusal == said
    assert info.value.provider == "openai"


async def test_cache_hit_makes_no_call_and_bypass_makes_a_fresh_one(prompts: Path, tmp_path: Path) -> None:
    script = Scripted2(openai_response_reply(json.dumps(GOOD)))
    cache_dir = tmp_path / "cache"
    first = _gateway(_openai(script), "gpt-6.1-sol", prompts, cache=ResponseCache(cache_dir))
    await first.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    again = _gateway(_openai(script), "gpt-6.1-sol", prompts, cache=ResponseCache(cache_dir))
    out = await again.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    assert out.verdict == "true"
    assert len(script.requests) == 1  # the second run was served from disk
    meta = again.metadata()
    assert meta["cache.hits"] == 1 and meta["openai.calls"] == 0 and meta["openai.cost_usd"] == 0

    fresh_script = Scripted2(openai_response_reply(json.dumps({"verdict": "false", "confidence": 0.2})))
    bypass = _gateway(
        _openai(fresh_script), "gpt-6.1-sol", prompts, cache=ResponseCache(cache_dir, bypass=True)
    )
    fresh = await bypass.run("judge_a", JudgeInput(claim="c"), JudgeOutput)
    assert fresh.verdict == "false"
    assert len(fresh_script.requests) == 1


async def test_a_different_input_or_prompt_is_a_cache_miss(prompts: Path, tmp_path: Path) -> None:
    script = Scripted2(*(openai_response_reply(json.dumps(GOOD)) for _ in range(3)))
    cache = ResponseCache(tmp_path / "cache")
    gateway = _gateway(_openai(script), "gpt-6.1-sol", prompts, cache=cache)
    await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)
    await gateway.run("judge_a", JudgeInput(claim="d"), JudgeOutput)
    (prompts / "judge.md").write_text("Changed instructions.\n", encoding="utf-8")
    await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)
    assert len(script.requests) == 3


async def test_missing_prompt_template_for_a_live_provider_is_a_clear_error(tmp_path: Path) -> None:
    script = Scripted2()
    gateway = _gateway(_openai(script), "gpt-6.1-sol", tmp_path)

    with pytest.raises(ConfigurationError, match=r"judge\.md"):
        await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)
    assert script.requests == []


async def test_openai_compatible_endpoint_uses_chat_completions_json_schema(prompts: Path) -> None:
    script = Scripted2(chat_completion_reply(json.dumps(GOOD)))
    provider = OpenAICompatibleProvider("http://localhost:8000/v1", http_client=script.client())
    gateway = _gateway(provider, "llama-4", prompts)

    await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    (body,) = script.bodies()
    assert str(script.requests[0].url) == "http://localhost:8000/v1/chat/completions"
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["strict"] is True
    assert body["messages"][0] == {"role": "system", "content": "You are a judge. Rules of the method.\n"}
    assert gateway.metadata()["openai-compatible.input_tokens"] == 90


async def test_openai_compatible_falls_back_to_json_object_when_schema_is_unsupported(prompts: Path) -> None:
    script = Scripted2(
        httpx2.Response(400, json={"error": {"message": "response_format json_schema is not supported"}}),
        chat_completion_reply(json.dumps(GOOD)),
        chat_completion_reply(json.dumps(GOOD)),
    )
    provider = OpenAICompatibleProvider("http://localhost:8000/v1", http_client=script.client())
    gateway = _gateway(provider, "llama-4", prompts)

    await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)
    await gateway.run("judge_a", JudgeInput(claim="other"), JudgeOutput)

    bodies = script.bodies()
    assert bodies[1]["response_format"] == {"type": "json_object"}
    assert "JSON schema" in bodies[1]["messages"][0]["content"]
    assert bodies[2]["response_format"] == {"type": "json_object"}  # remembered


class _SlowProvider:
    name = "anthropic"
    family = "claude"

    def __init__(self) -> None:
        self.active = 0
        self.peak = 0

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.active += 1
        self.peak = max(self.peak, self.active)
        await asyncio.sleep(0.01)
        self.active -= 1
        return ModelResponse(
            output_json=json.dumps(GOOD),
            usage=Usage(provider=self.name, model=request.model, step=request.step),
        )


async def test_concurrent_calls_are_bounded_per_provider(prompts: Path) -> None:
    provider = _SlowProvider()
    gateway = StepGateway(
        {"judge_a": StepAssignment(provider="anthropic", model="claude-opus-5-5")},
        {"judge_a": provider},
        prompts_dir=prompts,
        concurrency={"anthropic": 2},
    )
    await asyncio.gather(*(gateway.run("judge_a", JudgeInput(claim=str(i)), JudgeOutput) for i in range(8)))
    assert provider.peak == 2
    assert gateway.metadata()["anthropic.calls"] == 8


async def test_identical_requests_in_flight_at_once_are_paid_for_once(prompts: Path, tmp_path: Path) -> None:
    """Single flight: the same request made by two items at once (the same texts checked for
    two claims) waits for the first call and reads its answer from the cache; which of
    them paid no longer depends on how the calls interleave. Different requests still run
    side by side."""
    provider = _SlowProvider()
    gateway = StepGateway(
        {"judge_a": StepAssignment(provider="anthropic", model="claude-opus-5-5")},
        {"judge_a": provider},
        prompts_dir=prompts,
        cache=ResponseCache(tmp_path / "cache"),
    )
    claims = ["same", "same", "same", "other"]
    outs = await asyncio.gather(*(gateway.run("judge_a", JudgeInput(claim=c), JudgeOutput) for c in claims))
    assert all(out.verdict == "true" for out in outs)
    meta = gateway.metadata()
    assert meta["anthropic.calls"] == 2 and meta["cache.hits"] == 2
    assert provider.peak == 2  # "same" and "other" were in flight together


async def test_scoped_gateway_counts_its_own_usage_and_adds_to_the_parent(prompts: Path) -> None:
    provider = _SlowProvider()
    gateway = StepGateway(
        {"judge_a": StepAssignment(provider="anthropic", model="claude-opus-5-5")},
        {"judge_a": provider},
        prompts_dir=prompts,
    )
    subject = gateway.scoped()
    await subject.run("judge_a", JudgeInput(claim="x"), JudgeOutput)
    await gateway.run("judge_a", JudgeInput(claim="y"), JudgeOutput)
    assert subject.metadata()["anthropic.calls"] == 1
    assert gateway.metadata()["anthropic.calls"] == 2
    assert subject.totals.by_step()["judge_a"].calls == 1


def test_one_gateway_serves_successive_event_loops(prompts: Path) -> None:
    provider = _SlowProvider()
    gateway = StepGateway(
        {"judge_a": StepAssignment(provider="anthropic", model="claude-opus-5-5")},
        {"judge_a": provider},
        prompts_dir=prompts,
        concurrency={"anthropic": 1},
    )

    async def burst(tag: str) -> None:
        await asyncio.gather(
            *(gateway.run("judge_a", JudgeInput(claim=f"{tag}{i}"), JudgeOutput) for i in range(3))
        )

    asyncio.run(burst("a"))
    asyncio.run(burst("b"))  # a semaphore bound to the first, closed loop would fail here
    assert gateway.metadata()["anthropic.calls"] == 6 and provider.peak == 1


async def test_anthropic_prose_instead_of_json_is_repaired_once_then_a_clear_error(prompts: Path) -> None:
    script = Scripted2(
        anthropic_json_reply("This claim is about private life, so I will not rate it."),
        anthropic_json_reply("I still think this is private."),
    )
    gateway = _gateway(_anthropic(script), "claude-opus-5-5", prompts)

    with pytest.raises(ModelOutputError) as info:
        await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)
    assert info.value.reason == "invalid output"
    assert info.value.request_id == "req_011CTxMSmKqZqcT5Gcn3VNfj"
    assert len(script.requests) == 2


async def test_prose_and_a_code_fence_around_the_json_are_stripped(prompts: Path) -> None:
    wrapped = f"Here is my verdict:\n```json\n{json.dumps(GOOD)}\n```\nLet me know if you need more."
    script = Scripted2(chat_completion_reply(wrapped))
    provider = OpenAICompatibleProvider("http://localhost:8000/v1", http_client=script.client())
    gateway = _gateway(provider, "llama-4", prompts)

    assert await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput) == JudgeOutput(**GOOD)
    assert len(script.requests) == 1  # no repair call was needed


async def test_truncated_answer_is_retried_once_with_a_larger_budget(prompts: Path) -> None:
    script = Scripted2(
        anthropic_truncated_reply('{"verdict": "true", "confid'),
        anthropic_json_reply(GOOD),
    )
    gateway = _gateway(_anthropic(script), "claude-opus-5-5", prompts)

    out = await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    assert out == JudgeOutput(**GOOD)
    first, second = script.bodies()
    assert second["max_tokens"] > first["max_tokens"]
    assert gateway.metadata()["model.truncations"] == 0


async def test_truncation_after_the_retry_is_a_typed_failure_never_a_partial_record(prompts: Path) -> None:
    script = Scripted2(
        anthropic_truncated_reply('{"verdict": "true", "confid'),
        anthropic_truncated_reply('{"verdict": "true", "confidence": 0.'),
    )
    gateway = _gateway(_anthropic(script), "claude-opus-5-5", prompts)

    with pytest.raises(ModelTruncatedError) as info:
        await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)

    assert info.value.reason == "truncated" and info.value.stop == "max_tokens"
    assert info.value.request_id == "req_011CTxTruncated000000001"
    assert len(script.requests) == 2
    assert gateway.metadata()["model.truncations"] == 1 and gateway.metadata()["model.refusals"] == 0


async def test_context_window_exceeded_is_not_retried(prompts: Path) -> None:
    script = Scripted2(anthropic_truncated_reply("{", stop_reason="model_context_window_exceeded"))
    gateway = _gateway(_anthropic(script), "claude-opus-5-5", prompts)

    with pytest.raises(ModelTruncatedError, match="model_context_window_exceeded"):
        await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)
    assert len(script.requests) == 1


class Defaulted(BaseModel):
    verdict: str
    notes: list[str] = []
    confidence: float = 0.5


async def test_a_record_missing_fields_that_have_defaults_does_not_pass_as_complete(prompts: Path) -> None:
    # Cut off (or carelessly written) after the first field, yet valid JSON that
    # pydantic would accept by filling the defaults: it must be repaired instead.
    script = Scripted2(
        openai_response_reply('{"verdict": "false"}'),
        openai_response_reply('{"verdict": "false", "notes": [], "confidence": 0.8}'),
    )
    gateway = _gateway(_openai(script), "gpt-6.1-sol", prompts)

    out = await gateway.run("judge_a", JudgeInput(claim="c"), Defaulted)

    assert out.confidence == 0.8
    repair_text = script.bodies()[1]["input"][0]["content"]
    assert "fields missing" in repair_text and "confidence" in repair_text and "notes" in repair_text


async def test_openai_incomplete_for_the_output_budget_is_a_truncation(prompts: Path) -> None:
    script = Scripted2(
        openai_response_reply(
            '{"verdict": "tr',
            status="incomplete",
            incomplete_reason="max_output_tokens",
            reasoning_tokens=8000,
        ),
        openai_response_reply(json.dumps(GOOD)),
    )
    gateway = _gateway(_openai(script), "gpt-6.1-sol", prompts)

    assert await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput) == JudgeOutput(**GOOD)
    first, second = script.bodies()
    assert first["reasoning"] == {"effort": "medium"}
    assert second["max_output_tokens"] > first["max_output_tokens"]


async def test_openai_incomplete_for_the_content_filter_is_a_refusal(prompts: Path) -> None:
    script = Scripted2(openai_response_reply(None, status="incomplete", incomplete_reason="content_filter"))
    gateway = _gateway(_openai(script), "gpt-6.1-sol", prompts)

    with pytest.raises(ModelRefusalError) as info:
        await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)
    assert info.value.category == "content_filter"


async def test_openai_compatible_length_finish_is_a_truncation(prompts: Path) -> None:
    script = Scripted2(
        chat_completion_reply('{"verdict": "true"', finish_reason="length"),
        chat_completion_reply('{"verdict": "true", "confidence": 0.9', finish_reason="length"),
    )
    provider = OpenAICompatibleProvider("http://localhost:8000/v1", http_client=script.client())
    gateway = _gateway(provider, "llama-4", prompts)

    with pytest.raises(ModelTruncatedError):
        await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)


async def test_openai_compatible_sends_max_completion_tokens_and_falls_back_when_unknown(
    prompts: Path,
) -> None:
    script = Scripted2(
        httpx2.Response(
            400, json={"error": {"message": "Unrecognized request argument: max_completion_tokens"}}
        ),
        chat_completion_reply(json.dumps(GOOD)),
        chat_completion_reply(json.dumps(GOOD)),
    )
    provider = OpenAICompatibleProvider("http://localhost:8000/v1", http_client=script.client())
    gateway = _gateway(provider, "llama-4", prompts)

    await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)
    await gateway.run("judge_a", JudgeInput(claim="other"), JudgeOutput)

    first, second, third = script.bodies()
    assert first["max_completion_tokens"] == 8192 and "max_tokens" not in first
    assert second["max_tokens"] == 8192 and "max_completion_tokens" not in second
    assert "max_completion_tokens" not in third  # remembered


async def test_every_provider_error_names_the_request_id(prompts: Path) -> None:
    script = Scripted2(anthropic_error(400, "invalid_request_error"))
    gateway = _gateway(_anthropic(script), "claude-opus-5-5", prompts)

    with pytest.raises(ProviderCallError) as info:
        await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)
    assert info.value.request_id == "req_011CTxError00000000001"
    assert "req_011CTxError00000000001" in str(info.value)
    assert info.value.reason == "provider error"


async def test_a_provider_that_cannot_be_reached_at_all_is_not_an_item_failure(prompts: Path) -> None:
    script = Scripted2(*(httpx2.ConnectError("connection refused") for _ in range(3)))
    gateway = _gateway(_anthropic(script), "claude-opus-5-5", prompts, max_attempts=3)

    with pytest.raises(ProviderUnreachableError, match="cannot be reached"):
        await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)


async def test_a_refused_key_means_the_provider_cannot_be_reached(prompts: Path) -> None:
    script = Scripted2(anthropic_error(401, "authentication_error"))
    gateway = _gateway(_anthropic(script), "claude-opus-5-5", prompts)

    with pytest.raises(ProviderUnreachableError, match="credentials"):
        await gateway.run("judge_a", JudgeInput(claim="c"), JudgeOutput)


def test_shared_input_fields_come_first_in_their_own_cached_block() -> None:
    """Prompt caching per item: the fields every call of one item shares (the claim, for each
    page read about it) are the first user block with a cache breakpoint after the system
    prompt's; the blocks joined are the same JSON input, so the model reads the same thing."""
    from reliability_core.providers.messages import user_content

    payload = {"page_text": "the page", "restatement": "the claim", "levels": {"true": "x"}, "page_url": "u"}
    request = ModelRequest(
        step="read_evidence",
        model="claude-sonnet-5-5",
        template_name="read_evidence",
        template_sha256="0",
        system_prompt="rules",
        input_json=json.dumps(payload),
        shared_input_fields=("restatement", "levels"),
        output_schema={"type": "object"},
        output_schema_name="ReadEvidenceOutput",
    )
    params = AnthropicProvider("sk-ant-test").message_params(request)
    blocks = params["messages"][0]["content"]
    assert params["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert blocks[0]["cache_control"] == {"type": "ephemeral"} and "cache_control" not in blocks[1]
    assert "the claim" in blocks[0]["text"] and "the page" not in blocks[0]["text"]
    joined = "".join(block["text"] for block in blocks).partition("as JSON:\n")[2]
    assert json.loads(joined) == payload
    # Without shared fields: one block, no second breakpoint; the text providers send is unchanged.
    plain = request.model_copy(update={"shared_input_fields": ()})
    assert AnthropicProvider("sk-ant-test").message_params(plain)["messages"][0]["content"] == user_content(plain)
