"""The classifier's flagged windows of a text, kept on disk per text (issue 29).

Scoring every sentence and pair of sentences of an evidence page is the screen's cost (about
3 ms a page, most of a covered subject's steering time), and a refresh or a re-run reads the
same pages again. What the classifier flags in a text depends only on the text, the
committed artefact and the code that turns text into features; so the flagged windows are
kept in the project's content-addressed cache (``providers.cache.ResponseCache``: one JSON
file per key, written atomically, a damaged entry a miss), keyed by the SHA-256 of the text
and of that identity (``screen_identity``: the artefact's bytes, the screen's source files
and its concept lexicon). A changed artefact, feature code or lexicon makes new keys; old
entries are only never read again.

Only spans and probabilities are written, never the text: an evidence page may hold words
about someone's private life, and nothing here may keep them ([M] step 4).

The cache is chosen once per process by the code that wires a run's caches
(``wiring.build_gateway``, beside the response cache, with its bypass); with none chosen
(tests, the training tools) nothing is read or written. A cache that cannot be written only
means scoring again: the cache can save time, never change a finding.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from reliability_core.providers.cache import ResponseCache, cache_key

_PACKAGE = Path(__file__).resolve().parent
_FORMAT = 1
_SCREEN_SUFFIXES = (".py", ".json", ".txt", ".yaml")

_cache: ResponseCache | None = None


def use_cache(cache: ResponseCache | None) -> None:
    """Keep flagged windows in ``cache`` from now on in this process (None: nowhere)."""
    global _cache
    _cache = cache


@functools.lru_cache(maxsize=4)
def screen_identity(artefacts: tuple[Path, ...]) -> str:
    """What a cached answer must have been computed with: the bytes of the screen's artefacts
    (its first model's and any second's, ``model.member_paths``), every source file of the
    screen package and its concept lexicon files."""
    digest = hashlib.sha256(f"format {_FORMAT}\0".encode())
    for artefact in artefacts:
        digest.update(hashlib.sha256(artefact.read_bytes()).digest())
    for path in sorted(_PACKAGE.rglob("*")):
        if not path.is_file() or path.suffix not in _SCREEN_SUFFIXES or "__pycache__" in path.parts:
            continue
        if path.name.endswith("_metrics.json") or path.name == "product_figure.json":
            continue  # published figures, not the screen
        digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _key(text: str, identity: str) -> str:
    text_hash = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return cache_key(kind="steering_screen_windows", screen=identity, text=text_hash)


def load(text: str, identity: str) -> list[tuple[int, int, float]] | None:
    """The flagged windows stored for ``text`` (start, end, probability), or None."""
    if _cache is None:
        return None
    value = _cache.get(_key(text, identity))
    try:
        return None if value is None else [(int(s), int(e), float(p)) for s, e, p in value["windows"]]
    except (KeyError, TypeError, ValueError):
        return None


def store(text: str, identity: str, rows: list[tuple[int, int, float]]) -> None:
    if _cache is None:
        return
    try:
        _cache.put(_key(text, identity), {"windows": [[s, e, p] for s, e, p in rows]})
    except OSError:
        return
