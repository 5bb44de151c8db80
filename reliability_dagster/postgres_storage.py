"""Dagster's PostgreSQL instance storage, with a connection kept open per storage and process.

``dagster_postgres`` opens a new PostgreSQL connection for every statement outside the UI
(its engines use ``NullPool``, so that many ``DagsterInstance`` objects in one process do not
each hold connections). A queued subject run stores a few hundred events and claims a
provider pool's slot around every model call and search (``reliability_dagster/pools``),
each a connection set up and torn down: measured on this machine, 3.3 ms of wall time per
connection against 0.4 ms on a kept one (``docs/DEPLOY.md`` section 8). Run workers, the
daemon and the code server each hold one ``DagsterInstance`` for their life, so here each
of its three storages keeps one connection; a thread that needs one while it is in use gets
another, closed when returned (no limit, as before: no caller ever waits for a connection).

It is Dagster's own storage class with the engine Dagster itself builds for its UI
(``optimize_for_webserver``: pool size 1, connections recycled hourly), minus the UI's
statement timeout. The tables and their schema are unchanged: an instance configured with
``storage: postgres`` reads what this one writes and the other way round."""

from __future__ import annotations

from typing import Any

from dagster_postgres import DagsterPostgresStorage
from dagster_postgres.utils import get_token_provider_from_config, pg_url_from_config

# A kept connection older than this is replaced before use (a proxy or the server may drop
# long-idle connections; the daemon's instance lives for days).
POOL_RECYCLE_SECONDS = 3600
NO_STATEMENT_TIMEOUT = 0  # PostgreSQL's default: a run's statements are not cut off
NO_OVERFLOW_LIMIT = -1  # SQLAlchemy: as many extra connections as threads ask for


class PooledPostgresStorage(DagsterPostgresStorage):
    """``DagsterPostgresStorage`` whose run, event log and schedule storages keep a connection."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for storage in (self._run_storage, self._event_log_storage, self._schedule_storage):
            storage.optimize_for_webserver(
                statement_timeout=NO_STATEMENT_TIMEOUT,
                pool_recycle=POOL_RECYCLE_SECONDS,
                max_overflow=NO_OVERFLOW_LIMIT,
            )

    @classmethod
    def from_config_value(cls, inst_data: Any, config_value: Any) -> PooledPostgresStorage:  # type: ignore[override]
        # DagsterPostgresStorage.from_config_value, building this class instead of its own.
        return cls(
            inst_data=inst_data,
            postgres_url=pg_url_from_config(config_value),
            should_autocreate_tables=config_value.get("should_autocreate_tables", True),
            token_provider=get_token_provider_from_config(config_value),
        )
