"""The starter gold set: at least 80 synthetic items, every trap covered, every line valid."""

from __future__ import annotations

from pathlib import Path

from reliability_core.validation.gold import TRAP_TAGS, load_gold, validate_gold_file

STARTER = Path(__file__).resolve().parents[2] / "data" / "gold" / "starter.jsonl"


def test_starter_gold_set_validates_without_issues() -> None:
    validation = validate_gold_file(STARTER)
    assert validation.issues == []
    assert validation.items >= 80


def test_starter_gold_set_covers_every_trap_tag() -> None:
    validation = validate_gold_file(STARTER)
    assert validation.missing_trap_tags == []
    assert set(validation.trap_coverage) == set(TRAP_TAGS)


def test_starter_gold_items_are_all_marked_synthetic() -> None:
    assert {item.source for item in load_gold(STARTER)} == {"synthetic"}


def test_starter_gold_set_has_every_verdict_and_scoreable_predictions() -> None:
    items = load_gold(STARTER)
    assert {i.label for i in items} == {
        "true",
        "mostly_true",
        "mixed",
        "mostly_false",
        "false",
        "unresolvable",
    }
    assert sum(1 for i in items if i.stated_probability is not None) >= 5
