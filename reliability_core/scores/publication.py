"""The order a subject's reports were published in, and which one is served ([#18]: one rule
orders a subject's reports, and it cannot tie).

A subject's partition keeps every report it was given; every reader (the pipeline, the demo
summary, the sensors, the API) serves the newest by this one rule. The rule is written once,
as the report fields that order it (``REPORT_ORDER_COLUMNS``); the Python key
(``report_order_key``) and the API's DuckDB ``ORDER BY`` (``NEWEST_REPORT_FIRST_SQL``) are both
derived from it, so they cannot drift apart.

Step 9 from what is stored is here too: ``report_from_stored`` is the one build of a report
from the stored records (the pipeline's ``subject_scores`` asset, its recompute check and a
steward's re-score all call it), and ``publish_report`` stores it as the subject's newest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from operator import attrgetter

from pydantic import TypeAdapter

from reliability_core.claims.extraction import DocumentRead
from reliability_core.clock import Clock
from reliability_core.models import (
    CandidateDocument,
    Claim,
    ClaimVerdict,
    CoverageDecision,
    DocumentSelection,
    DroppedStatement,
    EvidenceItem,
    Report,
    ResolutionCriteria,
    SampleMembership,
    Statement,
    SubjectResponse,
)
from reliability_core.scores.peers import (
    SnapshotPriorLookup,
    own_figures,
    peer_cutoff,
    peer_figures_of,
    peer_snapshot,
    record_peer_figures,
)
from reliability_core.scores.report import build_report
from reliability_core.scores.rulings import read_rulings
from reliability_core.warehouse import Ledger, Warehouse, tables

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


# --- Step 9 from what is stored, and its publication ---------------------------------------


def stored_coverage(warehouse: Warehouse, subject_id: str) -> CoverageDecision | None:
    decisions = warehouse.read(tables.COVERAGE, subject_id, CoverageDecision)
    return decisions[-1] if decisions else None


def report_from_stored(
    warehouse: Warehouse,
    subject_id: str,
    *,
    subject_name: str,
    kind: str,
    kinds: Mapping[str, str],
    models_used: dict[str, str],
    offline: bool,
    clock: Clock,
    method_version: str,
    rehearsal: bool = False,
    peer_prior_as_of: datetime | None = None,
) -> Report | None:
    """Everything stored for the subject (the pipeline's tables, the responses and rulings
    ledgers, the day's frozen peer snapshot for the prior), scored into a report by
    ``report.build_report``; None without a stored coverage decision. The prior comes from
    the peer snapshot of ``peer_prior_as_of`` (``peers.peer_cutoff`` of now by default; the
    recompute check and a re-score pass the one recorded on the report), fixed before
    anything is scored."""
    read = warehouse.read
    s = subject_id
    ledger = Ledger(warehouse)
    coverage = stored_coverage(warehouse, s)
    if coverage is None:
        return None
    as_of = peer_prior_as_of or peer_cutoff(clock.now())
    snapshot = peer_snapshot(warehouse, ledger, as_of=as_of, clock=clock, kinds=lambda: kinds)
    return build_report(
        subject_id=s,
        subject_name=subject_name,
        coverage=coverage,
        candidates=read(tables.CANDIDATES, s, CandidateDocument),
        selections=read(tables.DOCUMENT_SAMPLE, s, DocumentSelection),
        statements=read(tables.STATEMENTS, s, Statement),
        dropped=read(tables.DROPPED, s, DroppedStatement),
        claims=read(tables.CLAIMS, s, Claim),
        samples=read(tables.CLAIM_SAMPLE, s, SampleMembership),
        criteria=read(tables.CRITERIA, s, ResolutionCriteria),
        evidence=read(tables.EVIDENCE, s, EvidenceItem),
        verdicts=read(tables.VERDICTS, s, ClaimVerdict),
        document_reads=read(tables.DOCUMENT_READS, s, DocumentRead),
        responses=ledger.read_all(tables.RESPONSES_LEDGER, s, SubjectResponse),
        rulings=read_rulings(ledger, s),
        prior_lookup=SnapshotPriorLookup(
            kind=kind, snapshot=snapshot, own=own_figures(warehouse, s, as_of=as_of, kind=kind)
        ),
        models_used=models_used,
        offline=offline,
        rehearsal=rehearsal,
        clock=clock,
        method_version=method_version,
        peer_prior_as_of=as_of,
    )


def publish_report(warehouse: Warehouse, report: Report, *, kind: str) -> Report:
    """Store ``report`` as the subject's newest (next publication sequence), keeping the
    earlier reports; a stored report with the same content is replaced, not repeated. Its
    scores join the peer figures of a subject of ``kind`` (``peers.record_peer_figures``).
    A corrupt reports file is set aside, not fatal (``Warehouse.read_or_set_aside``): this
    write replaces it, so one damaged file does not fail every later run of the subject."""
    stored = warehouse.read_or_set_aside(tables.REPORTS, report.subject_id, Report)
    published = sequenced(report, stored)
    history = [r for r in stored if r.content_hash != published.content_hash]
    warehouse.write(tables.REPORTS, report.subject_id, [*history, published])
    figures = peer_figures_of(published, kind)
    if figures is not None:
        record_peer_figures(warehouse, figures)
    return published

