"""Batch mode (issue 19 section 5) against the rehearsal servers: calls that arrive
together go out as one Message Batch / OpenAI Batch, each gets its own validated
answer, and the usage is priced at the vendor's batch discount."""

from __future__ import annotations

import asyncio
import json
from datetime import date

import pytest

from reliability_core.claims.extraction import ExtractInput, ExtractOutput
from reliability_core.models import CriteriaLevels
from reliability_core.providers.batch import BatchingProvider, BatchSettings, with_batches
from reliability_core.providers.pricing import call_cost, load_prices
from reliability_core.verdicts.judge_input import JudgeInput, JudgeOutput
from reliability_core.wiring import build_gateway
from tests.rehearsal.helpers import CORPUS, northwind_page, rehearsal_env, rehearsal_servers

FAST = BatchSettings(window_seconds=0.05, poll_seconds=0.05, max_wait_seconds=30.0)
PAGES = [
    f"Freja Lund said on day {n}: \"We will commission {n} new turbines at Gull Reef by the end of 2027.\" "
    "The company confirmed the plan." for n in range(3, 8)
]






async def _extract_all(gateway: object, inputs: list[ExtractInput]) -> list[ExtractOutput]:
    run = gateway.run  # type: ignore[attr-defined]
    return list(await asyncio.gather(*(run("extract_statements", i, ExtractOutput) for i in inputs)))


def test_calls_arriving_together_go_out_as_one_message_batch_at_the_batch_price() -> None:
    inputs = [northwind_page(page, n, published=date(2025, 3, n)) for n, page in enumerate(PAGES, start=3)]
    with rehearsal_servers() as servers:
        interactive = build_gateway(rehearsal_env(servers), cache_dir=None)
        expected = asyncio.run(_extract_all(interactive, inputs))
        batched = with_batches(build_gateway(rehearsal_env(servers), cache_dir=None), FAST)
        got = asyncio.run(_extract_all(batched, inputs))
        assert servers.log.batches["anthropic"] == 1
        assert servers.log.batch_requests["anthropic"] == len(inputs)
    assert got == expected
    provider = batched.provider_for("extract_statements")
    assert isinstance(provider, BatchingProvider) and provider.batches_submitted == 1
    full = interactive.totals.by_step()["extract_statements"]
    cheap = batched.totals.by_step()["extract_statements"]
    assert cheap.output_tokens == full.output_tokens
    list_price = call_cost(
        load_prices().price_for("claude-haiku-5-5"),
        cheap.input_tokens,
        cheap.output_tokens,
        cheap.cached_tokens,
        cheap.cache_write_tokens,
    )
    # Haiku 5.5's batch discount is 50% (reliability_core/providers/prices.yaml).
    assert cheap.cost_usd == pytest.approx(list_price * 0.5)


def _judge(n: int) -> JudgeInput:
    return JudgeInput(
        claim=f"Northwind Energy said it would commission {n} turbines at Gull Reef by the end of 2027.",
        claim_type="promise",
        made_on=date(2025, 3, 1),
        deadline=date(2027, 12, 31),
        judge_at=date(2028, 1, 1),
        levels=CriteriaLevels(true="all", mostly_true="most", mixed="some", mostly_false="few", false="none"),
        numeric=None,
        evidence=[],
    )


def test_judge_b_calls_go_out_as_one_openai_batch_and_each_gets_its_answer() -> None:
    inputs = [_judge(n) for n in range(3, 7)]
    with rehearsal_servers() as servers:
        batched = with_batches(build_gateway(rehearsal_env(servers), cache_dir=None), FAST)

        async def judge_all() -> list[JudgeOutput]:
            return list(await asyncio.gather(*(batched.run("judge_b", i, JudgeOutput) for i in inputs)))

        outputs = asyncio.run(judge_all())
        assert servers.log.batches["openai"] == 1
        assert servers.log.batch_requests["openai"] == len(inputs)
    assert len(outputs) == len(inputs)
    usage = batched.totals.by_step()["judge_b"]
    assert usage.calls == len(inputs) and usage.cost_usd > 0


def test_an_item_the_batch_reports_as_errored_fails_alone() -> None:
    with rehearsal_servers() as servers:
        gateway = build_gateway(rehearsal_env(servers), cache_dir=None)
        provider = gateway.provider_for("extract_statements")
        batched = with_batches(gateway, FAST)
        wrapper = batched.provider_for("extract_statements")
        assert isinstance(wrapper, BatchingProvider)
        good = batched._request(  # the gateway's own request building
            "extract_statements", batched.assignment["extract_statements"], provider, northwind_page(PAGES[0], 3), ExtractOutput
        )
        bad = good.model_copy(update={"max_output_tokens": 10_000_000})  # above the model's limit: a 400 item

        async def both() -> list[object]:
            return list(await asyncio.gather(wrapper.complete(good), wrapper.complete(bad), return_exceptions=True))

        first, second = asyncio.run(both())
    assert not isinstance(first, Exception) and json.loads(first.output_json or "{}")["statements"]  # type: ignore[union-attr]
    assert isinstance(second, Exception) and "max_tokens" in str(second)


def test_only_the_jobs_named_in_batch_jobs_send_calls_through_the_batch_apis(tmp_path: object) -> None:
    from reliability_dagster.resources import ProvidersResource

    providers = ProvidersResource(
        anthropic_api_key="k",
        openai_api_key="k",
        anthropic_base_url="http://127.0.0.1:9",
        openai_base_url="http://127.0.0.1:9/v1",
        corpus_dir=str(CORPUS),
        cache_dir=str(tmp_path),
        batch_jobs=["refresh", "backtest_gold_set"],
    )
    for job in ("refresh", "backtest_gold_set"):
        gateway = providers.gateway(job=job)
        assert isinstance(gateway.provider_for("judge_a"), BatchingProvider)
        assert isinstance(gateway.provider_for("judge_b"), BatchingProvider)
    quick = providers.gateway(job="quick_report")
    assert not isinstance(quick.provider_for("judge_a"), BatchingProvider)
