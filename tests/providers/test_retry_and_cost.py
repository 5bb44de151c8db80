from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from reliability_core.providers.base import Usage
from reliability_core.providers.cache import ResponseCache, cache_key
from reliability_core.providers.pricing import (
    ModelPrice,
    UsageTotals,
    call_cost,
    load_prices,
    priced,
)
from reliability_core.providers.retry import RetryPolicy, parse_retry_after, retry_after_from_headers


def test_retry_after_in_seconds_and_as_an_http_date() -> None:
    now = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after("12", now) == 12.0
    assert parse_retry_after("Mon, 30 Nov 2026 12:00:30 GMT", now) == 30.0
    assert parse_retry_after("Mon, 30 Nov 2026 11:00:00 GMT", now) == 0.0
    assert parse_retry_after("soon", now) is None
    assert parse_retry_after(None, now) is None


def test_retry_after_ms_wins_over_retry_after() -> None:
    assert retry_after_from_headers({"Retry-After": "10", "retry-after-ms": "1500"}) == 1.5
    assert retry_after_from_headers({"Retry-After": "10"}) == 10.0


def test_backoff_doubles_up_to_the_cap_and_honours_the_server_up_to_the_cap() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=8.0, rng=random.Random(1))
    for attempt, ceiling in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (6, 8.0)]:
        assert 0.0 <= policy.delay_for(attempt, None) <= ceiling
    assert policy.delay_for(1, 3.0) == 3.0
    assert policy.delay_for(1, 300.0) == 8.0


def test_cost_bills_cache_reads_and_writes_at_their_own_rates() -> None:
    price = ModelPrice(input=3.0, output=15.0, cache_write=3.75, cache_read=0.3)
    # 2,000 input of which 1,000 read from the cache, 500 output:
    # (1000 * 3 + 1000 * 0.3 + 500 * 15) / 1e6 = 0.0108
    assert call_cost(price, 2000, 500, 1000) == pytest.approx(0.0108)
    # ... and of the other 1,000, 400 written to it: 600 * 3 + 400 * 3.75 instead of 1000 * 3
    assert call_cost(price, 2000, 500, 1000, 400) == pytest.approx(
        (600 * 3 + 1000 * 0.3 + 400 * 3.75 + 7500) / 1e6
    )
    assert call_cost(ModelPrice(input=2.0, output=4.0), 1_000_000, 0, 500_000) == pytest.approx(2.0)
    assert call_cost(None, 10_000, 10_000, 0) == 0.0


def test_a_prompt_above_the_long_context_threshold_pays_the_tier_rate_on_every_token() -> None:
    haiku = load_prices().models["claude-haiku-5-5"]
    assert call_cost(haiku, 100_000, 1_000) == pytest.approx((100_000 * 0.10 + 1_000 * 0.50) / 1e6)
    assert call_cost(haiku, 100_001, 1_000) == pytest.approx((100_001 * 0.50 + 1_000 * 2.50) / 1e6)


def test_batch_calls_get_the_batch_discount() -> None:
    opus = load_prices().models["claude-opus-5-5"]
    assert call_cost(opus, 1000, 100, batch=True) == pytest.approx(call_cost(opus, 1000, 100) / 2)


def test_price_table_in_configuration_covers_every_default_model_with_date_and_source() -> None:
    table = load_prices()
    for model in ("claude-haiku-5-5", "claude-sonnet-5-5", "claude-opus-5-5", "gpt-6.1-sol"):
        price = table.price_for(model)
        assert price is not None
        assert price.as_of is not None and price.source is not None and price.source.startswith("https://")
        assert price.cache_write is not None and price.cache_read is not None
    usage = priced(
        Usage(provider="anthropic", model="claude-haiku-5-5", step="s", input_tokens=50_000), table
    )
    assert usage.cost_usd == pytest.approx(50_000 * table.models["claude-haiku-5-5"].input / 1e6)


def test_totals_per_step_and_provider_add_up_and_cache_hits_cost_nothing() -> None:
    totals = UsageTotals()
    totals.add(
        Usage(provider="anthropic", model="m", step="a", input_tokens=10, output_tokens=5, cost_usd=0.5)
    )
    totals.add(
        Usage(provider="anthropic", model="m", step="b", input_tokens=20, output_tokens=5, cost_usd=1.0)
    )
    totals.add(Usage(provider="openai", model="g", step="b", input_tokens=7, output_tokens=3, cost_usd=0.25))
    totals.add(Usage(provider="openai", model="g", step="b", input_tokens=7, cost_usd=0.25, cache_hit=True))
    totals.note_cache(True)
    by_step = totals.by_step()
    assert by_step["a"].calls == 1 and by_step["b"].calls == 2
    assert by_step["b"].cost_usd == pytest.approx(1.25)
    meta = totals.metadata()
    assert meta["anthropic.total_tokens"] == 40
    assert meta["openai.calls"] == 1 and meta["openai.total_tokens"] == 10
    assert meta["cache.hits"] == 1 and meta["cache.misses"] == 0


def test_cache_survives_a_new_process_and_ignores_a_corrupt_entry(tmp_path: Path) -> None:
    key = cache_key(provider="p", model="m", input_json="{}")
    ResponseCache(tmp_path).put(key, {"output_json": "{}"})
    assert ResponseCache(tmp_path).get(key) == {"output_json": "{}"}
    assert not list(tmp_path.rglob("*.tmp"))
    (tmp_path / key[:2] / f"{key}.json").write_text("{trunc", encoding="utf-8")
    assert ResponseCache(tmp_path).get(key) is None


def test_cache_key_depends_on_every_part() -> None:
    base = {"provider": "p", "model": "m", "template_sha256": "t", "input_json": "{}", "output_schema": {}}
    keys = {cache_key(**base)}
    for name, value in [
        ("provider", "q"),
        ("model", "n"),
        ("template_sha256", "u"),
        ("input_json", "[]"),
        ("output_schema", {"a": 1}),
    ]:
        keys.add(cache_key(**{**base, name: value}))
    assert len(keys) == 6
