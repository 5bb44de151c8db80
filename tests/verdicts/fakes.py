"""A scripted model gateway that records every call (fakes at the seam)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from reliability_core.providers.base import OFFLINE_NAME

OutputT = TypeVar("OutputT", bound=BaseModel)


class ScriptedGateway:
    """Returns ``responses[step](payload)`` validated as the requested output type."""

    def __init__(self, responses: dict[str, Callable[[Any], BaseModel | dict[str, Any]]]) -> None:
        self.responses = responses
        self.calls: list[tuple[str, BaseModel]] = []

    async def run(self, step: str, payload: BaseModel, output_type: type[OutputT]) -> OutputT:
        self.calls.append((step, payload))
        result = self.responses[step](payload)
        data = result.model_dump() if isinstance(result, BaseModel) else result
        return output_type.model_validate(data)

    def model_for(self, step: str) -> str:
        # A step with no script is an offline one: the live-only steering model check runs
        # only where a test scripts it.
        return f"fake-{step}" if step in self.responses else OFFLINE_NAME

    def steps_called(self) -> list[str]:
        return [step for step, _ in self.calls]
