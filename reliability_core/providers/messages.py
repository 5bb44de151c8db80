"""The user turn every live provider sends: the step's input as JSON and, on
the one repair attempt, the rejected output and the validation error."""

from __future__ import annotations

import json

from reliability_core.providers.base import ModelRequest


def user_content(request: ModelRequest) -> str:
    """Input JSON, plus the repair instructions when this is a repair attempt."""
    return "\n\n".join(user_blocks(request))


def user_blocks(request: ModelRequest) -> list[str]:
    """The user turn in cache order: ``input_blocks``, then any repair instructions."""
    blocks = input_blocks(request)
    if request.validation_error is not None:
        blocks.append(
            "Your previous output was rejected.\n"
            f"Previous output:\n{request.previous_output or '(empty)'}\n"
            f"Validation error:\n{request.validation_error}\n"
            f"Return a corrected {request.output_schema_name} that satisfies the schema exactly."
        )
    return blocks


def input_blocks(request: ModelRequest) -> list[str]:
    """The step's input: one block, or two when it has shared fields (``shared_input_fields``):
    those fields first, then the rest. The two joined are one JSON object with the shared
    fields first, so a model reads the same input whether or not it is split; a vendor that
    needs cache breakpoints marks the end of the first block."""
    intro = f"Input ({request.step}) as JSON:\n"
    if request.shared_input_fields:
        data = json.loads(request.input_json)
        shared = {key: data[key] for key in request.shared_input_fields if key in data}
        rest = {key: value for key, value in data.items() if key not in shared}
        if shared and rest:
            return [intro + _compact(shared)[:-1] + ",", _compact(rest)[1:]]
    return [intro + request.input_json]


def _compact(value: dict[str, object]) -> str:
    # As pydantic writes JSON: no spaces, non-ASCII kept.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def schema_instruction(request: ModelRequest) -> str:
    """For endpoints without schema enforcement: the schema spelled out in the prompt."""
    return (
        f"Reply with one JSON object only, no prose, matching this JSON schema "
        f"({request.output_schema_name}):\n{json.dumps(request.output_schema, sort_keys=True)}"
    )
