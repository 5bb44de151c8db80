from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from reliability_core.providers.base import ModelRequest
from reliability_core.stand_in.model import (
    OfflineRulesProvider,
    OfflineStepError,
    handler_for,
    offline_step,
)


class EchoIn(BaseModel):
    text: str


class EchoOut(BaseModel):
    words: list[str]


@offline_step("test_offline_split_words", EchoIn)
def split_words(payload: EchoIn) -> EchoOut:
    return EchoOut(words=sorted(payload.text.split()))


def _request(step: str, input_json: str) -> ModelRequest:
    return ModelRequest(
        step=step,
        model="offline-rules",
        template_name=step,
        template_sha256="",
        system_prompt="",
        input_json=input_json,
        output_schema=EchoOut.model_json_schema(),
        output_schema_name="EchoOut",
    )


async def test_offline_provider_is_deterministic_same_input_same_output() -> None:
    provider = OfflineRulesProvider()
    request = _request("test_offline_split_words", EchoIn(text="b a c").model_dump_json())
    first = await provider.complete(request)
    second = await provider.complete(request)
    assert first.output_json == second.output_json == '{"words":["a","b","c"]}'
    assert first.usage.provider == "offline-rules"
    assert first.usage.model == "offline-rules"


async def test_offline_provider_names_unknown_step_in_its_error() -> None:
    with pytest.raises(OfflineStepError, match="no_such_step"):
        await OfflineRulesProvider().complete(_request("no_such_step", "{}"))


async def test_offline_provider_rejects_input_that_does_not_match_the_registered_type() -> None:
    with pytest.raises(OfflineStepError, match="EchoIn"):
        await OfflineRulesProvider().complete(_request("test_offline_split_words", '{"nope": 1}'))


def test_registering_a_second_handler_for_a_step_is_an_error() -> None:
    with pytest.raises(OfflineStepError, match="already registered"):

        @offline_step("test_offline_split_words", EchoIn)
        def other(payload: EchoIn) -> EchoOut:
            return EchoOut(words=[])

    assert handler_for("test_offline_split_words").handler is split_words


async def test_gateway_runs_offline_steps_without_a_template_and_caches_them_under_the_method_version(
    tmp_path: Path,
) -> None:
    from reliability_core.providers.assignment import StepAssignment
    from reliability_core.providers.cache import ResponseCache
    from reliability_core.providers.gateway import StepGateway

    step = "test_offline_split_words"
    gateway = StepGateway(
        {step: StepAssignment(provider="offline-rules", model="offline-rules")},
        {step: OfflineRulesProvider()},
        cache=ResponseCache(tmp_path / "cache"),
        prompts_dir=tmp_path / "no-prompts",
    )
    out = await gateway.run(step, EchoIn(text="z y"), EchoOut)
    assert out == EchoOut(words=["y", "z"])
    assert gateway.model_for(step) == "offline-rules"
    assert gateway.describe() == {step: "offline-rules"}
    assert gateway.metadata()["offline-rules.calls"] == 1
    again = await gateway.run(step, EchoIn(text="z y"), EchoOut)
    assert again == out
    assert gateway.metadata()["cache.hits"] == 1  # a re-run makes no call


def test_offline_answers_are_keyed_by_the_rules_code(monkeypatch: pytest.MonkeyPatch) -> None:
    from reliability_core.providers.assignment import StepAssignment
    from reliability_core.providers.base import ModelRequest
    from reliability_core.providers.gateway import StepGateway
    from reliability_core.version import method_version

    request = ModelRequest(
        step="s",
        model="offline-rules",
        template_name="s",
        template_sha256="",
        system_prompt="",
        input_json="{}",
        output_schema={},
        output_schema_name="Out",
    )
    assignment = StepAssignment(provider="offline-rules", model="offline-rules")
    key = StepGateway._cache_key(assignment, OfflineRulesProvider(), request)
    import reliability_core.version as version

    method_version.cache_clear()
    monkeypatch.setattr(version, "compute_method_version", lambda *a, **k: "0.1.0+changed.offline-rules")
    try:
        assert StepGateway._cache_key(assignment, OfflineRulesProvider(), request) != key
    finally:
        method_version.cache_clear()


def test_two_steps_with_the_same_template_model_and_input_never_share_a_cached_answer() -> None:
    from reliability_core.providers.assignment import StepAssignment
    from reliability_core.providers.base import ModelRequest
    from reliability_core.providers.gateway import StepGateway

    def request(step: str) -> ModelRequest:
        return ModelRequest(
            step=step,
            model="offline-rules",
            template_name="judge",
            template_sha256="t",
            system_prompt="",
            input_json="{}",
            output_schema={},
            output_schema_name="JudgeOutput",
        )

    assignment = StepAssignment(provider="offline-rules", model="offline-rules")
    key_a = StepGateway._cache_key(assignment, OfflineRulesProvider(), request("judge_a"))
    key_b = StepGateway._cache_key(assignment, OfflineRulesProvider(), request("judge_b"))
    assert key_a != key_b
