"""The scripted model's mistakes, through the real provider classes against the
rehearsal servers, and the named function that disposes of each one."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from reliability_core.claims.classification import ClassifyInput, ClassifyOutput, StatementToClassify
from reliability_core.claims.extraction import ExtractInput, ExtractOutput
from reliability_core.claims.stated_probability import record_stated_probability
from reliability_core.models import CriteriaLevels
from reliability_core.providers.base import ModelRequest
from reliability_core.providers.openai_provider import OpenAIProvider
from reliability_core.text.quotes import value_in_quote, verify_quote
from reliability_core.verdicts.evidence import ReadEvidenceInput, ReadEvidenceOutput
from reliability_core.wiring import build_gateway
from reliability_rehearsal import MistakeRates, RehearsalServers
from tests.conftest import PROJECT_ROOT
from tests.rehearsal.helpers import northwind_page, rehearsal_env, rehearsal_servers

PAGE = (
    "Northwind Energy reported its results on Tuesday. Revenue rose to 412 million euros in 2019, "
    "chief executive Freja Lund said. \"We will bring Gull Reef's second phase online by the end of 2021,\" "
    "Lund said, adding that the company was likely to raise its dividend next year. "
    "\"Our offshore fleet produced 3.2 terawatt hours last year, the most in our history,\" she said."
)
NONE = MistakeRates.none()


def _only(**rates: float) -> MistakeRates:
    return MistakeRates(**{**NONE.__dict__, **rates})




def _extract_input(page: str = PAGE) -> ExtractInput:
    return northwind_page(page)


@pytest.fixture
def careful() -> Iterator[RehearsalServers]:
    with rehearsal_servers(NONE) as running:
        yield running


def test_scripted_extraction_answers_from_the_page_in_the_request(careful: RehearsalServers) -> None:
    gateway = build_gateway(rehearsal_env(careful), cache_dir=None)
    other = "Freja Lund said: \"We expect to double our solar capacity by 2026, and we will.\" She spoke in Aarhus."
    first = asyncio.run(gateway.run("extract_statements", _extract_input(), ExtractOutput))
    second = asyncio.run(gateway.run("extract_statements", _extract_input(other), ExtractOutput))
    assert first.statements and second.statements
    assert all(verify_quote(s.quote, PAGE).verified for s in first.statements)
    assert all(verify_quote(s.quote, other).verified for s in second.statements)
    assert {s.quote for s in first.statements}.isdisjoint({s.quote for s in second.statements})


def test_loose_restatement_passed_as_a_quote_fails_verification() -> None:
    with rehearsal_servers(_only(loose_quote=1.0)) as servers:
        gateway = build_gateway(rehearsal_env(servers), cache_dir=None)
        output = asyncio.run(gateway.run("extract_statements", _extract_input(), ExtractOutput))
        assert servers.log.mistakes["loose restatement as quote"] >= 1
    long_quotes = [s for s in output.statements if len(s.quote.split()) >= 5]
    assert long_quotes
    assert not any(verify_quote(s.quote, PAGE).verified for s in long_quotes)


def test_invented_number_in_a_quote_fails_verification() -> None:
    with rehearsal_servers(_only(invented_number=1.0)) as servers:
        gateway = build_gateway(rehearsal_env(servers), cache_dir=None)
        output = asyncio.run(gateway.run("extract_statements", _extract_input(), ExtractOutput))
    changed = [s for s in output.statements if any(ch.isdigit() for ch in s.quote)]
    assert changed
    assert not any(verify_quote(s.quote, PAGE).verified for s in changed)


def _classify_input() -> ClassifyInput:
    quote = "the company was likely to raise its dividend next year"
    return ClassifyInput(
        subject_id="northwind-energy",
        subject_name="Northwind Energy A/S",
        aliases=["Northwind", "Freja Lund"],
        subject_kind="company",
        document_url="https://wire.example/business/northwind",
        document_title="Northwind results",
        published_date=date(2020, 2, 4),
        own_document=False,
        statements=[
            StatementToClassify(
                index=0,
                quote=quote,
                context="Lund said, adding that the company was likely to raise its dividend next year.",
                form="reported",
                speaker_hint="Freja Lund",
            )
        ],
    )


def test_inferred_probability_from_hedged_words_is_not_recorded() -> None:
    payload = _classify_input()
    with rehearsal_servers(_only(inferred_probability=1.0)) as servers:
        gateway = build_gateway(rehearsal_env(servers), cache_dir=None)
        output = asyncio.run(gateway.run("classify_statements", payload, ClassifyOutput))
        made = servers.log.mistakes["inferred probability"]
    item = output.items[0]
    if made:
        assert item.stated_probability is not None  # the model did infer one
    recorded = record_stated_probability(item.stated_probability, item.probability_kind, payload.statements[0].quote)
    assert recorded == (None, None)


def _read_input() -> ReadEvidenceInput:
    return ReadEvidenceInput(
        restatement="Northwind Energy's offshore fleet produced more than 3 terawatt hours in 2019.",
        claim_type="factual",
        judge_at=date(2020, 6, 1),
        levels=CriteriaLevels(
            true="3 TWh or more", mostly_true="close to 3", mixed="unclear", mostly_false="well below", false="far below"
        ),
        numeric=None,
        page_url="https://dailyledger.example/business/northwind-output",
        page_title="Northwind output",
        page_published=date(2020, 2, 5),
        page_text=PAGE,
        subject_names=["Northwind Energy A/S", "Northwind"],
    )


def test_paraphrase_presented_as_a_quote_fails_verification() -> None:
    with rehearsal_servers(_only(paraphrased_quote=1.0)) as servers:
        gateway = build_gateway(rehearsal_env(servers), cache_dir=None)
        output = asyncio.run(gateway.run("read_evidence", _read_input(), ReadEvidenceOutput))
        assert servers.log.mistakes["paraphrase presented as quote"] == len(output.items)
    assert not any(verify_quote(item.quote, PAGE).verified for item in output.items)


def test_invented_observed_value_is_not_inside_its_quote() -> None:
    with rehearsal_servers(_only(invented_number=1.0)) as servers:
        gateway = build_gateway(rehearsal_env(servers), cache_dir=None)
        output = asyncio.run(gateway.run("read_evidence", _read_input(), ReadEvidenceOutput))
        invented = servers.log.mistakes["invented observed value"]
    valued = [item for item in output.items if item.observed_value is not None]
    assert len(valued) == invented
    assert not any(value_in_quote(item.observed_value or 0.0, item.quote) for item in valued)


def _judge_request() -> ModelRequest:
    payload: dict[str, Any] = {
        "claim": "Northwind Energy said it would bring Gull Reef's second phase online by the end of 2021.",
        "claim_type": "promise",
        "made_on": "2020-02-04",
        "deadline": "2021-12-31",
        "judge_at": "2022-01-01",
        "levels": {k: k for k in ("true", "mostly_true", "mixed", "mostly_false", "false")},
        "numeric": None,
        "evidence": [],
    }
    import json

    return ModelRequest(
        step="judge_b",
        model="gpt-6.1-sol",
        template_name="judge",
        template_sha256="",
        system_prompt=(PROJECT_ROOT / "reliability_core" / "prompts" / "judge.md").read_text(),
        input_json=json.dumps(payload),
        output_schema={"type": "object"},
        output_schema_name="JudgeOutput",
        max_output_tokens=8192,
    )


def test_judge_b_refusal_arrives_as_a_refusal_through_the_openai_provider() -> None:
    with rehearsal_servers(_only(judge_refusal=1.0)) as servers:
        provider = OpenAIProvider("k", base_url=servers.openai_url)
        response = asyncio.run(provider.complete(_judge_request()))
    assert response.output_json is None
    assert response.refusal
    assert response.usage.output_tokens > 0
