"""The warehouse: one Parquet file per asset per subject partition, append-only
ledgers for records that are never rewritten, DuckDB views for reading."""

from reliability_core.warehouse.ledger import Ledger, LedgerConflictError
from reliability_core.warehouse.store import Warehouse, open_filesystem

__all__ = ["Ledger", "LedgerConflictError", "Warehouse", "open_filesystem"]
