"""The order a subject's reports were published in, and which one is served ([#18]: one rule
orders a subject's reports, and it cannot tie).

A subject's partition keeps every report it was given; every reader (the pipeline, the demo
summary, the sensors, the API) serves the newest by this one rule. The rule is written once,
as the report fields that order it (``REPORT_ORDER_COLUMNS``); the Python key
(``report_order_key``) and the API's DuckDB ``ORDER BY`` (``NEWEST_REPORT_FIRST_SQL``) are both
derived from it, so they cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from operator import attrgetter

from pydantic import TypeAdapter

from reliability_core.models import Report

# A subject's reports, newest last: the publication sequence, which cannot tie (offline runs
# pin the clock, so ``generated_at`` does), then ``generated_at`` for reports stored before
# sequences existed. The one definition of the order, as ``Report`` fields, most significant
# first.
REPORT_ORDER_COLUMNS: tuple[str, ...] = ("sequence", "generated_at")

# How a stored column is compared in SQL, by the field's type on ``Report``: timestamps are
# stored as ISO text and compared as instants; integers compare as stored.
_SQL_CASTS: Mapping[type, str] = {datetime: "TIMESTAMPTZ"}


def _field_type(column: str) -> type:
    """The type of a ``Report`` field that orders reports (a plain type: ``int``, ``datetime``)."""
    annotation = Report.model_fields[column].annotation
    if not isinstance(annotation, type):
        raise TypeError(f"Report.{column} orders reports and must have a plain type, not {annotation!r}")
    return annotation


def _sql_term(column: str) -> str:
    cast = _SQL_CASTS.get(_field_type(column))
    return f"CAST({column} AS {cast}) DESC" if cast else f"{column} DESC"


# The same order for the API's DuckDB queries over the ``reports`` partition, newest first.
NEWEST_REPORT_FIRST_SQL = "ORDER BY " + ", ".join(_sql_term(c) for c in REPORT_ORDER_COLUMNS)

_order_values = attrgetter(*REPORT_ORDER_COLUMNS)


def report_order_key(report: Report) -> tuple[int, datetime]:
    """Where a report stands among its subject's reports: its ``REPORT_ORDER_COLUMNS``."""
    key: tuple[int, datetime] = _order_values(report)
    return key


_STORED_TYPES: dict[str, TypeAdapter[object]] = {c: TypeAdapter(_field_type(c)) for c in REPORT_ORDER_COLUMNS}


def stored_report_order_key(row: Mapping[str, object]) -> tuple[int, datetime]:
    """``report_order_key`` of a stored report read as columns (the API reads only these,
    not the whole report): each value read as its ``Report`` field reads it, and a column
    a report stored before it existed reads as the field's default."""
    values = tuple(
        _STORED_TYPES[c].validate_python(Report.model_fields[c].get_default() if row.get(c) is None else row[c])
        for c in REPORT_ORDER_COLUMNS
    )
    key: tuple[int, datetime] = values  # type: ignore[assignment]
    return key


def latest_report(reports: Sequence[Report]) -> Report | None:
    """The newest of a subject's stored reports (a partition keeps the history): the one
    published last. One rule for the pipeline, the demo summary, the sensors and the API."""
    return max(reports, key=report_order_key, default=None)


def sequenced(report: Report, history: Sequence[Report]) -> Report:
    """The report as published after ``history``: its sequence one past the highest
    stored, so a re-run published later is always the newer one."""
    return report.model_copy(update={"sequence": max((r.sequence for r in history), default=0) + 1})
