"""Reading the project's YAML files (registry, price table, source policy, answer key).

PyYAML's pure-Python ``SafeLoader`` is slow on files of any size: a warm demo spent about a
fifth of its CPU parsing the same few files again in every stage (issue 29). Two remedies,
both behaviour-preserving:

- the C loader (``yaml.CSafeLoader``, libyaml, shipped in PyYAML's wheels) builds the same
  safe types as ``SafeLoader``; where PyYAML was built without libyaml the pure-Python loader
  is used;
- a file's parse is kept by its text (``parsed_text``): the same text gives the same result
  without parsing again, and a changed file (``subjects add``) is parsed anew, whatever its
  modification time says.

Callers validate the parse into frozen pydantic models; ``parsed_text`` returns a deep copy,
so a caller that edits what it got cannot change what the next caller reads.
"""

from __future__ import annotations

import copy
import functools
import io
from typing import Any

import yaml

SAFE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str, name: str | None = None) -> Any:
    """``yaml.safe_load`` through the C loader; ``name`` labels error marks (the file's path)."""
    stream = io.StringIO(text)
    if name is not None:
        stream.name = name  # type: ignore[misc]  # read by both loaders for their marks
    return yaml.load(stream, Loader=SAFE_LOADER)


@functools.lru_cache(maxsize=32)
def _parsed(text: str, name: str | None) -> Any:
    return safe_load(text, name)


def parsed_text(text: str, name: str | None = None) -> Any:
    """``safe_load(text)``, parsed once per distinct text in this process (a copy each call).
    Errors are not kept: a malformed text raises ``yaml.YAMLError`` every time."""
    return copy.deepcopy(_parsed(text, name))
