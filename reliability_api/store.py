"""Read access to the warehouse for the API.

Every read opens the partition's Parquet file once (``Warehouse.read_arrow``:
one file handle, no lock on any file) and queries that Arrow snapshot with
DuckDB, so readers never block the pipeline's writers. A partition is replaced
by an atomic rename, so one read sees either the previous report or the new
one in full: a consistent snapshot even while a refresh writes.

One in-memory DuckDB database serves the whole process; each query runs on
a cursor of it made for that query (opening a DuckDB connection per read cost
~20 ms, more than the rest of a report read together).

A report read does not touch Parquet or DuckDB at all once its stored version
has been read: ``PreparedReports`` keeps, per subject, the newest report's
envelope bytes (plain and gzip) prepared once per stored version of the
partition file, and a read only checks that the file is still that version
(one ``stat``). See ``PreparedReports`` for why that check is sound."""

import contextlib
import gzip
import json
import logging
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import BinaryIO

import duckdb
import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq  # noqa: F401 (pq.read_table, called by read_columns, is the tests' seam)
from pydantic import BaseModel, TypeAdapter

from reliability_core.models import (
    ClaimVerdict,
    CoverageDecision,
    OverallScore,
    RefreshRequest,
    Report,
    StewardRuling,
    SubjectResponse,
)
from reliability_core.scores.publication import (
    NEWEST_REPORT_FIRST_SQL,
    REPORT_ORDER_COLUMNS,
    stored_report_order_key,
)
from reliability_core.subjects.registry import load_registry
from reliability_core.validation.backtest import BacktestResult, backtest_results_for
from reliability_core.warehouse import Ledger, Warehouse, tables
from reliability_core.warehouse.store import CorruptPartitionError, read_partition_file

log = logging.getLogger(__name__)

_HEAD_COLUMNS = [
    "subject_name",
    "covered",
    "coverage_reasons",
    "generated_at",
    "served_until",
    "overall",
    "offline_notice",
    "needs_live_providers",
]


class ReportHead(BaseModel):
    """The few fields of the newest report a subject summary shows, read from the
    partition's scalar columns without parsing the report's claims."""

    subject_name: str
    covered: bool
    coverage_reasons: list[str]
    generated_at: datetime
    served_until: datetime
    overall: OverallScore | None
    # The report's label when no live model made it (offline-rules, rehearsal); "" when one did.
    offline_notice: str = ""
    needs_live_providers: bool = False


_OPTIONAL_TIME: TypeAdapter[datetime | None] = TypeAdapter(datetime | None)
_PREPARED_COLUMNS = [*REPORT_ORDER_COLUMNS, "served_until", "content_hash", "_json"]


def envelope_json(
    report_json: str, *, stale: bool, refresh_requested_at: datetime | None, served_until: datetime
) -> bytes:
    """``ReportEnvelope`` as JSON around a report's stored JSON text (byte-equal to
    ``ReportEnvelope(...).model_dump_json()`` for a report stored by the current model)."""
    return b"".join(
        (
            b'{"stale":',
            b"true" if stale else b"false",
            b',"refresh_requested_at":',
            _OPTIONAL_TIME.dump_json(refresh_requested_at),
            b',"served_until":',
            _OPTIONAL_TIME.dump_json(served_until),
            b',"report":',
            report_json.encode("utf-8"),
            b"}",
        )
    )


@dataclass(frozen=True)
class PreparedReport:
    """The newest report of one stored version of a subject's reports partition, ready to
    send: the envelope of a fresh (not stale) read as bytes, plain and gzip-compressed
    (``mtime=0``, so the same version always compresses to the same bytes), and the two
    fields a conditional request needs. The stored report JSON is the slice of the plain
    envelope after ``report_offset`` (kept once, not twice)."""

    content_hash: str
    served_until: datetime
    fresh_body: bytes
    fresh_body_gzip: bytes
    report_offset: int

    @property
    def json_text(self) -> str:
        """The report exactly as stored (its JSON text)."""
        return self.fresh_body[self.report_offset : -1].decode("utf-8")


def prepare_report(part: pa.Table) -> PreparedReport | None:
    """The newest row of a reports partition (publication sequence, then ``generated_at``:
    the one rule of ``reliability_core.scores.publication.latest_report``), prepared; None for an
    empty partition."""
    if part.num_rows == 0:
        return None
    columns = {c: part.column(c).to_pylist() for c in REPORT_ORDER_COLUMNS}
    order = [stored_report_order_key({c: v[i] for c, v in columns.items()}) for i in range(part.num_rows)]
    newest = max(range(len(order)), key=order.__getitem__)
    text = str(part.column("_json")[newest].as_py())
    served_until = datetime.fromisoformat(str(part.column("served_until")[newest].as_py()))
    body = envelope_json(text, stale=False, refresh_requested_at=None, served_until=served_until)
    return PreparedReport(
        content_hash=str(part.column("content_hash")[newest].as_py() or ""),
        served_until=served_until,
        fresh_body=body,
        fresh_body_gzip=gzip.compress(body, compresslevel=6, mtime=0),
        report_offset=len(body) - len(text.encode("utf-8")) - 1,
    )


@dataclass
class _Entry:
    version: tuple[int, ...]
    prepared: PreparedReport | None
    handle: BinaryIO | None


class PreparedReports:
    """Per subject, the newest report prepared once per stored version of its partition file.

    A version is recognised without reading the file. On a local filesystem it is the
    file's identity ``(device, inode, mtime, size)``: the warehouse never changes a file in
    place (a write is a new file renamed over the old), so a new version is a new inode,
    and the prepared entry keeps the file it was read from open, which stops the kernel
    reusing that inode while the entry lives: an unchanged identity is the same file.
    A read that races a refresh either matches the old entry (a whole old version) or
    reads the new file through one handle (a whole new version). On an object store the
    version is ``(mtime, size)`` from one metadata call, and an entry is kept only if that
    did not change while the file was read.

    At most ``capacity`` subjects are kept (least recently read dropped first), so open
    files and memory stay bounded (a 120 KB report keeps ~140 KB: the plain envelope and
    its gzip)."""

    def __init__(self, warehouse: Warehouse, capacity: int = 1024) -> None:
        self.warehouse = warehouse
        self.capacity = capacity
        self._local = isinstance(warehouse.fs, pafs.LocalFileSystem)
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()
        self.prepared_count = 0  # versions read and prepared (not served from an entry)

    def get(self, subject_id: str) -> PreparedReport | None:
        """The newest report of the subject's current stored version, or None if it has none."""
        path = self.warehouse.partition_path(tables.REPORTS, subject_id)
        version = self._version(path)
        if version is None:
            self._drop(subject_id)
            return None
        with self._lock:
            entry = self._entries.get(subject_id)
            if entry is not None and entry.version == version:
                self._entries.move_to_end(subject_id)
                return entry.prepared
        entry = self._read_local(subject_id, path) if self._local else self._read_remote(subject_id, path, version)
        if entry is None:
            return None
        self._keep(subject_id, entry)
        return entry.prepared

    def _version(self, path: str) -> tuple[int, ...] | None:
        if self._local:
            try:
                st = os.stat(path)
            except FileNotFoundError:
                return None
            return (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size)
        info = self.warehouse.fs.get_file_info(path)
        if info.type != pafs.FileType.File:
            return None
        return (int(info.mtime_ns or 0), int(info.size or 0))

    def _read_local(self, subject_id: str, path: str) -> _Entry | None:
        try:
            handle = open(path, "rb")  # noqa: SIM115 (kept open by the entry; closed when it is replaced)
        except FileNotFoundError:
            return None
        try:
            st = os.fstat(handle.fileno())
            part = read_partition_file(
                handle, _PREPARED_COLUMNS, table=tables.REPORTS, subject_id=subject_id, path=path
            )
            prepared = prepare_report(part)
        except BaseException:
            handle.close()
            raise
        self.prepared_count += 1
        return _Entry(version=(st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size), prepared=prepared, handle=handle)

    def _read_remote(self, subject_id: str, path: str, version: tuple[int, ...]) -> _Entry | None:
        part = self.warehouse.read_arrow(tables.REPORTS, subject_id, columns=_PREPARED_COLUMNS)
        if part is None:
            return None
        self.prepared_count += 1
        entry = _Entry(version=version, prepared=prepare_report(part), handle=None)
        if self._version(path) != version:
            # Replaced while it was read: serve what was read, keep nothing.
            entry.version = ()
        return entry

    def _keep(self, subject_id: str, entry: _Entry) -> None:
        with self._lock:
            old = self._entries.pop(subject_id, None)
            self._entries[subject_id] = entry
            dropped = [old] if old is not None else []
            while len(self._entries) > self.capacity:
                dropped.append(self._entries.popitem(last=False)[1])
        for gone in dropped:
            if gone.handle is not None:
                with contextlib.suppress(OSError):
                    gone.handle.close()

    def _drop(self, subject_id: str) -> None:
        with self._lock:
            gone = self._entries.pop(subject_id, None)
        if gone is not None and gone.handle is not None:
            gone.handle.close()

    def close(self) -> None:
        """Close every file the entries keep open."""
        with self._lock:
            entries, self._entries = list(self._entries.values()), OrderedDict()
        for entry in entries:
            if entry.handle is not None:
                entry.handle.close()


class ReportStore:
    def __init__(self, warehouse: Warehouse) -> None:
        self.warehouse = warehouse
        self.ledger = Ledger(warehouse)
        self._database = duckdb.connect(":memory:")
        self._lock = threading.Lock()
        self.prepared = PreparedReports(warehouse)

    def _run(
        self, sql: str, *, part: pa.Table | None = None, parts: pa.Table | None = None
    ) -> list[tuple[object, ...]]:
        """Run ``sql`` on a fresh cursor of the shared database (~0.03 ms to make), closed
        before returning (a cursor left to a worker thread's exit would be destroyed while
        the interpreter shuts down, which aborts the process). DuckDB finds the relations
        ``part`` and ``parts`` by their Python names in this frame (a replacement scan),
        about half the cost of registering a view for every read."""
        with self._lock:  # cursor() on the shared connection is not itself thread-safe
            cursor = self._database.cursor()
        try:
            return cursor.execute(sql).fetchall()
        finally:
            cursor.close()

    def query_partition(
        self, table: str, subject_id: str, columns: list[str], sql: str
    ) -> list[tuple[object, ...]]:
        """Run ``sql`` (over the relation ``part``) against one partition's Arrow
        snapshot, read through a single file handle; no rows if never written."""
        part = self.warehouse.read_arrow(table, subject_id, columns=columns)
        if part is None or part.num_rows == 0:
            return []
        return self._run(sql, part=part)

    def query_partitions(
        self,
        table: str,
        subject_ids: list[str],
        columns: list[str],
        sql: str,
        unreadable: set[str] | None = None,
    ) -> list[tuple[object, ...]]:
        """Run ``sql`` over the relation ``parts``: the given subjects' partitions,
        each read through its own single file handle, with a ``subject`` column.
        One DuckDB query for a whole page instead of one per subject. A corrupt partition
        raises ``CorruptPartitionError``; with ``unreadable`` it is left out and its
        subject added there (one bad file does not fail a page of other subjects)."""
        snapshots = []
        for subject_id in subject_ids:
            try:
                snapshot = self.warehouse.read_arrow(table, subject_id, columns=columns)
            except CorruptPartitionError as exc:
                if unreadable is None:
                    raise
                log.error("%s; left out of the subject listing", exc)
                unreadable.add(subject_id)
                continue
            if snapshot is not None and snapshot.num_rows:
                subject = pa.array([subject_id] * snapshot.num_rows, pa.string())
                snapshots.append(snapshot.append_column("subject", subject))
        if not snapshots:
            return []
        return self._run(sql, parts=pa.concat_tables(snapshots, promote_options="permissive"))

    def read_json(self, table: str, subject_id: str) -> list[str]:
        """The ``_json`` column of one partition (each row a whole record)."""
        return [
            str(row[0])
            for row in self.query_partition(table, subject_id, ["_json"], "SELECT _json FROM part")
        ]

    def subject_ids(self) -> list[str]:
        return sorted(
            set(self.warehouse.subjects(tables.COVERAGE)) | set(self.warehouse.subjects(tables.REPORTS))
        )

    def latest_report(self, subject_id: str) -> Report | None:
        """The newest report of the subject, parsed from its prepared stored JSON."""
        prepared = self.prepared.get(subject_id)
        return Report.model_validate_json(prepared.json_text) if prepared else None

    def latest_report_prepared(self, subject_id: str) -> PreparedReport | None:
        """The newest report ready to send (see ``PreparedReports``): no Parquet read, no
        parse, no query while the subject's stored version is unchanged."""
        return self.prepared.get(subject_id)

    def report_history(self, subject_id: str) -> list[tuple[object, ...]]:
        """Every stored report's order, id, hash, version and scores (scalar and JSON-text
        columns only: no report's claims are parsed), oldest first by the one ordering rule."""
        columns = [*REPORT_ORDER_COLUMNS, "id", "content_hash", "method_version", "overall", "type_scores"]
        return self.query_partition(
            tables.REPORTS,
            subject_id,
            columns,
            "SELECT sequence, id, generated_at, content_hash, method_version, overall, type_scores "
            f"FROM part {NEWEST_REPORT_FIRST_SQL}",
        )[::-1]

    def latest_report_heads(
        self, subject_ids: list[str], unreadable: set[str] | None = None
    ) -> dict[str, ReportHead]:
        """Name, coverage, dates and overall score of each subject's newest report
        (for summaries), from the scalar columns: no report's claims are parsed
        (``unreadable``: as ``query_partitions``)."""
        rows = self.query_partitions(
            tables.REPORTS,
            subject_ids,
            [*_HEAD_COLUMNS, "sequence"],
            f"SELECT subject, {', '.join(_HEAD_COLUMNS)} FROM parts QUALIFY row_number() OVER "
            f"(PARTITION BY subject {NEWEST_REPORT_FIRST_SQL}) = 1",
            unreadable,
        )
        heads: dict[str, ReportHead] = {}
        for subject, name, covered, reasons, generated_at, served_until, overall, notice, needs_live in rows:
            heads[str(subject)] = ReportHead(
                subject_name=str(name),
                covered=bool(covered),
                coverage_reasons=json.loads(str(reasons)) if reasons is not None else [],
                generated_at=datetime.fromisoformat(str(generated_at)),
                served_until=datetime.fromisoformat(str(served_until)),
                overall=OverallScore.model_validate_json(str(overall)) if overall is not None else None,
                offline_notice=str(notice or ""),
                needs_live_providers=bool(needs_live),
            )
        return heads

    def coverages(
        self, subject_ids: list[str], unreadable: set[str] | None = None
    ) -> dict[str, CoverageDecision]:
        """Each subject's stored coverage decision (the last row of its partition;
        ``unreadable``: as ``query_partitions``)."""
        rows = self.query_partitions(
            tables.COVERAGE, subject_ids, ["_json"], "SELECT subject, _json FROM parts", unreadable
        )
        return {str(subject): CoverageDecision.model_validate_json(str(text)) for subject, text in rows}

    def verdict(self, subject_id: str, claim_id: str) -> ClaimVerdict | None:
        """The stored verdict of one claim (the record a steward rules on)."""
        for text in self.read_json(tables.VERDICTS, subject_id):
            verdict = ClaimVerdict.model_validate_json(text)
            if verdict.claim_id == claim_id:
                return verdict
        return None

    def responses(self, subject_id: str) -> list[SubjectResponse]:
        return self.ledger.read_all(tables.RESPONSES_LEDGER, subject_id, SubjectResponse)

    def rulings(self, subject_id: str) -> list[StewardRuling]:
        return self.ledger.read_all(tables.RULINGS_LEDGER, subject_id, StewardRuling)

    def refresh_requested_at(self, subject_id: str) -> datetime | None:
        requests = self.ledger.read_all(tables.REFRESH_REQUESTS_LEDGER, subject_id, RefreshRequest)
        return max((r.requested_at for r in requests), default=None)

    def latest_backtests(self, method_version: str) -> list[BacktestResult]:
        """Stored backtest results of this method version (any gold set, any judges), from
        the append-only ledger every backtest writes, the CLI's and the asset's alike."""
        return backtest_results_for(self.ledger, method_version)


class RegisteredSubjects:
    """The subject ids of the registry (``data/subjects.yaml``), re-read when the file
    changes. A subject removed from the registry is no longer listed or served (its stored
    partitions stay in the warehouse, as the pipeline's sensor leaves them); without a
    registry file every stored subject is served."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._read: tuple[int, frozenset[str]] | None = None
        self._lock = threading.Lock()

    def ids(self) -> frozenset[str] | None:
        """The registered ids, or None when there is no registry to hold the API to."""
        if self.path is None:
            return None
        try:
            changed = self.path.stat().st_mtime_ns
        except FileNotFoundError:
            return None
        with self._lock:
            if self._read is None or self._read[0] != changed:
                self._read = (changed, frozenset(e.id for e in load_registry(self.path)))
            return self._read[1]

    def holds(self, subject_id: str) -> bool:
        ids = self.ids()
        return ids is None or subject_id in ids

