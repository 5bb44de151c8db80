"""Content-addressed, durable response cache for model and search calls.

The key is the SHA-256 of everything that decides the answer (provider, model,
method version, template hash, input JSON, output schema, parameters), so a
re-run with unchanged inputs is served from disk and makes no call. One JSON
file per key, written to a temporary file and renamed into place, so concurrent
processes never see a half-written entry (two writers of one key write the same
content). ``bypass=True`` skips reads (and still writes): the stability check
uses it on a cache of its own (``reliability_core.validation.stability.stability_cache_dir``),
never on the one a published report's answers are in.

Every entry has a lifetime tied to the method (``search_result_reusable``): a
model answer lives as long as its exact input, model and method version (all in
its key); a candidate search only inside the 90-day reuse window; an evidence or
identity search never outlives the report it was made for, and a refresh
searches afresh. Nothing here ever holds private-life text: search snippets and
model answers are masked before they are written (``mask_private_life``).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pyarrow.fs as pafs

from reliability_core.constants import REPORT_SERVED_DAYS
from reliability_core.ids import sha256_hex
from reliability_core.lifetimes import CANDIDATES_PURPOSE, candidate_list_is_reusable
from reliability_core.text.privacy import mask_private_life, mask_sentences_holding
from reliability_core.warehouse.temporaries import TEMPORARY_DIR, sweep_stale_temporaries, temporary_path

_LOCAL = pafs.LocalFileSystem()


def cache_key(**parts: Any) -> str:
    """SHA-256 over the canonical JSON of the named parts."""
    canonical = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return sha256_hex(canonical)


def search_result_reusable(
    purpose: str, retrieved_at: datetime, now: datetime, fresh_since: datetime | None = None
) -> bool:
    """May a stored search result set be served instead of searching again?

    - Candidate searches: [M] step 2 "The list is stored and reused for 90 days, so
      repeat reports draw on the same pool" — only inside that window
      (``candidate_list_is_reusable``: day 89 reuses, day 90 searches again).
    - Every other search (identity, evidence): [M] step 9 the report "is served
      for 90 days. After that ... a refresh runs" — research is never older than
      the report it serves, and a refresh searches afresh: nothing retrieved
      before ``fresh_since`` (the refresh's start) is reused; what the refresh
      itself retrieved is (a retried step repeats none of its searches).
    """
    if purpose == CANDIDATES_PURPOSE or purpose.startswith(f"{CANDIDATES_PURPOSE}:"):
        return candidate_list_is_reusable(retrieved_at, now)
    if fresh_since is not None and retrieved_at < fresh_since:
        return False
    age = now - retrieved_at
    return timedelta(0) <= age < timedelta(days=REPORT_SERVED_DAYS)


def masked_payload(value: Any, withheld: Sequence[str] = ()) -> Any:
    """``value`` with every string masked by ``mask_private_life``, and every sentence
    holding one of the ``withheld`` statements (found private by the classifier or the
    rule: ``mask_sentences_holding``) masked too, including strings inside JSON held in
    a string (a model answer is kept as its JSON text), so the cache never holds a
    sentence about anyone's private life ([M] step 4 "dropped before anything is
    stored"). Strings without a space (ids, URLs, labels) are left alone."""
    if isinstance(value, dict):
        return {k: masked_payload(v, withheld) for k, v in value.items()}
    if isinstance(value, list):
        return [masked_payload(v, withheld) for v in value]
    # Prose only: a string without a space is an id, a URL, a label or a number.
    if isinstance(value, str) and " " in value:
        masked = mask_sentences_holding(mask_private_life(value), withheld)
        if masked == value:
            return value
        if value.lstrip()[:1] in ("{", "["):
            try:
                return json.dumps(masked_payload(json.loads(value), withheld), ensure_ascii=False)
            except json.JSONDecodeError:
                pass
        return masked
    return value


class ResponseCache:
    """A directory of ``<key[:2]>/<key>.json`` entries."""

    def __init__(self, directory: Path | str, *, bypass: bool = False) -> None:
        self.directory = Path(directory)
        self.bypass = bypass
        self.hits = 0
        self.misses = 0
        self._swept: set[Path] = set()  # entry folders already cleared of an older version's temporaries

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

    def withhold(self, key: str, quotes: Sequence[str]) -> bool:
        """Mask, in the entry under ``key``, every sentence holding one of ``quotes``
        (statements found private after the answer was cached). True when it changed."""
        path = self._path(key)
        try:
            with path.open(encoding="utf-8") as handle:
                value = json.load(handle)
        except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
            return False
        if not isinstance(value, dict) or masked_payload(value, quotes) == value:
            return False
        self.put(key, value, withheld=quotes)
        return True

    def put(self, key: str, value: dict[str, Any], *, withheld: Sequence[str] = ()) -> None:
        """Store ``value`` atomically under ``key``, private-life sentences masked
        (``masked_payload``). The rename keeps every entry whole; there is no fsync,
        so a power loss may drop the newest entries, which are then asked for again
        (an fsync per entry cost ~1 ms each and blocked the event loop ~1 s per subject)."""
        value = masked_payload(value, withheld)
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        self._sweep_temporaries(path.parent)
        # Written in the cache's own _tmp folder (same filesystem: the rename is atomic), so
        # a crash never leaves a half entry among the entries (``temporaries``).
        tmp_name = temporary_path(str(self.directory))
        try:
            with open(tmp_name, "x", encoding="utf-8") as handle:
                json.dump(value, handle, ensure_ascii=False, sort_keys=True)
            os.replace(tmp_name, path)
        except BaseException:
            Path(tmp_name).unlink(missing_ok=True)
            raise

    def _sweep_temporaries(self, entry_dir: Path) -> None:
        """Stale temporaries of crashed writers in ``_tmp`` (``sweep_stale_temporaries``), and
        any ``.<key8>.<random>.tmp`` an older version left beside the entries in ``entry_dir``."""
        scratch = self.directory / TEMPORARY_DIR
        scratch.mkdir(parents=True, exist_ok=True)
        sweep_stale_temporaries(_LOCAL, str(scratch))
        if entry_dir not in self._swept:  # once per folder: a folder holds hundreds of entries
            self._swept.add(entry_dir)
            for leftover in entry_dir.glob(".*.tmp"):
                with contextlib.suppress(FileNotFoundError):
                    leftover.unlink()
