"""The user turn every live provider sends: the step's input as JSON and, on
the one repair attempt, the rejected output and the validation error."""

from __future__ import annotations

import json

from reliability_core.providers.base import ModelRequest


def user_content(request: ModelRequest) -> str:
    """Input JSON, plus the repair instructions when this is a repair attempt."""
    parts = [f"Input ({request.step}) as JSON:\n{request.input_json}"]
    if request.validation_error is not None:
        parts.append(
            "Your previous output was rejected.\n"
            f"Previous output:\n{request.previous_output or '(empty)'}\n"
            f"Validation error:\n{request.validation_error}\n"
            f"Return a corrected {request.output_schema_name} that satisfies the schema exactly."
        )
    return "\n\n".join(parts)


def schema_instruction(request: ModelRequest) -> str:
    """For endpoints without schema enforcement: the schema spelled out in the prompt."""
    return (
        f"Reply with one JSON object only, no prose, matching this JSON schema "
        f"({request.output_schema_name}):\n{json.dumps(request.output_schema, sort_keys=True)}"
    )
