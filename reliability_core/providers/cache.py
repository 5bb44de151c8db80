"""Content-addressed, durable response cache for model and search calls.

The key is the SHA-256 of everything that decides the answer (provider, model,
template hash, input JSON, output schema, parameters), so a re-run with
unchanged inputs is served from disk and makes no call. One JSON file per key,
written to a temporary file and renamed into place, so concurrent processes
never see a half-written entry (two writers of one key write the same content).
``bypass=True`` skips reads (and still writes), for re-run stability
measurements that need fresh calls.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from reliability_core.ids import sha256_hex


def cache_key(**parts: Any) -> str:
    """SHA-256 over the canonical JSON of the named parts."""
    canonical = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return sha256_hex(canonical)


class ResponseCache:
    """A directory of ``<key[:2]>/<key>.json`` entries."""

    def __init__(self, directory: Path | str, *, bypass: bool = False) -> None:
        self.directory = Path(directory)
        self.bypass = bypass
        self.hits = 0
        self.misses = 0

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored value for ``key``, or ``None`` (always ``None`` when bypassing).
        A corrupt entry counts as a miss and is overwritten by the next ``put``."""
        if self.bypass:
            self.misses += 1
            return None
        path = self._path(key)
        try:
            with path.open(encoding="utf-8") as handle:
                value = json.load(handle)
        except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
            self.misses += 1
            return None
        if not isinstance(value, dict):
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, key: str, value: dict[str, Any]) -> None:
        """Store ``value`` atomically under ``key``. The rename keeps every entry
        whole; there is no fsync, so a power loss may drop the newest entries,
        which are then asked for again (an fsync per entry cost ~1 ms each and
        blocked the event loop ~1 s per subject)."""
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{key[:8]}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(value, handle, ensure_ascii=False, sort_keys=True)
            os.replace(tmp_name, path)
        except BaseException:
            Path(tmp_name).unlink(missing_ok=True)
            raise
