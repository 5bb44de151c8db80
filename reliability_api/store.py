"""Read access to the warehouse for the API.

Every read opens the partition's Parquet file once (``Warehouse.read_arrow``:
one file handle, no lock on any file) and queries that Arrow snapshot with
DuckDB, so readers never block the pipeline's writers. A partition is replaced
by an atomic rename, so one read sees either the previous report or the new
one in full: a consistent snapshot even while a refresh writes.

One in-memory DuckDB database serves the whole process; each query runs on
a cursor of it made for that query (opening a DuckDB connection per read cost
~20 ms, more than the rest of a report read together)."""

import json
import threading
from datetime import datetime

import duckdb
import pyarrow as pa
from pydantic import BaseModel

from reliability_core.backtest import BacktestResult
from reliability_core.models import (
    ClaimVerdict,
    CoverageDecision,
    OverallScore,
    RefreshRequest,
    Report,
    StewardRuling,
    SubjectResponse,
)
from reliability_core.warehouse import Ledger, Warehouse, tables

_NEWEST_FIRST = "ORDER BY CAST(generated_at AS TIMESTAMPTZ) DESC LIMIT 1"
_HEAD_COLUMNS = ["subject_name", "covered", "coverage_reasons", "generated_at", "served_until", "overall"]


class ReportHead(BaseModel):
    """The few fields of the newest report a subject summary shows, read from the
    partition's scalar columns without parsing the report's claims."""

    subject_name: str
    covered: bool
    coverage_reasons: list[str]
    generated_at: datetime
    served_until: datetime
    overall: OverallScore | None


class StoredReport(BaseModel):
    """The newest report exactly as stored (its JSON text), with the two fields a
    conditional request needs, so a report can be served without re-parsing it."""

    json_text: str
    content_hash: str
    served_until: datetime


class ReportStore:
    def __init__(self, warehouse: Warehouse) -> None:
        self.warehouse = warehouse
        self.ledger = Ledger(warehouse)
        self._database = duckdb.connect(":memory:")
        self._lock = threading.Lock()

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
        self, table: str, subject_ids: list[str], columns: list[str], sql: str
    ) -> list[tuple[object, ...]]:
        """Run ``sql`` over the relation ``parts``: the given subjects' partitions,
        each read through its own single file handle, with a ``subject`` column.
        One DuckDB query for a whole page instead of one per subject."""
        snapshots = []
        for subject_id in subject_ids:
            snapshot = self.warehouse.read_arrow(table, subject_id, columns=columns)
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
        """The newest report of the subject. The partition keeps earlier reports too;
        DuckDB picks the newest row by ``generated_at`` and only that one is parsed."""
        rows = self.query_partition(
            tables.REPORTS,
            subject_id,
            ["generated_at", "_json"],
            f"SELECT _json FROM part {_NEWEST_FIRST}",
        )
        return Report.model_validate_json(str(rows[0][0])) if rows else None

    def latest_report_validator(self, subject_id: str) -> tuple[str, datetime] | None:
        """Content hash and served-until of the newest report, without reading any report text."""
        rows = self.query_partition(
            tables.REPORTS,
            subject_id,
            ["generated_at", "served_until", "content_hash"],
            f"SELECT content_hash, served_until FROM part {_NEWEST_FIRST}",
        )
        if not rows:
            return None
        content_hash, served_until = rows[0]
        return str(content_hash or ""), datetime.fromisoformat(str(served_until))

    def latest_report_stored(self, subject_id: str) -> StoredReport | None:
        """The newest report's stored JSON, content hash and served-until, one row read."""
        rows = self.query_partition(
            tables.REPORTS,
            subject_id,
            ["generated_at", "served_until", "content_hash", "_json"],
            f"SELECT _json, content_hash, served_until FROM part {_NEWEST_FIRST}",
        )
        if not rows:
            return None
        text, content_hash, served_until = rows[0]
        return StoredReport(
            json_text=str(text),
            content_hash=str(content_hash or ""),
            served_until=datetime.fromisoformat(str(served_until)),
        )

    def latest_report_heads(self, subject_ids: list[str]) -> dict[str, ReportHead]:
        """Name, coverage, dates and overall score of each subject's newest report
        (for summaries), from the scalar columns: no report's claims are parsed."""
        rows = self.query_partitions(
            tables.REPORTS,
            subject_ids,
            _HEAD_COLUMNS,
            f"SELECT subject, {', '.join(_HEAD_COLUMNS)} FROM parts QUALIFY row_number() OVER "
            "(PARTITION BY subject ORDER BY CAST(generated_at AS TIMESTAMPTZ) DESC) = 1",
        )
        heads: dict[str, ReportHead] = {}
        for subject, name, covered, reasons, generated_at, served_until, overall in rows:
            heads[str(subject)] = ReportHead(
                subject_name=str(name),
                covered=bool(covered),
                coverage_reasons=json.loads(str(reasons)) if reasons is not None else [],
                generated_at=datetime.fromisoformat(str(generated_at)),
                served_until=datetime.fromisoformat(str(served_until)),
                overall=OverallScore.model_validate_json(str(overall)) if overall is not None else None,
            )
        return heads

    def coverages(self, subject_ids: list[str]) -> dict[str, CoverageDecision]:
        """Each subject's stored coverage decision (the last row of its partition)."""
        rows = self.query_partitions(
            tables.COVERAGE, subject_ids, ["_json"], "SELECT subject, _json FROM parts"
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
        """Stored backtest results of this method version (any gold set, any judges)."""
        results = []
        for partition in self.warehouse.subjects(tables.BACKTESTS):
            for text in self.read_json(tables.BACKTESTS, partition):
                result = BacktestResult.model_validate_json(text)
                if result.method_version == method_version:
                    results.append(result)
        return results
