"""The offline rules provider: deterministic handlers in place of a model.

Every model step has a pure handler in ``reliability_core.stand_in.rules``
registered with ``@offline_step(step, InputModel)``. The provider parses the
request's input JSON into that model, calls the handler and returns its output
as JSON, so the gateway validates offline output exactly as it validates a
live model's. Its name and model id are ``offline-rules``, which is what every
record made with it says.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from reliability_core.providers.base import OFFLINE_NAME, ModelRequest, ModelResponse, Usage

InT = TypeVar("InT", bound=BaseModel)
Handler = Callable[[Any], BaseModel]


@dataclass(frozen=True)
class OfflineHandler:
    """A registered handler and the input model it expects."""

    step: str
    input_type: type[BaseModel]
    handler: Handler


class OfflineStepError(RuntimeError):
    """The offline provider cannot run a step: unknown step or bad input."""


_REGISTRY: dict[str, OfflineHandler] = {}


def offline_step(
    step: str, input_type: type[InT]
) -> Callable[[Callable[[InT], BaseModel]], Callable[[InT], BaseModel]]:
    """Register ``handler(payload: input_type) -> OutputModel`` as the offline
    implementation of ``step``. Registering a different function for a step
    that already has one is an error (two rules for one step would make the
    offline run depend on import order)."""

    def register(func: Callable[[InT], BaseModel]) -> Callable[[InT], BaseModel]:
        existing = _REGISTRY.get(step)
        if existing is not None and _qualname(existing.handler) != _qualname(func):
            raise OfflineStepError(
                f"offline step {step!r} already registered by {_qualname(existing.handler)}"
            )
        _REGISTRY[step] = OfflineHandler(step=step, input_type=input_type, handler=func)
        return func

    return register


def _qualname(func: Callable[..., Any]) -> str:
    return f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', repr(func))}"


def registered_steps() -> list[str]:
    """Steps with an offline handler, after loading every offline rules module."""
    _load_rules()
    return sorted(_REGISTRY)


def handler_for(step: str) -> OfflineHandler:
    """The registered handler of ``step``; a clear error when there is none."""
    _load_rules()
    try:
        return _REGISTRY[step]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise OfflineStepError(
            f"no offline rule registered for step {step!r} (registered: {known})"
        ) from None


_LOADED = False


def _load_rules() -> None:
    """Import every offline rules module once per process."""
    global _LOADED
    if _LOADED:
        return
    # Imported lazily: the rules modules import this module for the decorator.
    import reliability_core.stand_in.rules as rules

    rules.load_all()
    _LOADED = True


class OfflineRulesProvider:
    """Runs a step's registered deterministic handler instead of a model."""

    name = OFFLINE_NAME
    family = OFFLINE_NAME

    async def complete(self, request: ModelRequest) -> ModelResponse:
        entry = handler_for(request.step)
        try:
            payload = entry.input_type.model_validate_json(request.input_json)
        except ValidationError as exc:
            raise OfflineStepError(
                f"offline step {request.step!r}: input does not match {entry.input_type.__name__}: {exc}"
            ) from exc
        output = entry.handler(payload)
        return ModelResponse(
            output_json=output.model_dump_json(),
            usage=Usage(provider=self.name, model=OFFLINE_NAME, step=request.step),
        )
