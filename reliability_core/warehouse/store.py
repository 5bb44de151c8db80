"""Partitioned Parquet tables over ``pyarrow.fs``.

Layout (Hive): ``<root>/<table>/subject=<subject_id>/part.parquet``. Each
write replaces one partition atomically (on a local disk: write a temporary
file, then rename; on object storage one PUT, which S3 makes visible whole or
not at all), so concurrent runs of different subjects never touch the same
file, and a reader sees either the old partition or the new one, never half of
one. On object storage a partition is read with one GET of the whole object
(a Parquet reader's several ranged GETs could straddle a rewrite). This
is why we do not route writes through a shared DuckDB file: DuckDB takes a
process-wide write lock, and Dagster's DuckDB IO manager fails with lock
errors under concurrent partition runs.

Each row holds the record's top-level fields as columns (so DuckDB can filter
and aggregate them) plus ``_json``, the whole record, so reading back gives
exactly the model that was written. Every partition of a table has the table's
one schema (``schema``: derived from its record model), an empty one included.

A temporary file never sits in a table's folder (``temporaries``: a crash's leftover
there would break a plain DuckDB glob over the table), and one corrupt partition file
stays local: reading it raises ``CorruptPartitionError`` naming the file, a read over
every subject (``connect``, ``read_table(skip_corrupt=True)``) leaves it out, and a writer
that rewrites a partition from its own contents sets the corrupt file aside
(``read_or_set_aside``) so the next run replaces it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import uuid
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import duckdb
import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq
from pydantic import BaseModel

from reliability_core.warehouse.schema import (
    JSON_COLUMN,
    arrow_schema,
    records_to_arrow,
    schema_differences,
)
from reliability_core.warehouse.temporaries import TEMPORARY_DIR, sweep_stale_temporaries, temporary_path

if TYPE_CHECKING:
    import pandas as pd

ModelT = TypeVar("ModelT", bound=BaseModel)

_PART_FILE = "part.parquet"
# A whole-object read that raced a rewrite on object storage (the size came
# from one version, the bytes from the next) is read again, this many times.
_READ_ATTEMPTS = 3
# What pyarrow raises on a file that is not whole Parquet: no magic bytes, a footer that
# does not deserialize (ArrowInvalid), a page that does not decompress (OSError).
_UNREADABLE = (pa.ArrowException, OSError)
# Where a corrupt partition file is moved by ``read_or_set_aside``: kept for whoever
# investigates, under a name no ``*.parquet`` glob and no table listing reaches.
QUARANTINE_DIR = "_quarantine"
# The temporary name older versions wrote inside the partition folder itself.
_LEGACY_TEMPORARY_PREFIX = ".tmp-"

log = logging.getLogger(__name__)


class UndeclaredTableError(Exception):
    """An empty partition was written to a table whose record model nobody named: its
    schema cannot be known, and a partition of another schema would break every reader."""


class PartitionSchemaError(Exception):
    """A partition's column holds values of another type than the same column in the
    table's other partitions (a partition written before the table had one schema)."""

    def __init__(self, table: str, path: str, differences: list[str]) -> None:
        super().__init__(
            f"the {table!r} partition {path} has another schema than the table's other partitions "
            f"({'; '.join(differences)}); `reliability warehouse migrate` rewrites old partitions in "
            "their table's schema from each record's _json (nothing is lost)"
        )
        self.table = table
        self.path = path
        self.differences = differences


class CorruptPartitionError(Exception):
    """A partition file exists but is not readable Parquet (truncated, overwritten, bit rot)."""

    def __init__(self, table: str, subject_id: str, path: str, reason: str) -> None:
        super().__init__(
            f"the {table!r} partition of subject {subject_id!r} is corrupt: {path} is not a readable "
            f"Parquet file ({reason}); the next run that writes this partition replaces it"
        )
        self.table = table
        self.subject_id = subject_id
        self.path = path
        self.reason = reason


def open_filesystem(root: str) -> tuple[pafs.FileSystem, str]:
    """A ``pyarrow.fs`` filesystem and base path for a local path or a URL
    (``s3://bucket/prefix``, ``gs://...``, ``file:///...``)."""
    if "://" in root:
        fs, path = pafs.FileSystem.from_uri(root)
        return fs, path.rstrip("/")
    return pafs.LocalFileSystem(), os.path.abspath(root)


def records_to_table(
    records: Sequence[BaseModel], subject_id: str, model: type[BaseModel] | None = None
) -> pa.Table:
    """Arrow table of records in their table's schema (``schema.arrow_schema`` of ``model``,
    else of the records' own class): scalar columns, nested values as JSON text, ``_json``."""
    record_model = model or (type(records[0]) if records else None)
    if record_model is None:
        raise UndeclaredTableError("an empty partition needs its table's record model to have its schema")
    return records_to_arrow(records, subject_id, record_model)


def read_columns(source: Any, columns: list[str] | None) -> pa.Table:
    """A Parquet file's ``columns`` (all when None), read through ``source``. A column the
    file lacks (a field added to its model after the partition was written; every such
    field has a default) comes back as nulls, so readers of new columns work on old
    partitions until they are rewritten."""
    if columns is None:
        return pq.read_table(source)
    names = set(pq.read_schema(source).names)
    table = pq.read_table(source, columns=[c for c in columns if c in names])
    for column in columns:
        if column not in names:
            table = table.append_column(column, pa.nulls(table.num_rows))
    return table.select(columns)


def read_partition_file(
    source: Any, columns: list[str] | None, *, table: str, subject_id: str, path: str
) -> pa.Table:
    """``read_columns`` of one partition's file; a file that is not readable Parquet
    raises ``CorruptPartitionError`` naming it."""
    try:
        return read_columns(source, columns)
    except _UNREADABLE as exc:
        raise CorruptPartitionError(table, subject_id, path, str(exc)) from exc


class Warehouse:
    """Per-subject Parquet partitions under a root that may be local or an object store."""

    def __init__(self, root: str, models: Mapping[str, type[BaseModel]] | None = None) -> None:
        """``models``: each table's record model (``reliability_core.records.TABLE_MODELS``
        for the pipeline's tables), which fixes the table's schema; a writer may also name
        the model itself (``write(..., model=)``)."""
        self.root = root
        self.fs, self.base = open_filesystem(root)
        self.local = isinstance(self.fs, pafs.LocalFileSystem)
        self.models: dict[str, type[BaseModel]] = dict(models or {})

    # --- paths -------------------------------------------------------------
    def table_dir(self, table: str) -> str:
        return f"{self.base}/{table}"

    def partition_dir(self, table: str, subject_id: str) -> str:
        return f"{self.base}/{table}/subject={subject_id}"

    def partition_path(self, table: str, subject_id: str) -> str:
        return f"{self.partition_dir(table, subject_id)}/{_PART_FILE}"

    # --- writes --------------------------------------------------------------
    def write(
        self,
        table: str,
        subject_id: str,
        records: Sequence[BaseModel],
        model: type[BaseModel] | None = None,
    ) -> str:
        """Replace the partition of ``subject_id`` in ``table`` with ``records``, atomically,
        in the table's one schema (of ``model``, else the table's declared model, else the
        records' class); no records write an empty partition with that schema, so an empty
        write to a table without a known model raises ``UndeclaredTableError``."""
        arrow_table = records_to_table(records, subject_id, model or self.models.get(table))
        directory = self.partition_dir(table, subject_id)
        final = f"{directory}/{_PART_FILE}"
        if not self.local:
            # One PUT replaces the object whole; a temporary name and a "move"
            # (copy then delete on S3) would double the traffic for nothing.
            sink_buffer = pa.BufferOutputStream()
            pq.write_table(arrow_table, sink_buffer)
            with self.fs.open_output_stream(final) as sink:
                sink.write(sink_buffer.getvalue())
            return final
        self.fs.create_dir(directory, recursive=True)
        self.fs.create_dir(f"{self.base}/{TEMPORARY_DIR}", recursive=True)
        self._sweep_temporaries(directory)
        temporary = temporary_path(self.base)
        try:
            with self.fs.open_output_stream(temporary) as sink:
                pq.write_table(arrow_table, sink)
            self.fs.move(temporary, final)
        finally:
            info = self.fs.get_file_info(temporary)
            if info.type != pafs.FileType.NotFound:
                self.fs.delete_file(temporary)
        return final

    def _sweep_temporaries(self, directory: str) -> None:
        """Clear what crashed writers left: stale files in ``_tmp``, and any temporary an
        older version left in this partition's folder (nothing writes there any more, so
        every such file is a leftover, whatever its age)."""
        sweep_stale_temporaries(self.fs, f"{self.base}/{TEMPORARY_DIR}")
        for info in self._list(directory):
            if info.base_name.startswith(_LEGACY_TEMPORARY_PREFIX):
                with contextlib.suppress(FileNotFoundError):
                    self.fs.delete_file(info.path)

    # --- reads ---------------------------------------------------------------
    def exists(self, table: str, subject_id: str) -> bool:
        info = self.fs.get_file_info(self.partition_path(table, subject_id))
        return bool(info.type == pafs.FileType.File)

    def read_arrow(self, table: str, subject_id: str, columns: list[str] | None = None) -> pa.Table | None:
        """One partition as an Arrow table, or None if it was never written.

        The file is opened once and read through that one handle: a writer's
        atomic rename swaps the name to a new file, but this handle keeps
        reading the old one, so the result is always one whole partition.
        (Opening by path twice, as a Parquet reader that re-opens for metadata
        and data would, can mix two versions under a concurrent rewrite.)"""
        path = self.partition_path(table, subject_id)
        if not self.local:
            return self._read_object(table, subject_id, path, columns)
        try:
            source = self.fs.open_input_file(path)
        except (FileNotFoundError, OSError):
            return None
        with source:
            return read_partition_file(source, columns, table=table, subject_id=subject_id, path=path)

    def _read_object(
        self, table: str, subject_id: str, path: str, columns: list[str] | None
    ) -> pa.Table | None:
        """One partition from object storage: the whole object in one GET, parsed from memory."""
        for attempt in range(_READ_ATTEMPTS):
            try:
                with self.fs.open_input_file(path) as source:
                    data = source.read()
            except (FileNotFoundError, OSError):
                return None
            try:
                return read_partition_file(
                    pa.BufferReader(data), columns, table=table, subject_id=subject_id, path=path
                )
            except CorruptPartitionError:
                if attempt == _READ_ATTEMPTS - 1:
                    raise
        return None

    def read(self, table: str, subject_id: str, model: type[ModelT]) -> list[ModelT]:
        """The records of one partition, as ``model`` instances (empty if never written)."""
        arrow_table = self.read_arrow(table, subject_id, columns=[JSON_COLUMN])
        if arrow_table is None:
            return []
        return [model.model_validate_json(text) for text in arrow_table.column(JSON_COLUMN).to_pylist()]

    def read_or_set_aside(self, table: str, subject_id: str, model: type[ModelT]) -> list[ModelT]:
        """The records of one partition for a writer about to rewrite it from them. A
        corrupt partition file is moved to ``_quarantine`` (kept, named in a warning) and
        counts as empty, so the write that follows replaces it instead of every run
        failing on it until someone deletes it by hand."""
        try:
            return self.read(table, subject_id, model)
        except CorruptPartitionError as exc:
            kept = self.set_aside(table, subject_id)
            log.warning("%s; moved to %s and rewritten from scratch", exc, kept)
            return []

    def set_aside(self, table: str, subject_id: str) -> str:
        """Move the partition file to ``<root>/_quarantine/<table>/subject=<id>/<uuid>.parquet.corrupt``
        (out of every reader's way, kept for inspection); the new path."""
        directory = f"{self.base}/{QUARANTINE_DIR}/{table}/subject={subject_id}"
        if self.local:
            self.fs.create_dir(directory, recursive=True)
        target = f"{directory}/{uuid.uuid4().hex}.parquet.corrupt"
        self.fs.move(self.partition_path(table, subject_id), target)
        return target

    def subjects(self, table: str) -> list[str]:
        """Subject partitions present in ``table``."""
        found = []
        for info in self._list(self.table_dir(table)):
            name = info.base_name
            if info.type == pafs.FileType.Directory and name.startswith("subject="):
                found.append(name.removeprefix("subject="))
        return sorted(found)

    def _list(self, directory: str) -> list[pafs.FileInfo]:
        # A directory that another process is creating right now can pass
        # pyarrow's existence check and then fail the listing: treat as empty.
        try:
            return list(self.fs.get_file_info(pafs.FileSelector(directory, allow_not_found=True)))
        except FileNotFoundError:
            return []

    def tables(self) -> list[str]:
        return sorted(
            i.base_name
            for i in self._list(self.base)
            if i.type == pafs.FileType.Directory and not i.base_name.startswith((".", "_"))
        )

    def read_table(
        self, table: str, subject_id: str | None = None, *, skip_corrupt: bool = False
    ) -> pa.Table | None:
        """``table`` over every subject's partition (or only ``subject_id``'s) as one Arrow
        table with a ``subject`` column, each partition read through one file handle (a
        consistent snapshot even while runs rewrite partitions); None if no partition exists.
        A corrupt partition raises ``CorruptPartitionError``, or with ``skip_corrupt`` is left
        out with a warning naming its file (one bad file does not hide every subject)."""
        parts: dict[str, pa.Table] = {}
        for subject in self.subjects(table) if subject_id is None else [subject_id]:
            try:
                part = self.read_arrow(table, subject)
            except CorruptPartitionError as exc:
                if not skip_corrupt:
                    raise
                log.warning("%s; left out of %r", exc, table)
                continue
            if part is not None:
                subjects = pa.array([subject] * part.num_rows, pa.string())
                parts[subject] = part.append_column("subject", subjects)
        if not parts:
            return None
        return pa.concat_tables(self._one_schema(table, parts), promote_options="permissive")

    def _one_schema(self, table: str, parts: dict[str, pa.Table]) -> list[pa.Table]:
        """The partitions with one type per column. A partition written before every table
        had one schema may type a column that holds no value (an empty partition, a field
        that is always None there) differently: it is read as nulls of the table's type,
        which loses nothing. A column holding values of two types raises
        ``PartitionSchemaError`` naming the partition and the fix."""
        declared = arrow_schema(self.models[table]) if table in self.models else None
        column_types: dict[str, tuple[pa.DataType, str]] = {}
        for subject, part in parts.items():
            for field in part.schema:
                if part.column(field.name).null_count == part.num_rows:
                    continue  # no value: any type reads it
                seen = column_types.setdefault(field.name, (field.type, subject))
                if not seen[0].equals(field.type):
                    path = self.partition_path(table, subject)
                    other = self.partition_path(table, seen[1])
                    raise PartitionSchemaError(
                        table, path, [f"{field.name} is {field.type} here, {seen[0]} in {other}"]
                    )
        for field in declared or []:
            column_types.setdefault(field.name, (field.type, ""))
        for subject, part in parts.items():
            for field in part.schema:  # a column with no value anywhere: the first partition's type
                column_types.setdefault(field.name, (field.type, subject))
        conformed = []
        for part in parts.values():
            for index, field in enumerate(part.schema):
                wanted = column_types.get(field.name, (field.type, ""))[0]
                if not field.type.equals(wanted):
                    part = part.set_column(index, field.name, pa.nulls(part.num_rows, wanted))
            conformed.append(part)
        return conformed

    def migrate(self) -> list[str]:
        """Rewrite every partition of a table with a declared model (``models``) whose file
        differs from the table's schema, from each record's ``_json`` (nothing is lost): a
        warehouse written before every table had one schema becomes readable by a plain
        DuckDB glob. The paths rewritten; a corrupt partition is left as it is (logged)."""
        rewritten = []
        for table in self.tables():
            model = self.models.get(table)
            if model is None:
                continue
            declared = arrow_schema(model)
            for subject in self.subjects(table):
                path = self.partition_path(table, subject)
                try:
                    found = self.read_arrow(table, subject)
                    records = self.read(table, subject, model)
                except CorruptPartitionError as exc:
                    log.warning("%s; not migrated", exc)
                    continue
                if found is None or not schema_differences(found.schema, declared):
                    continue
                self.write(table, subject, records, model)
                rewritten.append(path)
        return rewritten

    def connect(self) -> duckdb.DuckDBPyConnection:
        """An in-memory DuckDB connection with one relation per table over all
        subjects' partitions (``read_table``), a corrupt partition left out with a warning
        naming its file. Readers hold no lock on any file, so they never block the
        pipeline's writers."""
        con = duckdb.connect(database=":memory:")
        for name in self.tables():
            arrow_table = self.read_table(name, skip_corrupt=True)
            if arrow_table is not None:
                con.register(name, arrow_table)
        return con

    def dataframe(self, table: str, subject_id: str | None = None) -> pd.DataFrame:
        """``table`` as a pandas DataFrame: the rows and columns of its DuckDB relation
        (``read_table``: every subject, or only ``subject_id``; a ``subject`` column; nested values
        as JSON text; ``_json`` the whole record). Empty if the table has no partition."""
        import pandas as pd  # ~0.4 s to import: only a reader who asks for a DataFrame pays it

        arrow_table = self.read_table(table, subject_id)
        return pd.DataFrame() if arrow_table is None else arrow_table.to_pandas()
