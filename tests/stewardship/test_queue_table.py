"""The steward's queue as people read it (issue 27): the claim, its quote, both judges, the
gate, the evidence links and why it is queued, in the CLI and in the UI."""

from __future__ import annotations

from datetime import timedelta

from reliability_core.clock import FixedClock
from reliability_core.models import Claim, EvidenceItem
from reliability_core.stewardship.queue_table import queue_markdown, queue_rows, queue_text, why_queued
from reliability_core.stewardship.steward import (
    build_steward_queue,
    read_steward_queue,
    rebuild_steward_queue,
)
from reliability_core.text.layout import markdown_table, text_table
from reliability_core.warehouse import Warehouse, tables
from tests.validation.fakes import DECIDED, claim_verdict


def _claim(claim_id: str, restatement: str, quote: str, subject_id: str = "northwind") -> Claim:
    return Claim(
        method_version="test",
        id=claim_id,
        statement_id=f"stm-{claim_id}",
        subject_id=subject_id,
        document_id="doc-1",
        url=f"https://northwind.example/speech#{claim_id}",
        quote=quote,
        quote_verified=True,
        speaker="Northwind Energy",
        claim_type="factual",
        restatement=restatement,
        triage="resolvable_now",
        triage_reason="a past figure",
        classified_by="test",
    )


def _evidence(evidence_id: str, claim_id: str, url: str) -> EvidenceItem:
    return EvidenceItem(
        method_version="test",
        id=evidence_id,
        claim_id=claim_id,
        subject_id="northwind",
        url=url,
        final_url=url,
        snapshot_id=f"snp-{evidence_id}",
        snapshot_sha256=None,
        http_status=200,
        fetched_at=DECIDED,
        quote="Emissions fell by 12 per cent in 2025, the agency's register shows.",
        quote_verified=True,
        source_class="official_record",
        publisher="agency",
        independent=True,
        side="against",
    )


def _stored(warehouse: Warehouse) -> None:
    disputed = claim_verdict("c-disputed", "true", judge_b="false").model_copy(
        update={"evidence_ids": ["e-1", "e-2"]}
    )
    held = claim_verdict("c-held", "mostly_true", shown=False)
    held = held.model_copy(
        update={"gate": held.gate.model_copy(update={"failed": ["no independent source"]})}
    )
    warehouse.write(tables.VERDICTS, "northwind", [disputed, held, claim_verdict("c-fine", "true")])
    warehouse.write(
        tables.CLAIMS,
        "northwind",
        [
            _claim(
                "c-disputed",
                "Northwind cut its emissions by 40% in 2025.",
                "We cut our emissions by 40 per cent last year",
            ),
            _claim(
                "c-held",
                "Northwind's wind farm powers 200,000 homes.",
                "Our wind farm now powers 200,000 homes",
            ),
            _claim("c-fine", "Northwind opened a plant in Aalborg.", "We opened our Aalborg plant"),
        ],
    )
    warehouse.write(
        tables.EVIDENCE,
        "northwind",
        [
            _evidence("e-1", "c-disputed", "https://agency.example/register/2025"),
            _evidence("e-2", "c-disputed", "https://news.example/northwind-emissions"),
        ],
    )


def test_a_queue_item_carries_the_claim_its_quote_and_its_evidence_links(
    clock: FixedClock, warehouse: Warehouse
) -> None:
    _stored(warehouse)
    rebuild_steward_queue(warehouse, clock=clock, method_version="v", seed=3)
    item = next(i for i in read_steward_queue(warehouse, "northwind") if i.claim_id == "c-disputed")
    assert item.claim == "Northwind cut its emissions by 40% in 2025."
    assert item.quote == "We cut our emissions by 40 per cent last year"
    assert item.evidence_urls == [
        "https://agency.example/register/2025",
        "https://news.example/northwind-emissions",
    ]


def test_the_readable_queue_shows_claim_quote_judges_gate_evidence_and_why(
    clock: FixedClock, warehouse: Warehouse
) -> None:
    _stored(warehouse)
    queue = rebuild_steward_queue(warehouse, clock=clock, method_version="v", seed=3)
    rows = {row[0].split("\n")[1]: row for row in queue_rows(queue.items)}
    cells = " ".join(" ".join(rows["c-disputed"] + rows["c-held"]).split())
    for expected in (
        "Northwind cut its emissions by 40% in 2025.",
        "“We cut our emissions by 40 per cent last year”",
        "A: true",
        "B: false",
        "judges disagree (A: true, B: false)",
        "held by the display gate: no independent source",
        "https://agency.example/register/2025",
    ):
        assert expected in cells, expected
    text = queue_text(queue.items)
    words = set(text.split())
    assert all(set(cell.split()) <= words for row in rows.values() for cell in row), "a cell was cut off"
    assert "{" not in text, "the default listing is a table, not JSON"
    assert max(len(line) for line in text.splitlines() if "https://" not in line) <= 160

    markdown = queue_markdown(queue.items)
    assert markdown.splitlines()[0].startswith(
        "| subject / claim | claim | quote | judges | gate | why queued | evidence |"
    )
    assert (
        "[1](https://agency.example/register/2025) [2](https://news.example/northwind-emissions)" in markdown
    )
    assert "A: true<br>B: false" in markdown


def test_why_queued_names_the_random_sample_and_its_seed(clock: FixedClock) -> None:
    queue = build_steward_queue([claim_verdict("c-1", "true")], clock=clock, method_version="v", seed=42)
    assert why_queued(queue.items[0]) == "random 10% sample of the last 7 days' verdicts (seed 42)"


def test_a_rebuild_empties_the_queue_of_a_subject_with_nothing_left_to_queue(
    clock: FixedClock, warehouse: Warehouse
) -> None:
    warehouse.write(tables.VERDICTS, "northwind", [claim_verdict("c-disputed", "true", judge_b="false")])
    rebuild_steward_queue(warehouse, clock=clock, method_version="v", subjects=["northwind"])
    assert [i.claim_id for i in read_steward_queue(warehouse, "northwind")] == ["c-disputed"]
    clock.advance(timedelta(days=30))
    warehouse.write(tables.VERDICTS, "northwind", [claim_verdict("c-disputed", "true")])
    rebuild_steward_queue(warehouse, clock=clock, method_version="v", subjects=["northwind"])
    assert read_steward_queue(warehouse, "northwind") == []


def test_table_cells_wrap_instead_of_being_cut_and_markdown_cells_are_escaped() -> None:
    text = text_table(["a", "b"], [["one two three four", "x|y"]], [7, 5])
    assert text.splitlines()[2:] == ["one two  x|y", "three", "four"]
    assert markdown_table(["a"], [["x|y\nz"]]).splitlines()[2] == "| x\\|y<br>z |"
