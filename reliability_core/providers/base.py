"""The seams every model and search call goes through.

A pipeline step never talks to a vendor SDK: it asks the ``ModelGateway`` to
run a named step with a typed input and a typed output schema, and the
gateway picks the provider and model assigned to that step, renders the
prompt template, checks the cache, retries faults and validates the output.
Providers only turn a ``ModelRequest`` into a ``ModelResponse`` over their
wire format; the offline provider does the same from local rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from reliability_core.models import SearchResult

OutputT = TypeVar("OutputT", bound=BaseModel)


# The provider and model name every record made by the offline stand-in carries
# (``reliability_core.stand_in.model``), so no output of it passes for a live model's.
OFFLINE_NAME = "offline-rules"


class Usage(BaseModel):
    """Tokens and cost of one call (or a sum of calls)."""

    model_config = ConfigDict(frozen=True)

    provider: str
    model: str
    step: str
    calls: int = 1
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0  # input tokens read from the vendor's prompt cache
    cache_write_tokens: int = 0  # input tokens written to it (billed at the cache-write rate)
    cost_usd: float = 0.0
    cache_hit: bool = False
    batch: bool = False  # made through the vendor's batch API (priced at its batch discount)


class ModelRequest(BaseModel):
    """One structured call: a rendered prompt, the input as JSON, the output schema."""

    model_config = ConfigDict(frozen=True)

    step: str
    model: str
    template_name: str
    template_sha256: str
    system_prompt: str
    input_json: str
    # Top-level input fields that many calls of the step share (the claim, for every page read
    # about it): sent first, as their own cacheable block where the vendor needs a breakpoint.
    shared_input_fields: tuple[str, ...] = ()
    output_schema: dict[str, Any]
    output_schema_name: str
    max_output_tokens: int = 4096
    # Reasoning depth for the step (Anthropic ``output_config.effort``, OpenAI
    # ``reasoning.effort``): low, medium, high, xhigh or max; None = vendor default.
    effort: str | None = None
    temperature: float = 0.0
    # Set on the one repair attempt: what the model sent and why it was rejected.
    previous_output: str | None = None
    validation_error: str | None = None


class ModelResponse(BaseModel):
    """What a provider got back: output JSON text, or a refusal, or a truncation, plus usage.

    ``truncated`` is the vendor's reason when the answer was cut off
    (``max_tokens``, ``model_context_window_exceeded``, ``max_output_tokens``,
    ``length``): whatever text came with it is never validated or used.
    """

    model_config = ConfigDict(frozen=True)

    output_json: str | None
    refusal: str | None = None
    refusal_category: str | None = None
    refusal_explanation: str | None = None
    truncated: str | None = None
    request_id: str | None = None
    usage: Usage


class ModelProvider(Protocol):
    """A vendor (or the offline rules) behind one small interface."""

    name: str  # "anthropic", "openai", "openai-compatible", "offline-rules"
    family: str  # model family, so the two judges can be checked to differ

    async def complete(self, request: ModelRequest) -> ModelResponse: ...


class SearchQuery(BaseModel):
    """A web search with optional date range and domain filters."""

    model_config = ConfigDict(frozen=True)

    query: str
    max_results: int = 20
    published_after: date | None = None
    published_before: date | None = None
    include_domains: list[str] = Field(default_factory=list)
    exclude_domains: list[str] = Field(default_factory=list)


class SearchProvider(Protocol):
    """Perplexity's search API, or the offline FTS5 index over the corpus."""

    name: str

    async def search(self, query: SearchQuery) -> list[SearchResult]: ...


class ModelGateway(Protocol):
    """What pipeline steps call: ``await gateway.run("extract_statements", inp, ExtractOutput)``."""

    async def run(self, step: str, payload: BaseModel, output_type: type[OutputT]) -> OutputT: ...

    def model_for(self, step: str) -> str:
        """The model id assigned to ``step`` (``offline-rules`` for the offline provider)."""
        ...


@runtime_checkable
class WithholdsPrivateText(Protocol):
    """A gateway that keeps model answers (a cache) and can mask in them the sentences of
    statements found private after the answers were kept (``StepGateway``)."""

    def withhold_private(self, quotes: Sequence[str]) -> int: ...
