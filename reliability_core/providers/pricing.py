"""Cost of a call from the price table, and usage totals per step and provider.

The price table lives beside this module (``providers/prices.yaml``, package data): USD per
million tokens per model, for plain input, output, cache writes and cache
reads, with the batch discount and any long-context tier, each entry dated and
sourced. ``Usage.input_tokens`` counts every input token including the cached
and cache-written ones; those two parts are billed at their own rates.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from datetime import date
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict

from reliability_core.providers.base import Usage
from reliability_core.providers.errors import ConfigurationError
from reliability_core.yaml_files import safe_load

# Shipped inside the package beside this module, so an installed copy prices its calls
# (a missing table would price every call at 0).
DEFAULT_PRICES_PATH = Path(__file__).resolve().parent / "prices.yaml"
_PER_MILLION = 1_000_000


class TokenRates(BaseModel):
    """USD per million tokens of each kind."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input: float
    output: float
    cache_write: float | None = None  # None: cache writes cost the plain input rate
    cache_read: float | None = None  # None: cache reads cost the plain input rate


class LongContextRates(TokenRates):
    """The rates of a request whose prompt (input + cache reads + writes) exceeds
    ``above_input_tokens``: they apply to every token of that request."""

    above_input_tokens: int


class ModelPrice(TokenRates):
    """List prices of one model, with the date they were read and the page they came from."""

    batch_discount: float = 0.0  # fraction off input and output on the vendor's batch API
    long_context: LongContextRates | None = None
    as_of: date | None = None
    source: str | None = None

    def rates_for(self, prompt_tokens: int) -> TokenRates:
        """The rates of a request with ``prompt_tokens`` of input (the long-context tier above its threshold)."""
        if self.long_context is not None and prompt_tokens > self.long_context.above_input_tokens:
            return self.long_context
        return self


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
        return _price_table(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, ValueError) as exc:
        raise ConfigurationError(f"price table {path} is malformed: {exc}") from exc


@functools.lru_cache(maxsize=8)
def _price_table(text: str) -> PriceTable:
    # Read in every stage of every run: the same text gives the same (frozen) table.
    return PriceTable.model_validate(safe_load(text) or {})


def call_cost(
    price: ModelPrice | None,
    input_tokens: int,
    output_tokens: int,
    cached_tokens: int = 0,
    cache_write_tokens: int = 0,
    *,
    batch: bool = False,
) -> float:
    """cost = (plain_input·input + cache_read·read + cache_write·write + output·output) / 1e6,
    plain_input = input − cache reads − cache writes, at the long-context rates when
    the prompt is above the tier's threshold, less the batch discount on a batch call;
    a model missing from the table costs 0 (the offline rules, or a self-hosted model)."""
    if price is None:
        return 0.0
    rates = price.rates_for(input_tokens)
    cached = min(cached_tokens, input_tokens)
    written = min(cache_write_tokens, input_tokens - cached)
    read_rate = rates.input if rates.cache_read is None else rates.cache_read
    write_rate = rates.input if rates.cache_write is None else rates.cache_write
    total = (
        (input_tokens - cached - written) * rates.input
        + cached * read_rate
        + written * write_rate
        + output_tokens * rates.output
    )
    if batch:
        total *= 1.0 - price.batch_discount
    return total / _PER_MILLION


def priced(usage: Usage, table: PriceTable) -> Usage:
    """``usage`` with its cost filled in from ``table``."""
    cost = call_cost(
        table.price_for(usage.model),
        usage.input_tokens,
        usage.output_tokens,
        usage.cached_tokens,
        usage.cache_write_tokens,
        batch=usage.batch,
    )
    return usage.model_copy(update={"cost_usd": cost})


class UsageTotals:
    """Running totals of calls, tokens and cost, per step and per provider."""

    def __init__(self, parent: UsageTotals | None = None) -> None:
        self.records: list[Usage] = []
        self.cache_hits = 0
        self.cache_misses = 0
        self.refusals = 0
        self.truncations = 0
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

    def note_truncation(self) -> None:
        """Count one answer still cut off after the retry with a larger budget."""
        self.truncations += 1
        if self.parent is not None:
            self.parent.note_truncation()

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
            out[f"{provider}.cache_write_tokens"] = usage.cache_write_tokens
            out[f"{provider}.cost_usd"] = round(usage.cost_usd, 6)
        out["cache.hits"] = self.cache_hits
        out["cache.misses"] = self.cache_misses
        out["model.refusals"] = self.refusals
        out["model.truncations"] = self.truncations
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
        cache_write_tokens=sum(u.cache_write_tokens for u in values if not u.cache_hit),
        cost_usd=sum(u.cost_usd for u in values if not u.cache_hit),
    )
