"""Append-only ledger for records the method says are never rewritten:
resolution criteria ([M] step 6 "never rewritten afterwards") and page
snapshots ([V] "so anyone can see exactly what was checked").

One JSON file per record id: ``<root>/_ledger/<table>/subject=<s>/<id>.json``.
Writing the identical body again is a no-op; writing a different body under
an existing id raises ``LedgerConflictError``. The create is atomic and
exclusive, so two concurrent writers of one id cannot both win: on a local
filesystem ``os.link`` fails if the name exists; on S3 a PUT with
``If-None-Match: *`` fails with 412 if the key exists
(``reliability_core.warehouse.conditional``). Other object stores (``gs://``)
have no exclusive create through ``pyarrow.fs``; there the ledger checks then
writes and a deployment must run one writer per subject partition (see
docs/DEPLOY.md).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

import pyarrow.fs as pafs
from pydantic import BaseModel

from reliability_core.warehouse.conditional import S3ExclusiveWriter
from reliability_core.warehouse.store import Warehouse
from reliability_core.warehouse.temporaries import TEMPORARY_DIR, sweep_stale_temporaries, temporary_path

ModelT = TypeVar("ModelT", bound=BaseModel)


class LedgerConflictError(Exception):
    """A different body was offered for an id already in the ledger."""

    def __init__(self, table: str, record_id: str) -> None:
        super().__init__(
            f"ledger {table!r} already holds a different record with id {record_id!r}; "
            "ledger records are never rewritten"
        )
        self.table = table
        self.record_id = record_id


@dataclass(frozen=True)
class AppendResult:
    written: int
    unchanged: int


class Ledger:
    """Append-only, id-keyed record store beside the warehouse."""

    def __init__(self, warehouse: Warehouse) -> None:
        self.warehouse = warehouse
        self.fs = warehouse.fs
        self._s3 = S3ExclusiveWriter(warehouse.root) if isinstance(self.fs, pafs.S3FileSystem) else None

    def _dir(self, table: str, subject_id: str) -> str:
        return f"{self.warehouse.base}/_ledger/{table}/subject={subject_id}"

    def _path(self, table: str, subject_id: str, record_id: str) -> str:
        if "/" in record_id or record_id.startswith("."):
            raise ValueError(f"unsafe ledger id {record_id!r}")
        return f"{self._dir(table, subject_id)}/{record_id}.json"

    def get(self, table: str, subject_id: str, record_id: str, model: type[ModelT]) -> ModelT | None:
        path = self._path(table, subject_id, record_id)
        if self.fs.get_file_info(path).type != pafs.FileType.File:
            return None
        with self.fs.open_input_stream(path) as source:
            return model.model_validate_json(source.read())

    def read_all(self, table: str, subject_id: str, model: type[ModelT]) -> list[ModelT]:
        selector = pafs.FileSelector(self._dir(table, subject_id), allow_not_found=True)
        records = []
        for info in sorted(self.fs.get_file_info(selector), key=lambda i: i.base_name):
            if info.type == pafs.FileType.File and info.base_name.endswith(".json"):
                with self.fs.open_input_stream(info.path) as source:
                    records.append(model.model_validate_json(source.read()))
        return records

    def append(self, table: str, subject_id: str, records: Sequence[tuple[str, BaseModel]]) -> AppendResult:
        """Append ``(id, record)`` pairs. Identical bodies are no-ops; a
        different body under an existing id raises ``LedgerConflictError``
        (after the earlier pairs of this call have been written)."""
        written = unchanged = 0
        directory = self._dir(table, subject_id)
        if self.warehouse.local:
            self.fs.create_dir(directory, recursive=True)
            # The body is written beside the warehouse's other temporaries (same filesystem,
            # so the link below is atomic), never in the ledger folder itself.
            self.fs.create_dir(f"{self.warehouse.base}/{TEMPORARY_DIR}", recursive=True)
            sweep_stale_temporaries(self.fs, f"{self.warehouse.base}/{TEMPORARY_DIR}")
            self._sweep_legacy_temporaries(directory)
        for record_id, record in records:
            body = record.model_dump_json().encode("utf-8")
            path = self._path(table, subject_id, record_id)
            if self._create_exclusive(path, body):
                written += 1
                continue
            with self.fs.open_input_stream(path) as source:
                existing = source.read()
            if existing != body:
                raise LedgerConflictError(table, record_id)
            unchanged += 1
        return AppendResult(written=written, unchanged=unchanged)

    def _sweep_legacy_temporaries(self, directory: str) -> None:
        """Delete ``<id>.json.tmp-<hex>`` files an older version wrote in the ledger folder
        itself: nothing writes there any more, so any such file is a crash's leftover."""
        selector = pafs.FileSelector(directory, allow_not_found=True)
        for info in self.fs.get_file_info(selector):
            if ".json.tmp-" in info.base_name:
                with contextlib.suppress(FileNotFoundError):
                    self.fs.delete_file(info.path)

    def _create_exclusive(self, path: str, body: bytes) -> bool:
        """Write ``body`` at ``path`` only if nothing is there; True if written."""
        if isinstance(self.fs, pafs.LocalFileSystem):
            temporary = temporary_path(self.warehouse.base)
            with open(temporary, "wb") as handle:
                handle.write(body)
                handle.flush()
                os.fsync(handle.fileno())
            try:
                os.link(temporary, path)  # atomic; fails if the name exists
                return True
            except FileExistsError:
                return False
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temporary)
        if self._s3 is not None:
            return self._s3.create(path, body)
        # No exclusive create on this object store: check then write, safe only
        # with one writer per subject partition (see docs/DEPLOY.md).
        if self.fs.get_file_info(path).type == pafs.FileType.File:
            return False
        with self.fs.open_output_stream(path) as sink:
            sink.write(body)
        return True
