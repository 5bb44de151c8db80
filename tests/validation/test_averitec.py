"""AVeriTeC dev import: read from ../shared, never copied into the project."""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from reliability_core.settings import settings
from reliability_core.validation.averitec import (
    averitec_record_to_gold,
    import_averitec,
    map_averitec_label,
)
from reliability_core.validation.gold import gold_to_jsonl, item_issues, parse_gold_lines

AVERITEC = settings().averitec


@pytest.mark.parametrize(
    ("label", "verdict"),
    [
        ("Supported", "true"),
        ("Refuted", "false"),
        ("Not Enough Evidence", "unresolvable"),
        ("Conflicting Evidence/Cherrypicking", "mixed"),
    ],
)
def test_averitec_labels_map_to_our_verdicts(label: str, verdict: str) -> None:
    assert map_averitec_label(label) == verdict


def test_unknown_averitec_label_is_refused() -> None:
    with pytest.raises(ValueError):
        map_averitec_label("Pants on fire")


def test_question_answer_evidence_becomes_frozen_evidence_with_unknown_source_class() -> None:
    record = {
        "claim": "The mayor cut the budget by 10% in 2019.",
        "claim_date": "05-03-2020",
        "label": "Refuted",
        "speaker": None,
        "justification": "It rose.",
        "questions": [
            {
                "question": "Did the budget fall in 2019?",
                "answers": [
                    {
                        "answer": "No",
                        "answer_type": "Boolean",
                        "boolean_explanation": "It rose by 2%.",
                        "source_url": "https://city.example/budget",
                        "source_medium": "Web text",
                    },
                    {
                        "answer": "No answer could be found.",
                        "answer_type": "Unanswerable",
                        "source_url": "",
                        "source_medium": "",
                    },
                ],
            }
        ],
    }
    item = averitec_record_to_gold(record, 7)
    assert item.id == "averitec-dev-007"
    assert item.made_on == date(2020, 3, 5) and item.label == "false"
    assert [e.quote for e in item.evidence] == ["No. It rose by 2%."]
    assert item.evidence[0].source_class == "unknown"
    assert item_issues(item) == []


def test_real_averitec_dev_set_imports_500_valid_items() -> None:
    if not AVERITEC.exists():
        pytest.skip(
            f"AVeriTeC dev set not present at {AVERITEC} (CC BY-NC data is not copied into the project)"
        )
    items = import_averitec(AVERITEC)
    assert len(items) == 500
    assert Counter(i.label for i in items) == Counter(
        {"false": 305, "true": 122, "mixed": 38, "unresolvable": 35}
    )
    assert all(i.source == "averitec-dev" for i in items)
    assert sum(1 for i in items if i.evidence) > 450
    _, validation = parse_gold_lines(gold_to_jsonl(items).splitlines())
    assert validation.issues == []


def test_averitec_data_is_not_copied_into_the_project() -> None:
    project = Path(__file__).resolve().parents[2]
    assert not any(
        p.name == "dev.json" and "averitec" in str(p).lower() for p in (project / "data").rglob("*.json")
    )
