"""Output schemas as the vendors' structured-output modes take them, and the
checks the gateway applies to what comes back.

``strict_json_schema`` is the strict subset OpenAI's ``strict: true`` needs
(and Anthropic's ``output_config.format`` accepts after the SDK's
``transform_schema``): every object closed, every property required.
``missing_fields`` finds the properties a returned object left out, so that a
record cut short whose missing fields have defaults never passes as complete.
``json_text`` takes the one JSON object out of a reply that wrapped it in prose
or a code fence.
"""

from __future__ import annotations

import copy
import json
from typing import Any


def strict_json_schema(schema: dict[str, Any]) -> dict[str, Any] | None:
    """The schema in OpenAI's strict subset, or ``None`` when it cannot be
    (an object with free-form ``additionalProperties``, e.g. a ``dict[str, X]`` field).

    Every object gets ``additionalProperties: false`` and lists all its
    properties as required; defaults and titles are dropped; ``$ref`` stands alone.
    """
    result = copy.deepcopy(schema)
    try:
        _make_strict(result)
    except _NotStrictable:
        return None
    return result


class _NotStrictable(Exception):
    pass


def _make_strict(node: Any) -> None:
    """Make one schema node (and everything under it) strict, in place."""
    if not isinstance(node, dict):
        return
    if "$ref" in node:
        for key in [k for k in node if k != "$ref"]:
            del node[key]
        return
    node.pop("default", None)
    node.pop("examples", None)
    if isinstance(node.get("title"), str):
        del node["title"]
    if node.get("type") == "object" or "properties" in node:
        extra = node.get("additionalProperties")
        if isinstance(extra, dict) or extra is True:
            raise _NotStrictable
        properties = node.get("properties", {})
        node["additionalProperties"] = False
        node["required"] = list(properties)
        for value in properties.values():
            _make_strict(value)
    for container in ("$defs", "definitions"):
        for value in node.get(container, {}).values():
            _make_strict(value)
    if isinstance(node.get("items"), dict):
        _make_strict(node["items"])
    for combinator in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for value in node.get(combinator, []):
            _make_strict(value)


def missing_fields(data: Any, schema: dict[str, Any]) -> list[str]:
    """Dotted paths of the object properties ``schema`` declares that ``data`` lacks.

    Every declared property counts, required or not: a live model is sent the
    strict schema (all properties required), so an omission means the record
    was cut short or the model strayed, and a pydantic default must not fill it.
    """
    defs = {**schema.get("$defs", {}), **schema.get("definitions", {})}
    out: list[str] = []
    _walk_missing(data, schema, defs, "", out, depth=0)
    return out


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.rsplit("/", 1)[-1] in defs:
        resolved = defs[ref.rsplit("/", 1)[-1]]
        return resolved if isinstance(resolved, dict) else node
    return node


def _walk_missing(
    data: Any, node: Any, defs: dict[str, Any], path: str, out: list[str], *, depth: int
) -> None:
    if not isinstance(node, dict) or depth > 32:
        return
    node = _resolve(node, defs)
    variants = node.get("anyOf") or node.get("oneOf")
    if isinstance(variants, list):
        # The variant that fits best: the one with the fewest missing properties.
        best: list[str] | None = None
        for variant in variants:
            found: list[str] = []
            _walk_missing(data, variant, defs, path, found, depth=depth + 1)
            if best is None or len(found) < len(best):
                best = found
        out.extend(best or [])
        return
    properties = node.get("properties")
    if isinstance(properties, dict) and isinstance(data, dict):
        for name, sub in properties.items():
            where = f"{path}.{name}" if path else name
            if name not in data:
                out.append(where)
            else:
                _walk_missing(data[name], sub, defs, where, out, depth=depth + 1)
    items = node.get("items")
    if isinstance(items, dict) and isinstance(data, list):
        for index, value in enumerate(data):
            _walk_missing(value, items, defs, f"{path}[{index}]", out, depth=depth + 1)


def json_text(text: str) -> str:
    """The JSON object in ``text``: the text itself when it parses, else the object
    that starts at the first ``{`` (of the text, or of a Markdown code fence) once
    the prose around it is stripped ("Here is the output: ```json {...} ``` Let me
    know..."). Only an outermost object is taken, never one nested in a cut-off
    answer; text without one is returned unchanged, so validation reports it."""
    stripped = text.strip()
    try:
        json.loads(stripped)
        return stripped
    except ValueError:
        pass
    decoder = json.JSONDecoder()
    fence = stripped.find("```")
    starts = {stripped.find("{"), stripped.find("{", fence) if fence != -1 else -1}
    for start in sorted(s for s in starts if s != -1):
        try:
            value, end = decoder.raw_decode(stripped, start)
        except ValueError:
            continue
        if isinstance(value, dict):
            return stripped[start:end]
    return stripped
