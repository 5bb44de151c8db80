"""Reading the project's YAML files (registry, price table, source policy, corpus manifest,
answer key) with libyaml's C loader.

PyYAML's pure-Python ``SafeLoader`` is slow on files of any size: a warm demo spent about a
fifth of its CPU parsing the same few files again in every stage (issue 29). The C loader
(``yaml.CSafeLoader``, shipped in PyYAML's wheels) builds the same safe types; where PyYAML
was built without libyaml the pure-Python loader is used. Each caller keeps its own frozen,
validated result per file text (an ``lru_cache`` keyed by the text), so the same text is
parsed once per process and a changed file is read anew.
"""

from __future__ import annotations

import io
from typing import Any

import yaml

SAFE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str, name: str | None = None) -> Any:
    """``yaml.safe_load`` through the C loader; ``name`` labels error marks (the file's path)."""
    stream = io.StringIO(text)
    if name is not None:
        stream.name = name  # type: ignore[misc]  # read by both loaders for their marks
    return yaml.load(stream, Loader=SAFE_LOADER)  # a safe loader (no arbitrary objects)
