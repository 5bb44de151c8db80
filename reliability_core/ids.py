"""Content-derived identifiers: the same content gives the same id on any
machine and in any run, so re-runs overwrite rather than duplicate."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from typing import Any

_SLUG_BAD = re.compile(r"[^a-z0-9]+")


def stable_id(kind: str, *parts: Any, length: int = 16) -> str:
    """``kind`` + a SHA-256 prefix of the JSON-encoded parts, e.g. ``clm_3f2a...``."""
    payload = json.dumps([kind, *parts], sort_keys=True, ensure_ascii=False, default=str)
    digest = hashlib.sha256(payload.encode("utf-8")).hexdigest()[:length]
    return f"{kind}_{digest}"


def sha256_hex(data: bytes | str) -> str:
    """SHA-256 of bytes (or UTF-8 text), hex encoded."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def slugify_subject_id(raw: str) -> str:
    """A Dagster-safe partition key: lowercase ASCII, digits and hyphens only
    (no commas, pipes or brackets, which Dagster's partition ranges reserve)."""
    ascii_text = unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode("ascii")
    slug = _SLUG_BAD.sub("-", ascii_text.lower()).strip("-")
    if not slug:
        raise ValueError(f"subject id {raw!r} has no usable characters")
    return slug[:64]
