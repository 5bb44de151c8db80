"""Dagster's SQLite instance storage, with the event log's database connections kept open.

Dagster's ``SqliteEventLogStorage`` builds a SQLAlchemy engine for every event it stores and
every read it serves, opens the SQLite file, compiles the statement afresh (SQLAlchemy
caches compiled statements per engine, and the engine is new each time), commits and
disposes the engine. A subject run stores a few hundred events; profiled on a warm
``make demo`` that was about 11% of the run (issue 29). ``PooledSqliteEventLogStorage``
keeps one engine per shard (a run's file, the cross-run index) for the life of the process,
a handful at most, so a connection and its compiled statements are reused.

The files, their layout and their schema are Dagster's own: this storage writes exactly
what ``storage: sqlite`` writes, an instance made by either opens with the other, and the
run workers, the daemon and the UI each build it from ``dagster.yaml`` (``storage: custom``,
Dagster's documented way to name a storage class). Idle pooled connections hold no lock:
every use is one transaction, under the storage's own lock, as before.

Dagster publishes these classes only under ``dagster._core.storage`` (its instance
reference documents them there); there is no public name to use instead. The pin of
dagster in ``pyproject.toml`` keeps the methods overridden here as read."""

from __future__ import annotations

import contextlib
import os
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from dagster._core.storage.event_log import SqliteEventLogStorage
from dagster._core.storage.sqlite import SQLITE_BUSY_TIMEOUT_SECONDS
from dagster._core.storage.sqlite_storage import DagsterSqliteStorage
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection, Engine

# A run process writes its own shard and the index; the UI reads a few runs' shards at a
# time. Engines beyond this many are disposed, oldest first, so a long-lived process that
# reads thousands of runs does not keep thousands of files open.
ENGINES_KEPT = 8


class PooledSqliteEventLogStorage(SqliteEventLogStorage):
    """``SqliteEventLogStorage`` whose shards' engines are kept between uses (at most
    ``ENGINES_KEPT``, least recently used disposed first)."""

    def __init__(self, base_dir: str, inst_data: Any = None) -> None:
        # Before the parent's constructor, which may already connect (a new index shard is
        # initialised and reindexed there).
        self._engines: OrderedDict[str, Engine] = OrderedDict()
        super().__init__(base_dir, inst_data)

    @classmethod
    def from_config_value(cls, inst_data: Any, config_value: Any) -> PooledSqliteEventLogStorage:  # type: ignore[override]
        return cls(inst_data=inst_data, **config_value)

    def _engine(self, shard: str) -> Engine:
        """The shard's engine, made on first use (called under ``_db_lock``)."""
        engine = self._engines.pop(shard, None)
        if engine is None:
            # SQLAlchemy's default pool for a SQLite file (a queue of connections, usable
            # from any thread); every use below holds the storage's lock, so one at a time.
            engine = create_engine(
                self.conn_string_for_shard(shard),
                connect_args={"timeout": SQLITE_BUSY_TIMEOUT_SECONDS},
            )
        self._engines[shard] = engine
        while len(self._engines) > ENGINES_KEPT:
            _, oldest = self._engines.popitem(last=False)
            oldest.dispose()
        return engine

    @contextlib.contextmanager
    def _connect(self, shard: str) -> Iterator[Connection]:
        # The parent's _connect, with the engine kept instead of made and disposed each time.
        with self._db_lock:
            engine = self._engine(shard)
            if shard not in self._initialized_dbs:
                self._initdb(engine)
                self._initialized_dbs.add(shard)
            with engine.connect() as conn, conn.begin():
                yield conn

    def _dispose_engines(self) -> None:
        with self._db_lock:
            while self._engines:
                _, engine = self._engines.popitem()
                engine.dispose()

    def wipe(self) -> None:
        # The parent deletes the run shards' files: no open connection may outlive its file.
        self._dispose_engines()
        super().wipe()

    def upgrade(self) -> None:
        super().upgrade()
        self._dispose_engines()  # connections opened before the migration forget its schema

    def dispose(self) -> None:
        self._dispose_engines()
        super().dispose()


class PooledSqliteStorage(DagsterSqliteStorage):
    """Dagster's SQLite storage under ``base_dir`` (runs, event logs, schedules, laid out as
    ``storage: sqlite`` lays them out), with the pooled event log."""

    def __init__(self, base_dir: str, inst_data: Any = None) -> None:
        super().__init__(base_dir, inst_data=inst_data)
        self._event_log_storage = PooledSqliteEventLogStorage(os.path.join(base_dir, "history", "runs", ""))

    @classmethod
    def from_config_value(cls, inst_data: Any, config_value: Any) -> PooledSqliteStorage:  # type: ignore[override]
        return cls.from_local(inst_data=inst_data, **config_value)
