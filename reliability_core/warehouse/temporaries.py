"""Where half-written files live, and how a crash's leftovers are cleared.

A file is written whole under a temporary name and then renamed (or linked) into
place, so no reader sees half of it. A process killed between the create and the
rename leaves the temporary behind. It must never sit where a reader looks: DuckDB's
``read_parquet('<table>/**/*.parquet')`` fails on a 0-byte ``.parquet`` file ("too
small to be a Parquet file"). So every temporary is made in one ``_tmp`` folder at the
top of the store it belongs to (the warehouse root, the model cache), on the same
filesystem as its final place (a rename or link never crosses filesystems), named
``<random>.tmp`` (no ``*.parquet`` or ``*.json`` glob matches it), and the next write
to that store deletes every temporary older than ``STALE_AFTER``.

Why an age and not "every temporary": several processes write one store at once
(concurrent partition runs), and a temporary younger than that may be another live
writer's file; no write takes anywhere near an hour.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from datetime import timedelta

import pyarrow.fs as pafs

TEMPORARY_DIR = "_tmp"
STALE_AFTER = timedelta(hours=1)


def temporary_path(root: str) -> str:
    """A fresh temporary file name in ``<root>/_tmp`` (the folder is not created here)."""
    return f"{root}/{TEMPORARY_DIR}/{uuid.uuid4().hex}.tmp"


def sweep_stale_temporaries(
    fs: pafs.FileSystem, directory: str, *, older_than: timedelta = STALE_AFTER, now: float | None = None
) -> list[str]:
    """Delete the files in ``directory`` last modified more than ``older_than`` ago
    (a crashed writer's leftovers); the paths deleted. A missing folder, or a file
    another sweeper deleted first, is not an error."""
    cutoff_ns = int(((time.time() if now is None else now) - older_than.total_seconds()) * 1e9)
    try:
        infos = fs.get_file_info(pafs.FileSelector(directory, allow_not_found=True))
    except FileNotFoundError:
        return []
    swept = []
    for info in infos:
        if info.type == pafs.FileType.File and info.mtime_ns is not None and info.mtime_ns < cutoff_ns:
            with contextlib.suppress(FileNotFoundError):
                fs.delete_file(info.path)
                swept.append(info.path)
    return swept
