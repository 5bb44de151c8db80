"""Issue 24: "The reviewer is a model that does not exist." Every model id a vendor step is
assigned must be one the vendor serves: listed by the installed SDK, or named in
``RELIABILITY_ALLOWED_MODELS``; anything else is refused at start-up, in one line. The
reviewer runs on a model that exists, through the live OpenAI provider class."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reliability_core.models.claims import NumericCriteria
from reliability_core.providers.assignment import (
    DEFAULT_ASSIGNMENT,
    MODEL_STRENGTH,
    PROVIDERS,
    check_model_table,
    limits_for,
    parse_assignment,
    resolve_assignment,
)
from reliability_core.providers.catalogue import check_models_are_listed, sdk_model_catalogue
from reliability_core.providers.errors import ConfigurationError
from reliability_core.providers.pricing import DEFAULT_PRICES_PATH, load_prices
from reliability_core.verdicts.judge_input import JudgeOutput, build_judge_input
from reliability_core.verdicts.review import review_verdict
from reliability_core.verdicts.verdict_rules import RuledVerdict
from reliability_core.wiring import build_gateway
from tests.providers.wire import Scripted2, openai_response_reply
from tests.verdicts.factories import make_claim, make_criteria, make_item

KEYS = {"ANTHROPIC_API_KEY": "sk-ant-test", "OPENAI_API_KEY": "sk-test"}
MADE_UP = "gpt-6.1-sol-pro"  # the reviewer the defaults named until issue 24: no vendor lists it


def test_an_assigned_model_no_vendor_lists_is_refused_at_start_up_in_one_line(tmp_path: Path) -> None:
    env = {**KEYS, "RELIABILITY_MODEL_REVIEW_VERDICT": f"openai:{MADE_UP}"}
    with pytest.raises(ConfigurationError) as refused:
        build_gateway(env, tmp_path)
    message = str(refused.value)
    assert "\n" not in message
    assert "review_verdict" in message and repr(MADE_UP) in message
    assert f"RELIABILITY_ALLOWED_MODELS={MADE_UP}" in message


def test_an_allow_listed_model_the_sdk_does_not_list_yet_passes(tmp_path: Path) -> None:
    env = {**KEYS, "RELIABILITY_MODEL_REVIEW_VERDICT": f"openai:{MADE_UP}",
           "RELIABILITY_ALLOWED_MODELS": f"claude-later-6, {MADE_UP}"}  # fmt: skip
    assert build_gateway(env, tmp_path).model_for("review_verdict") == MADE_UP


def test_every_default_model_is_in_its_vendors_sdk_catalogue() -> None:
    defaults = {step: parse_assignment(spec) for step, spec in DEFAULT_ASSIGNMENT.items()}
    check_models_are_listed({step: (c.provider, c.model) for step, c in defaults.items()}, allowed=())
    for chosen in defaults.values():
        assert chosen.model in sdk_model_catalogue(chosen.provider)


def test_the_catalogue_is_the_sdks_own_list_of_model_ids() -> None:
    assert {"gpt-6.2-sol", "gpt-6.2-astra", "gpt-6.1-sol"} <= sdk_model_catalogue("openai")
    assert {"claude-fable-5-1", "claude-opus-5-5", "claude-haiku-5-5"} <= sdk_model_catalogue("anthropic")
    assert MADE_UP not in sdk_model_catalogue("openai")


def test_openai_compatible_and_offline_steps_are_not_checked_against_a_catalogue(tmp_path: Path) -> None:
    env = {**KEYS, "RELIABILITY_MODEL_JUDGE_B": "openai-compatible:llama-4@http://127.0.0.1:9/v1",
           "RELIABILITY_MODEL_DETECT_STEERING": "offline-rules"}  # fmt: skip
    build_gateway(env, tmp_path)  # no error
    assert "openai-compatible" in PROVIDERS


def test_a_step_left_to_the_stand_in_is_not_checked(tmp_path: Path) -> None:
    # Without the OpenAI key the reviewer step calls no vendor; the SDK is not consulted.
    build_gateway({"RELIABILITY_MODEL_REVIEW_VERDICT": f"openai:{MADE_UP}"}, tmp_path)


def test_the_default_reviewer_is_stronger_than_judge_a_and_priced() -> None:
    chosen = resolve_assignment({})
    reviewer, judge_a = chosen["review_verdict"], chosen["judge_a"]
    assert reviewer.model != judge_a.model
    assert MODEL_STRENGTH[reviewer.model] > MODEL_STRENGTH[judge_a.model]
    check_model_table(chosen, {}, same_family_experiment=False)
    assert reviewer.model in load_prices(DEFAULT_PRICES_PATH).models


async def test_the_reviewers_request_goes_to_the_assigned_model_over_the_openai_sdk(tmp_path: Path) -> None:
    env = {"OPENAI_API_KEY": "sk-test"}  # the Anthropic steps stay on the stand-in
    scripted = Scripted2(
        openai_response_reply(json.dumps({"major_problems": [], "minor_problems": [],
                                          "rationale": "the cited quotes carry the figure", "instructions_noticed": []}))
    )  # fmt: skip
    gateway = build_gateway(env, None, http_client=scripted.client())
    quote = "Northwind ended 2024 with 15.2 GW of offshore wind capacity in operation, the agency said."
    judge_input = build_judge_input(
        claim=make_claim(),
        criteria=make_criteria(
            numeric=NumericCriteria(quantity="capacity", unit="GW", operator="ge", threshold=15.0)
        ),
        evidence=[make_item("a", quote=quote)],
    )
    judged = JudgeOutput(verdict="true", confidence=0.9, basis="independent_source",
                         rationale="a states 15.2 GW", cited_evidence_ids=["a"], observed_value=15.2)  # fmt: skip
    ruled = RuledVerdict(verdict="true", cited=["a"], rules_applied=[], observed_value=15.2)
    review = await review_verdict(judge_input=judge_input, output=judged, ruled=ruled, gateway=gateway)
    (body,) = scripted.bodies()
    assert scripted.requests[0].url.path.endswith("/responses")
    assert body["model"] == DEFAULT_ASSIGNMENT["review_verdict"].removeprefix("openai:") == "gpt-6.2-astra"
    # The effort the step table sets for the reviewer (low: see STEP_LIMITS), sent as the vendor takes it.
    assert body["reasoning"]["effort"] == limits_for("review_verdict").effort == "low"
    assert review.reviewer == "gpt-6.2-astra" and review.major_problems == []
