"""The classifier's flagged windows of a text, kept on disk per text (issue 29).

Scoring every sentence and pair of sentences of an evidence page is the screen's cost (about
3 ms a page, most of a covered subject's steering time), and a refresh or a re-run reads the
same pages again. What the classifier flags in a text depends only on the text, the
committed artefact and the code that turns text into features; so the flagged windows are
kept in one small JSON file per text, keyed by the SHA-256 of the text and of that identity
(``screen_identity``: the artefact's bytes, the screen's source files and its concept
lexicon). A changed artefact, feature code or lexicon makes new keys; old files are only
never read again.

Only spans and probabilities are written, never the text: an evidence page may hold words
about someone's private life, and nothing here may keep them ([M] step 4).

The folder is chosen once per process by the code that wires a run's caches
(``wiring.build_gateway``, beside the response cache); with none chosen (tests, the
training tools) nothing is read or written. Any file that cannot be read is a miss, and a
folder that cannot be written only means scoring again: the cache can save time, never
change a finding.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_FORMAT = 1

_folder: Path | None = None


def use_folder(folder: Path | None) -> None:
    """Keep flagged windows under ``folder`` from now on in this process (None: nowhere)."""
    global _folder
    _folder = folder


def current_folder() -> Path | None:
    return _folder


@functools.lru_cache(maxsize=4)
def screen_identity(artefact: Path) -> str:
    """What a cached answer must have been computed with: the artefact's bytes, every source
    file of the screen package and its concept lexicon files."""
    digest = hashlib.sha256(f"format {_FORMAT}\0".encode())
    digest.update(hashlib.sha256(artefact.read_bytes()).digest())
    for path in sorted(_PACKAGE.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".json", ".txt", ".yaml") and "__pycache__" not in path.parts:
            if path.name.endswith("_metrics.json") or path.name == "product_figure.json":
                continue  # published figures, not the screen
            digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _path(folder: Path, text: str, identity: str) -> Path:
    key = hashlib.sha256(identity.encode() + b"\0" + text.encode("utf-8", "surrogatepass")).hexdigest()
    return folder / key[:2] / f"{key}.json"


def load(text: str, identity: str) -> list[tuple[int, int, float]] | None:
    """The flagged windows stored for ``text`` (start, end, probability), or None."""
    if _folder is None:
        return None
    try:
        rows = json.loads(_path(_folder, text, identity).read_text(encoding="utf-8"))
        return [(int(start), int(end), float(p)) for start, end, p in rows]
    except (OSError, ValueError, TypeError):
        return None


def store(text: str, identity: str, rows: list[tuple[int, int, float]]) -> None:
    """Write atomically (a reader sees no file or the whole file)."""
    if _folder is None:
        return
    path = _path(_folder, text, identity)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump([[start, end, p] for start, end, p in rows], out)
        os.replace(temporary, path)
    except OSError:
        return
