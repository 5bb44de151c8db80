"""Cost of a call from the price table, and usage totals per step and provider.

The price table lives in configuration (``data/config/prices.yaml``): USD per
million input, cached input and output tokens, per model. ``Usage.input_tokens``
counts every input token including the cached ones; the cached part is billed
at the cached rate.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict

from reliability_core.providers.base import Usage
from reliability_core.providers.errors import ConfigurationError

DEFAULT_PRICES_PATH = Path(__file__).resolve().parents[2] / "data" / "config" / "prices.yaml"
_PER_MILLION = 1_000_000


class ModelPrice(BaseModel):
    """USD per million tokens."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input: float
    output: float
    cached_input: float | None = None  # None: cached tokens cost the full input rate


class PriceTable(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    models: dict[str, ModelPrice] = {}

    def price_for(self, model: str) -> ModelPrice | None:
        return self.models.get(model)


def load_prices(path: Path = DEFAULT_PRICES_PATH) -> PriceTable:
    """Read the price table; a missing file is an empty table (every call costs 0)."""
    if not path.exists():
        return PriceTable()
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        return PriceTable.model_validate(raw)
    except (yaml.YAMLError, ValueError) as exc:
        raise ConfigurationError(f"price table {path} is malformed: {exc}") from exc


def call_cost(price: ModelPrice | None, input_tokens: int, output_tokens: int, cached_tokens: int) -> float:
    """cost = ((input - cached) * input_rate + cached * cached_rate + output * output_rate) / 1e6;
    a model missing from the table costs 0 (the offline rules, or a self-hosted model)."""
    if price is None:
        return 0.0
    cached = min(cached_tokens, input_tokens)
    cached_rate = price.input if price.cached_input is None else price.cached_input
    total = (input_tokens - cached) * price.input + cached * cached_rate + output_tokens * price.output
    return total / _PER_MILLION


def priced(usage: Usage, table: PriceTable) -> Usage:
    """``usage`` with its cost filled in from ``table``."""
    cost = call_cost(
        table.price_for(usage.model), usage.input_tokens, usage.output_tokens, usage.cached_tokens
    )
    return usage.model_copy(update={"cost_usd": cost})


class UsageTotals:
    """Running totals of calls, tokens and cost, per step and per provider."""

    def __init__(self, parent: UsageTotals | None = None) -> None:
        self.records: list[Usage] = []
        self.cache_hits = 0
        self.cache_misses = 0
        self.refusals = 0
        self.parent = parent  # a scoped (per-subject) total also adds to its parent

    def add(self, usage: Usage) -> None:
        """Record one call (or one cache hit, which costs nothing)."""
        self.records.append(usage)
        if self.parent is not None:
            self.parent.add(usage)

    def note_cache(self, hit: bool) -> None:
        """Count one cache lookup."""
        if hit:
            self.cache_hits += 1
        else:
            self.cache_misses += 1
        if self.parent is not None:
            self.parent.note_cache(hit)

    def note_refusal(self) -> None:
        """Count one refusal or empty output."""
        self.refusals += 1
        if self.parent is not None:
            self.parent.note_refusal()

    def _summed(self, group: str) -> dict[str, Usage]:
        sums: dict[str, list[Usage]] = defaultdict(list)
        for usage in self.records:
            sums[usage.step if group == "step" else usage.provider].append(usage)
        return {key: _sum(values, group, key) for key, values in sorted(sums.items())}

    def by_step(self) -> dict[str, Usage]:
        """One summed ``Usage`` per step (cache hits count no calls)."""
        return self._summed("step")

    def by_provider(self) -> dict[str, Usage]:
        """One summed ``Usage`` per provider."""
        return self._summed("provider")

    def metadata(self) -> dict[str, int | float]:
        """Flat totals with dagster-openai style keys per provider prefix
        (``anthropic.calls``, ``anthropic.total_tokens``, ...) plus ``cache.hits``/``cache.misses``."""
        out: dict[str, int | float] = {}
        for provider, usage in self.by_provider().items():
            out[f"{provider}.calls"] = usage.calls
            out[f"{provider}.input_tokens"] = usage.input_tokens
            out[f"{provider}.output_tokens"] = usage.output_tokens
            out[f"{provider}.total_tokens"] = usage.input_tokens + usage.output_tokens
            out[f"{provider}.cached_tokens"] = usage.cached_tokens
            out[f"{provider}.cost_usd"] = round(usage.cost_usd, 6)
        out["cache.hits"] = self.cache_hits
        out["cache.misses"] = self.cache_misses
        out["model.refusals"] = self.refusals
        return out


def _sum(values: list[Usage], group: str, key: str) -> Usage:
    models = sorted({u.model for u in values})
    return Usage(
        provider=key if group == "provider" else ",".join(sorted({u.provider for u in values})),
        model=",".join(models),
        step=key if group == "step" else ",".join(sorted({u.step for u in values})),
        calls=sum(0 if u.cache_hit else u.calls for u in values),
        input_tokens=sum(u.input_tokens for u in values if not u.cache_hit),
        output_tokens=sum(u.output_tokens for u in values if not u.cache_hit),
        cached_tokens=sum(u.cached_tokens for u in values if not u.cache_hit),
        cost_usd=sum(u.cost_usd for u in values if not u.cache_hit),
    )
