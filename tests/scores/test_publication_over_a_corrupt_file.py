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
