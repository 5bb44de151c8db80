"""The one door every model step goes through.

``await gateway.run(step, payload, OutputType)`` looks up the step's provider
and model, renders the prompt template, checks the cache, calls the provider
(bounded concurrency per provider, retries on faults), validates the output
against ``OutputType`` and makes one repair attempt on invalid output. A
reply cut off by the output budget gets one retry with the step's larger
budget. It never returns a partially filled record: the result is a validated
``OutputType`` or a typed error naming the step and the provider.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from reliability_core.ids import sha256_hex
from reliability_core.providers.assignment import StepAssignment, StepLimits, limits_for, template_for
from reliability_core.providers.base import (
    OFFLINE_NAME,
    ModelProvider,
    ModelRequest,
    ModelResponse,
    OutputT,
    Usage,
)
from reliability_core.providers.cache import ResponseCache, cache_key
from reliability_core.providers.errors import (
    ConfigurationError,
    ModelOutputError,
    ModelRefusalError,
    ModelTruncatedError,
)
from reliability_core.providers.loops import PerLoop
from reliability_core.providers.pricing import PriceTable, UsageTotals, priced
from reliability_core.providers.retry import RetryPolicy
from reliability_core.providers.schemas import json_text, missing_fields
from reliability_core.text.data_marking import CACHE_TOKEN, DataMark
from reliability_core.version import method_version

DEFAULT_PROMPTS_DIR = Path(__file__).resolve().parent.parent / "prompts"
DEFAULT_CONCURRENCY: dict[str, int] = {
    "anthropic": 8,
    "openai": 8,
    "openai-compatible": 4,
    OFFLINE_NAME: 32,
}


class _KeyLock:
    """The lock of one cache key and how many calls hold or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class StepGateway:
    """Implements ``ModelGateway``: one structured call per step, through its assigned provider."""

    def __init__(
        self,
        assignment: Mapping[str, StepAssignment],
        providers: Mapping[str, ModelProvider],
        *,
        cache: ResponseCache | None = None,
        prices: PriceTable | None = None,
        retry: RetryPolicy | None = None,
        prompts_dir: Path = DEFAULT_PROMPTS_DIR,
        concurrency: Mapping[str, int] | None = None,
        limits: Mapping[str, StepLimits] | None = None,
        totals: UsageTotals | None = None,
        _semaphores: dict[str, PerLoop[asyncio.Semaphore]] | None = None,
        _key_locks: PerLoop[dict[str, _KeyLock]] | None = None,
    ) -> None:
        missing = sorted(set(assignment) - set(providers))
        if missing:
            raise ConfigurationError(f"no provider for steps {missing}")
        self.assignment = dict(assignment)
        self.providers = dict(providers)
        self.cache = cache
        self.prices = prices or PriceTable()
        self.retry = retry or RetryPolicy()
        self.prompts_dir = prompts_dir
        self.concurrency = {**DEFAULT_CONCURRENCY, **(concurrency or {})}
        # Per-step output budgets and effort (``assignment.STEP_LIMITS`` unless overridden).
        self.limits: dict[str, StepLimits] = dict(limits or {})
        self.totals = totals or UsageTotals()
        self._semaphores: dict[str, PerLoop[asyncio.Semaphore]] = {} if _semaphores is None else _semaphores
        # One lock per cache key in flight, shared by scoped gateways: see ``run``.
        self._key_locks: PerLoop[dict[str, _KeyLock]] = _key_locks or PerLoop(dict)
        # The cache entries this gateway answered from or wrote: the ones a later privacy
        # decision may have to mask (``withhold_private``).
        self._keys_answered: set[str] = set()

    # -- inspection -------------------------------------------------------

    def model_for(self, step: str) -> str:
        """The model id assigned to ``step`` (``offline-rules`` for the offline provider)."""
        return self._assignment_for(step).model

    def provider_for(self, step: str) -> ModelProvider:
        """The provider that runs ``step``."""
        self._assignment_for(step)
        return self.providers[step]

    def family_for(self, step: str) -> str:
        """The model family of ``step``'s provider (so the two judges can be checked to differ)."""
        return self.provider_for(step).family

    def is_offline(self, step: str | None = None) -> bool:
        """Whether ``step`` (or, without a step, any step) runs on the offline rules."""
        steps = [step] if step is not None else list(self.assignment)
        return any(self.providers[s].name == OFFLINE_NAME for s in steps)

    def describe(self) -> dict[str, str]:
        """step -> ``provider:model`` (``offline-rules`` for offline steps)."""
        return {step: self.assignment[step].label() for step in sorted(self.assignment)}

    def metadata(self) -> dict[str, int | float]:
        """Usage totals with dagster-openai style keys per provider prefix."""
        return self.totals.metadata()

    def with_providers(self, wrap: Callable[[ModelProvider], ModelProvider]) -> StepGateway:
        """The same gateway (assignment, cache, prices, retry policy, limits) with
        each distinct provider replaced by ``wrap(provider)``: how fault injection
        and simulated latency are layered over the real providers."""
        wrapped: dict[int, ModelProvider] = {}
        for provider in self.providers.values():
            wrapped.setdefault(id(provider), wrap(provider))
        return StepGateway(
            self.assignment,
            {step: wrapped[id(provider)] for step, provider in self.providers.items()},
            cache=self.cache,
            prices=self.prices,
            retry=self.retry,
            prompts_dir=self.prompts_dir,
            concurrency=self.concurrency,
            limits=self.limits,
        )

    def scoped(self) -> StepGateway:
        """A gateway sharing providers, cache, retries and concurrency limits but
        with its own usage totals (which also add to this one's): one per subject."""
        return StepGateway(
            self.assignment,
            self.providers,
            cache=self.cache,
            prices=self.prices,
            retry=self.retry,
            prompts_dir=self.prompts_dir,
            concurrency=self.concurrency,
            limits=self.limits,
            totals=UsageTotals(parent=self.totals),
            _semaphores=self._semaphores,
            _key_locks=self._key_locks,
        )

    # -- the call ---------------------------------------------------------

    async def run(self, step: str, payload: BaseModel, output_type: type[OutputT]) -> OutputT:
        """Run ``step`` on ``payload`` and return a validated ``output_type``."""
        assignment = self._assignment_for(step)
        provider = self.providers[step]
        request = self._request(step, assignment, provider, payload, output_type)
        key = self._cache_key(assignment, provider, _without_data_mark(request, payload))
        if self.cache is None:
            return await self._run_once(step, provider, request, key, output_type)
        # Single flight: a request identical to one still in flight (the same texts for two
        # claims, checked at once) waits for that call's answer and reads it from the cache,
        # instead of both missing the cache and both being paid for. Which of the two paid
        # used to depend on how the concurrent calls interleaved.
        locks = self._key_locks.get()
        held = locks.get(key)
        if held is None:
            held = locks[key] = _KeyLock()
        held.users += 1
        try:
            async with held.lock:
                return await self._run_once(step, provider, request, key, output_type)
        finally:
            held.users -= 1
            if held.users == 0:
                locks.pop(key, None)

    async def _run_once(
        self, step: str, provider: ModelProvider, request: ModelRequest, key: str, output_type: type[OutputT]
    ) -> OutputT:
        """The cached answer, or one call (and at most one repair), cached when valid."""
        use_cache = self.cache is not None
        if use_cache:
            assert self.cache is not None
            cached = self.cache.get(key)
            self._keys_answered.add(key)
            self.totals.note_cache(cached is not None)
            if cached is not None:
                hit = self._from_cache(cached, output_type)
                if hit is not None:
                    cached_output, usage = hit
                    self.totals.add(usage.model_copy(update={"cache_hit": True, "cost_usd": 0.0}))
                    return cached_output

        response = await self._complete_whole(provider, request)
        output, error = self._validated(response, output_type, provider, request)
        if error is not None:
            repair = request.model_copy(
                update={"previous_output": response.output_json, "validation_error": error}
            )
            response = await self._complete_whole(provider, repair)
            output, error = self._validated(response, output_type, provider, repair)
            if error is not None:
                raise ModelOutputError(
                    f"step {step!r}: provider {provider.name!r} model {request.model!r} returned output "
                    f"that does not satisfy {output_type.__name__} even after one repair attempt: {error}"
                    + _request_note(response.request_id),
                    step=step,
                    provider=provider.name,
                    model=request.model,
                    last_error=error,
                    request_id=response.request_id,
                )
        assert output is not None
        if use_cache:
            assert self.cache is not None
            self.cache.put(
                key,
                {
                    "output_json": output.model_dump_json(),
                    "usage": response.usage.model_dump(mode="json"),
                },
            )
        return output

    def withhold_private(self, quotes: Sequence[str]) -> int:
        """[M] step 4 "dropped before anything is stored", for the model answers already
        cached when a later step found a statement private (the classifier flags what the
        extractor copied): every sentence holding one of ``quotes`` is masked in the cache
        entries this gateway answered from or wrote. Returns how many entries changed."""
        if self.cache is None or not quotes:
            return 0
        return sum(self.cache.withhold(key, quotes) for key in sorted(self._keys_answered))

    # -- helpers ----------------------------------------------------------

    def _assignment_for(self, step: str) -> StepAssignment:
        try:
            return self.assignment[step]
        except KeyError:
            raise ConfigurationError(
                f"no model assigned to step {step!r} (assigned: {sorted(self.assignment)})"
            ) from None

    def _template(self, step: str, provider: ModelProvider) -> tuple[str, str, str]:
        name = template_for(step)
        path = self.prompts_dir / f"{name}.md"
        if path.exists():
            text = path.read_text(encoding="utf-8")
            return name, text, sha256_hex(text)
        if provider.name == OFFLINE_NAME:
            return name, "", ""
        raise ConfigurationError(
            f"step {step!r}: prompt template {path} is missing (needed by provider {provider.name!r})"
        )

    def _request(
        self,
        step: str,
        assignment: StepAssignment,
        provider: ModelProvider,
        payload: BaseModel,
        output_type: type[BaseModel],
    ) -> ModelRequest:
        name, text, digest = self._template(step, provider)
        return ModelRequest(
            step=step,
            model=assignment.model,
            template_name=name,
            template_sha256=digest,
            system_prompt=text,
            input_json=payload.model_dump_json(),
            shared_input_fields=tuple(getattr(type(payload), "SHARED_INPUT_FIELDS", ())),
            output_schema=_schema_of(output_type),
            output_schema_name=output_type.__name__,
            max_output_tokens=self._limits(step).max_output_tokens,
            effort=self._limits(step).effort,
        )

    def _limits(self, step: str) -> StepLimits:
        return self.limits.get(step) or limits_for(step)

    @staticmethod
    def _cache_key(assignment: StepAssignment, provider: ModelProvider, request: ModelRequest) -> str:
        # A model answer is reused only for an identical input, and never across a
        # change of model or of method version (which hashes every prompt, schema,
        # constant and line of code; for the offline rules it is the model itself).
        method = method_version(offline=provider.name == OFFLINE_NAME)
        # The step is part of the key: judge_a and judge_b share a template and,
        # offline, a model, and must never be handed each other's answer.
        return cache_key(
            step=request.step,
            provider=provider.name,
            method_version=method,
            base_url=assignment.base_url,
            model=request.model,
            template_sha256=request.template_sha256,
            input_json=request.input_json,
            output_schema=request.output_schema,
            output_schema_name=request.output_schema_name,
            max_output_tokens=request.max_output_tokens,
            effort=request.effort,
            temperature=request.temperature,
        )

    def _semaphore(self, provider: str) -> asyncio.Semaphore:
        if provider not in self._semaphores:
            limit = self.concurrency.get(provider, 4)
            self._semaphores[provider] = PerLoop(lambda: asyncio.Semaphore(limit))
        return self._semaphores[provider].get()

    async def _complete(self, provider: ModelProvider, request: ModelRequest) -> ModelResponse:
        async with self._semaphore(provider.name):
            response = await self.retry.call(
                lambda: provider.complete(request), step=request.step, provider=provider.name
            )
        self.totals.add(priced(response.usage, self.prices))
        return response

    async def _complete_whole(self, provider: ModelProvider, request: ModelRequest) -> ModelResponse:
        """A reply that is not cut off: a truncated one gets one retry with the
        step's larger budget, then ``ModelTruncatedError``. A reply that hit the
        context window is not retried (a larger output budget cannot help)."""
        response = await self._complete(provider, request)
        if response.truncated is None:
            return response
        if response.truncated not in _CONTEXT_WINDOW_STOPS:
            budget = max(self._limits(request.step).retry_output_tokens, request.max_output_tokens * 2)
            request = request.model_copy(update={"max_output_tokens": budget})
            response = await self._complete(provider, request)
            if response.truncated is None:
                return response
        self.totals.note_truncation()
        stop = response.truncated or "truncated"
        raise ModelTruncatedError(
            f"step {request.step!r}: provider {provider.name!r} model {request.model!r} stopped before "
            f"finishing ({stop}, output budget {request.max_output_tokens} tokens); "
            "the partial answer is not used" + _request_note(response.request_id),
            step=request.step,
            provider=provider.name,
            model=request.model,
            stop=stop,
            max_output_tokens=request.max_output_tokens,
            request_id=response.request_id,
        )

    def _validated(
        self,
        response: ModelResponse,
        output_type: type[OutputT],
        provider: ModelProvider,
        request: ModelRequest,
    ) -> tuple[OutputT | None, str | None]:
        """(output, None) when valid, (None, error text) when repairable; refusals raise.

        A live model's output must also carry every field of the schema: a
        record cut short whose missing fields have defaults would otherwise
        pass validation as complete."""
        text = (response.output_json or "").strip()
        if response.refusal is not None or not text:
            self.totals.note_refusal()
            said = response.refusal if response.refusal is not None else "(empty output)"
            category = f" [category {response.refusal_category}]" if response.refusal_category else ""
            raise ModelRefusalError(
                f"step {request.step!r}: provider {provider.name!r} model {request.model!r} "
                f"refused or returned nothing{category}: {said}" + _request_note(response.request_id),
                step=request.step,
                provider=provider.name,
                model=request.model,
                refusal=said,
                category=response.refusal_category,
                explanation=response.refusal_explanation,
                request_id=response.request_id,
            )
        text = json_text(text)
        try:
            output = output_type.model_validate_json(text)
        except ValidationError as exc:
            return None, _describe_validation_error(exc)
        if provider.name != OFFLINE_NAME:
            missing = missing_fields(json.loads(text), _schema_of(output_type))
            if missing:
                return None, (
                    f"fields missing from the output (write every field; the output may have been "
                    f"cut off): {', '.join(missing[:20])}"
                )
        return output, None

    @staticmethod
    def _from_cache(entry: Mapping[str, Any], output_type: type[OutputT]) -> tuple[OutputT, Usage] | None:
        try:
            output = output_type.model_validate_json(str(entry["output_json"]))
            usage = Usage.model_validate(entry["usage"])
        except (KeyError, ValidationError):
            return None
        return output, usage


# Stop reasons that mean the input filled the context window: no retry helps.
_CONTEXT_WINDOW_STOPS = frozenset({"model_context_window_exceeded"})


def _request_note(request_id: str | None) -> str:
    return f" (request id {request_id})" if request_id else ""


def _without_data_mark(request: ModelRequest, payload: BaseModel) -> ModelRequest:
    """The request as its cache key sees it: a payload's per-call data delimiters
    (``data_mark``, [#16]) change with every call by design, so the key replaces the token;
    the same texts with any delimiters are the same question."""
    mark = getattr(payload, "data_mark", None)
    if not isinstance(mark, DataMark):
        # One level down: a reviewer's input carries the judges' marked input.
        nested = [getattr(payload, name, None) for name in type(payload).model_fields]
        marks = [getattr(n, "data_mark", None) for n in nested if isinstance(n, BaseModel)]
        mark = next((m for m in marks if isinstance(m, DataMark)), None)
    if mark is None:
        return request
    return request.model_copy(update={"input_json": request.input_json.replace(mark.token, CACHE_TOKEN)})


@functools.lru_cache(maxsize=128)
def _schema_of(output_type: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of an output model, built once per model (pydantic builds
    it afresh on every call, which cost ~1.5 ms per model call)."""
    return output_type.model_json_schema()


def _describe_validation_error(exc: ValidationError) -> str:
    """A short, model-readable account of what failed (JSON syntax or which fields)."""
    lines = []
    for err in exc.errors(include_url=False)[:20]:
        where = ".".join(str(part) for part in err.get("loc", ())) or "(root)"
        lines.append(f"{where}: {err.get('msg', '')}")
    return "; ".join(lines) or str(exc)
