"""The gold-set JSONL format: round-trip and validation issues with line numbers."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from reliability_core.models import CriteriaLevels, GoldEvidence, GoldItem
from reliability_core.validation.gold import (
    TRAP_TAGS,
    GoldFormatError,
    load_gold,
    parse_gold_lines,
    quote_in_page_text,
    save_gold,
    validate_gold_file,
)

LEVELS = CriteriaLevels(
    true="The report shows 7.4 GW or more.",
    mostly_true="The report shows between 7.0 and 7.4 GW.",
    mixed="The report shows between 6.0 and 7.0 GW.",
    mostly_false="The report shows between 5.0 and 6.0 GW.",
    false="The report shows less than 5.0 GW.",
)


def make_item(item_id: str = "g-001", **changes: object) -> GoldItem:
    data: dict[str, object] = {
        "id": item_id,
        "claim": "In 2022 we installed 7.4 GW of offshore capacity.",
        "claim_type": "factual",
        "subject_kind": "company",
        "made_on": date(2023, 3, 1),
        "criteria": LEVELS,
        "judge_at": date(2023, 3, 1),
        "evidence": [
            GoldEvidence(
                url="https://wire.example/2023/northwind",
                quote="reported 7.4 GW of installed offshore capacity",
                source_class="wire_service",
                page_text="In its 2022 annual report, Northwind reported 7.4 GW of installed offshore capacity.",
            )
        ],
        "label": "true",
        "trap_tags": ["tie_more_than"],
    }
    data.update(changes)
    return GoldItem.model_validate(data)


def test_gold_items_round_trip_through_jsonl(tmp_path: Path) -> None:
    items = [make_item("g-001"), make_item("g-002", label="unresolvable", trap_tags=["vague", "private"])]
    path = save_gold(items, tmp_path / "gold.jsonl")
    assert load_gold(path) == items
    assert len(path.read_text(encoding="utf-8").splitlines()) == 2


def test_invalid_json_line_is_reported_with_its_line_number(tmp_path: Path) -> None:
    path = tmp_path / "gold.jsonl"
    path.write_text(make_item().model_dump_json() + "\n{not json\n", encoding="utf-8")
    validation = validate_gold_file(path)
    assert validation.items == 1
    assert [(i.line, i.message.startswith("not JSON")) for i in validation.issues] == [(2, True)]
    with pytest.raises(GoldFormatError):
        load_gold(path)


def test_an_invalid_utf8_byte_is_an_issue_on_its_line_and_the_other_lines_are_still_read(
    tmp_path: Path,
) -> None:
    # Issue 26 §6: one stray byte crashed validation with a traceback and no line number.
    good = make_item("g-001").model_dump_json().encode() + b"\r\n"
    bad = make_item("g-002").model_dump_json().encode().replace(b"7.4 GW", b"7.4 GW\xff", 1) + b"\n"
    path = tmp_path / "gold.jsonl"
    path.write_bytes(good + bad + make_item("g-003").model_dump_json().encode() + b"\n{not json\n")
    validation = validate_gold_file(path)
    assert validation.items == 2
    assert [i.line for i in validation.issues] == [2, 4]
    undecodable = validation.issues[0]
    assert undecodable.message.startswith("not UTF-8: byte 0xff at byte offset ")
    offset = int(undecodable.message.split("byte offset ")[1].split()[0])
    assert path.read_bytes()[offset] == 0xFF and offset == len(good) + bad.index(b"\xff")
    with pytest.raises(GoldFormatError, match="line 2: not UTF-8"):
        load_gold(path)


def test_unknown_verdict_label_is_a_validation_issue() -> None:
    data = json.loads(make_item().model_dump_json())
    data["label"] = "pants_on_fire"
    _, validation = parse_gold_lines([json.dumps(data)])
    assert validation.issues[0].item_id == "g-001"
    assert "label" in validation.issues[0].message


def test_unknown_field_is_a_validation_issue() -> None:
    data = json.loads(make_item().model_dump_json())
    data["verdict_hint"] = "true"
    _, validation = parse_gold_lines([json.dumps(data)])
    assert not validation.ok


def test_duplicate_ids_are_refused() -> None:
    line = make_item().model_dump_json()
    items, validation = parse_gold_lines([line, line])
    assert len(items) == 1
    assert "duplicate id" in validation.issues[0].message
    with pytest.raises(ValueError):
        save_gold([make_item(), make_item()], Path("/nonexistent/never-written.jsonl"))


def test_unknown_trap_tag_is_a_validation_issue() -> None:
    _, validation = parse_gold_lines([make_item(trap_tags=["sarcasm"]).model_dump_json()])
    assert "unknown trap tag" in validation.issues[0].message


def test_frozen_evidence_quote_must_be_in_its_page_text() -> None:
    evidence = GoldEvidence(
        url="https://wire.example/x",
        quote="reported 9.9 GW",
        source_class="wire_service",
        page_text="reported 7.4 GW",
    )
    _, validation = parse_gold_lines([make_item(evidence=[evidence]).model_dump_json()])
    assert "quote not found" in validation.issues[0].message


def test_quote_match_normalises_spacing_and_quotation_marks() -> None:
    assert quote_in_page_text("we said “yes”  today", 'Then we said "yes"\ntoday.')
    assert not quote_in_page_text("", "anything")


def test_judge_date_before_claim_date_is_a_validation_issue() -> None:
    _, validation = parse_gold_lines([make_item(judge_at=date(2020, 1, 1)).model_dump_json()])
    assert "before made_on" in validation.issues[0].message


def test_stated_probability_belongs_to_predictions_only() -> None:
    _, validation = parse_gold_lines([make_item(stated_probability=0.7).model_dump_json()])
    assert "only meaningful on a prediction" in validation.issues[0].message


def test_trap_coverage_lists_every_tag_and_what_is_missing() -> None:
    _, validation = parse_gold_lines([make_item().model_dump_json()])
    assert set(validation.trap_coverage) == set(TRAP_TAGS)
    assert validation.trap_coverage["tie_more_than"] == 1
    assert "vague" in validation.missing_trap_tags
