"""The verdict steps on the live provider classes, with every model answer scripted at the
SDK transport (``httpx2.MockTransport``): the evidence reader, the research planner and
judge A on the Anthropic Messages API, judge B and the reviewer on the OpenAI Responses
API, with the real prompts. A test scripts exactly the mistake a model makes (a label, a
verdict) and the code that governs live runs decides what of it stands."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import httpx2

from reliability_core.providers.anthropic_provider import AnthropicProvider
from reliability_core.providers.assignment import StepAssignment
from reliability_core.providers.base import OFFLINE_NAME, ModelProvider
from reliability_core.providers.gateway import DEFAULT_PROMPTS_DIR, StepGateway
from reliability_core.providers.openai_provider import OpenAIProvider
from reliability_core.stand_in.model import OfflineRulesProvider
from tests.providers.test_failures_stay_with_the_item import step_of
from tests.providers.wire import anthropic_json_reply, openai_response_reply

Answer = Callable[[dict[str, Any]], dict[str, Any]]
NO_PROBLEM: dict[str, Any] = {
    "major_problems": [], "minor_problems": [], "rationale": "checked", "instructions_noticed": []
}
ON_ANTHROPIC = ("plan_research", "read_evidence", "judge_a")
ON_OPENAI = ("judge_b", "review_verdict")


def mentions(body: dict[str, Any], text: str) -> bool:
    """Whether the request (prompt and input, as sent) carries ``text``: to answer per page."""
    return text in json.dumps(body, ensure_ascii=False)


class LiveModels:
    """Both vendors on one mocked transport; ``answers[step](body)`` is the model's answer."""

    def __init__(self, answers: Mapping[str, Answer]) -> None:
        self.answers = {"review_verdict": lambda _: NO_PROBLEM, **answers}
        self.steps: list[str] = []

    def handler(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        step = step_of(body)
        self.steps.append(step)
        answer = self.answers[step](body)
        if step in ON_OPENAI:
            return openai_response_reply(json.dumps(answer))
        return anthropic_json_reply(answer)

    def gateway(self) -> StepGateway:
        client = httpx2.AsyncClient(transport=httpx2.MockTransport(self.handler))
        claude = AnthropicProvider("sk-ant-test", http_client=client)
        gpt = OpenAIProvider("sk-test", http_client=client)
        assignment = {step: StepAssignment(provider="anthropic", model="claude-opus-5-5") for step in ON_ANTHROPIC}
        assignment |= {step: StepAssignment(provider="openai", model="gpt-6.1-sol") for step in ON_OPENAI}
        providers: dict[str, ModelProvider] = {step: claude for step in ON_ANTHROPIC}
        providers |= {step: gpt for step in ON_OPENAI}
        # The steering check on the rule-based screen: these tests are about the verdict rules.
        assignment["detect_steering"] = StepAssignment(provider=OFFLINE_NAME, model=OFFLINE_NAME)
        providers["detect_steering"] = OfflineRulesProvider()
        return StepGateway(assignment, providers, prompts_dir=DEFAULT_PROMPTS_DIR)


def judge_answer(verdict: str, cited: list[str], observed: float | None = None, **extra: Any) -> dict[str, Any]:
    """One judge's answer as the model writes it."""
    return {
        "verdict": verdict,
        "confidence": 0.9,
        "basis": "independent_source",
        "rationale": f"Evidence {', '.join(cited)} shows it.",
        "cited_evidence_ids": cited,
        "observed_value": observed,
        "unsettled_reason": "",
        "instructions_noticed": [],
        **extra,
    }
