"""Read access to the warehouse for the API.

Every read opens the partition's Parquet file through DuckDB (an in-memory
connection, no lock on any file), so readers never block the pipeline's
writers. A partition is replaced by an atomic rename, so one read sees either
the previous report or the new one in full: a consistent snapshot even while
a refresh writes."""

import json
from datetime import datetime

import duckdb

from reliability_core.models import (
    ClaimVerdict,
    CoverageDecision,
    RefreshRequest,
    Report,
    StewardRuling,
    SubjectResponse,
)
from reliability_core.warehouse import Ledger, Warehouse, tables


class ReportStore:
    def __init__(self, warehouse: Warehouse) -> None:
        self.warehouse = warehouse
        self.ledger = Ledger(warehouse)

    def read_json(self, table: str, subject_id: str) -> list[str]:
        """The ``_json`` column of one partition, queried with DuckDB over the
        Arrow snapshot the warehouse read through a single file handle."""
        snapshot = self.warehouse.read_arrow(table, subject_id, columns=["_json"])
        if snapshot is None:
            return []
        with duckdb.connect(":memory:") as con:
            con.register("part", snapshot)
            rows = con.execute("SELECT _json FROM part").fetchall()
        return [row[0] for row in rows]

    def subject_ids(self) -> list[str]:
        return sorted(
            set(self.warehouse.subjects(tables.COVERAGE)) | set(self.warehouse.subjects(tables.REPORTS))
        )

    def coverage(self, subject_id: str) -> CoverageDecision | None:
        rows = self.read_json(tables.COVERAGE, subject_id)
        return CoverageDecision.model_validate_json(rows[-1]) if rows else None

    def latest_report(self, subject_id: str) -> Report | None:
        reports = [Report.model_validate_json(text) for text in self.read_json(tables.REPORTS, subject_id)]
        return max(reports, key=lambda r: r.generated_at) if reports else None

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

    def latest_backtests(self, method_version: str) -> list[dict[str, object]]:
        """Stored backtest results of this method version (any gold set)."""
        results = []
        for partition in self.warehouse.subjects(tables.BACKTESTS):
            for text in self.read_json(tables.BACKTESTS, partition):
                data = json.loads(text)
                if data.get("method_version") == method_version:
                    results.append(data)
        return results
