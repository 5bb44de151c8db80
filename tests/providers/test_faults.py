"""Fault injection fails a seeded share of calls the way real APIs do, deterministically."""

import json
from pathlib import Path

import pytest

from reliability_core.providers.base import ModelRequest, ModelResponse, Usage
from reliability_core.providers.errors import TransientProviderError
from reliability_core.providers.faults import FaultInjectingProvider


class Echo:
    name = "echo"
    family = "echo"

    async def complete(self, request: ModelRequest) -> ModelResponse:
        return ModelResponse(output_json="{}", usage=Usage(provider="echo", model="m", step=request.step))


def _request(n: int, previous_output: str | None = None) -> ModelRequest:
    return ModelRequest(
        step="s",
        model="m",
        template_name="s",
        template_sha256="",
        system_prompt="",
        input_json=f'{{"n": {n}}}',
        output_schema={},
        output_schema_name="Out",
        previous_output=previous_output,
    )


def _faults(provider: FaultInjectingProvider, requests: list[ModelRequest]) -> list[str | None]:
    return [provider.fault_for(r) for r in requests]


def test_the_same_seed_fails_the_same_calls_and_the_share_is_near_the_rate() -> None:
    requests = [_request(n) for n in range(2000)]
    first = _faults(FaultInjectingProvider(Echo(), 0.2, seed=3), requests)
    again = _faults(FaultInjectingProvider(Echo(), 0.2, seed=3), requests)
    assert first == again
    share = sum(f is not None for f in first) / len(first)
    assert 0.17 < share < 0.23
    assert {f for f in first if f} == {"rate_limited", "server_error", "timeout", "malformed_output"}


def test_a_retried_call_gets_a_fresh_draw_so_retries_can_succeed() -> None:
    provider = FaultInjectingProvider(Echo(), 0.5, seed=1)
    request = _request(7)
    draws = [provider.fault_for(request) for _ in range(40)]
    assert None in draws and any(d is not None for d in draws)


def test_repair_requests_never_get_malformed_output_again() -> None:
    provider = FaultInjectingProvider(Echo(), 0.9, seed=5)
    draws = _faults(provider, [_request(n, previous_output="{bad") for n in range(500)])
    assert "malformed_output" not in draws


async def test_injected_faults_are_what_real_providers_raise() -> None:
    provider = FaultInjectingProvider(Echo(), 0.99, seed=2)
    seen = set()
    for n in range(60):
        try:
            response = await provider.complete(_request(n))
        except TransientProviderError as error:
            seen.add(error.status)
        else:
            if response.output_json != "{}":
                seen.add("malformed")
    assert {429, 500, None, "malformed"} <= seen


def test_a_rate_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError, match="fault rate"):
        FaultInjectingProvider(Echo(), 1.0)


async def test_replay_answers_what_was_recorded_after_the_delay_and_refuses_the_unrecorded(tmp_path: Path) -> None:
    from reliability_core.providers.cache import ResponseCache
    from reliability_core.providers.errors import PermanentProviderError
    from reliability_core.providers.latency import RecordingProvider, ReplayProvider

    store = ResponseCache(tmp_path / "recording")
    recorded = await RecordingProvider(Echo(), store).complete(_request(1))
    replay = ReplayProvider(Echo(), store, seconds=0.0)
    assert await replay.complete(_request(1)) == recorded
    with pytest.raises(PermanentProviderError, match="no recorded answer"):
        await replay.complete(_request(2))


async def test_replay_matches_a_request_whose_data_marks_carry_another_random_token(tmp_path: Path) -> None:
    # The judges' evidence is wrapped in data marks with a fresh token per call, so a replayed
    # run's judge request differs from the recorded one in the token alone.
    from reliability_core.providers.cache import ResponseCache
    from reliability_core.providers.errors import PermanentProviderError
    from reliability_core.providers.latency import RecordingProvider, ReplayProvider
    from reliability_core.text.data_marking import mark_as_data, new_data_mark

    def marked(text: str) -> ModelRequest:
        mark = new_data_mark()  # as judge_input.mark_judge_input marks a judge's input
        payload = {"claim": mark_as_data(text, mark), "data_mark": mark.model_dump(mode="json")}
        return _request(0).model_copy(update={"input_json": json.dumps(payload)})

    store = ResponseCache(tmp_path / "recording")
    recorded = await RecordingProvider(Echo(), store).complete(marked("the page says 42"))
    replay = ReplayProvider(Echo(), store, seconds=0.0)
    assert marked("the page says 42").input_json != marked("the page says 42").input_json
    assert await replay.complete(marked("the page says 42")) == recorded
    with pytest.raises(PermanentProviderError, match="no recorded answer"):
        await replay.complete(marked("the page says 43"))
