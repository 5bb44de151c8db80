"""Publishing over a corrupt stored file (issue 26 item 5): the run that writes the
partition replaces the damaged file instead of failing on it every time."""

from pathlib import Path

from reliability_core.models import Report
from reliability_core.scores.peers import PeerFigures
from reliability_core.scores.publication import publish_report
from reliability_core.warehouse import Warehouse, tables
from reliability_core.warehouse.store import QUARANTINE_DIR
from tests.api.conftest import report


def test_a_corrupt_reports_file_is_set_aside_and_replaced_by_the_next_publication(warehouse: Warehouse) -> None:
    publish_report(warehouse, report("acme", 60.0), kind="company")
    for table in (tables.REPORTS, tables.PEER_FIGURES):
        Path(warehouse.partition_path(table, "acme")).write_bytes(b"")  # a 0-byte file: killed mid-copy

    published = publish_report(warehouse, report("acme", 64.0), kind="company")

    assert [r.id for r in warehouse.read(tables.REPORTS, "acme", Report)] == [published.id]
    assert [f.report_id for f in warehouse.read(tables.PEER_FIGURES, "acme", PeerFigures)] == [published.id]
    assert len(list((Path(warehouse.base) / QUARANTINE_DIR).rglob("*.corrupt"))) == 2


def test_another_subjects_corrupt_peer_figures_leave_the_peer_snapshot_buildable(warehouse: Warehouse) -> None:
    """One subject's damaged file never stops every other subject's run (issue 26 item 5)."""
    from datetime import UTC, datetime

    from reliability_core.scores.peers import build_peer_snapshot

    publish_report(warehouse, report("acme", 60.0), kind="company")
    publish_report(warehouse, report("zenith", 70.0), kind="company")
    Path(warehouse.partition_path(tables.PEER_FIGURES, "acme")).write_bytes(b"junk")
    now = datetime(2027, 1, 1, tzinfo=UTC)
    snapshot = build_peer_snapshot(warehouse, as_of=now, built_at=now, kinds={"acme": "company", "zenith": "company"})
    # Built from the peer that can be read: zenith alone, acme's damaged file left out.
    assert snapshot.subjects == 1
