"""The held-out language cases (issue 25) are well formed: every file parses, every case has the fields its
kind's call needs, every language of the web set is covered by every kind with positives and look-alikes.
These tests check the benchmark's data, never whether the code passes it."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from benchmarks.bench_languages import CASES_DIR, KINDS, LANGUAGES, is_positive
from reliability_core.text.lexicon import WEB_LANGUAGES

COMMON_FIELDS = {"id", "lang", "kind", "form", "register", "text", "expected"}
KIND_FIELDS = {
    "t1": {"value", "unit"},
    "operator_conflict": {"figure", "figure_start", "figure_end"},
    "other_speaker": {"quote", "subject_names"},
}
OPERATORS = {"gt", "ge", "lt", "le", "eq"}
REGISTERS = {"company_report", "news", "statistics", "interview"}
MINIMUM_EACH_SIDE = 4


def _cases(kind: str) -> list[dict[str, Any]]:
    path = CASES_DIR / f"{kind}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_benchmark_covers_the_languages_every_backstop_must_cover() -> None:
    assert set(LANGUAGES) == set(WEB_LANGUAGES)


def test_every_case_file_is_there_and_no_other() -> None:
    assert {p.stem for p in CASES_DIR.glob("*.jsonl")} == set(KINDS)


@pytest.mark.parametrize("kind", KINDS)
def test_every_case_has_its_kinds_fields_and_a_known_language(kind: str) -> None:
    cases = _cases(kind)
    assert cases
    for case in cases:
        assert COMMON_FIELDS | KIND_FIELDS.get(kind, set()) <= set(case), case["id"]
        assert case["kind"] == kind and case["lang"] in LANGUAGES and case["register"] in REGISTERS, case[
            "id"
        ]
        assert isinstance(case["text"], str) and case["text"].strip(), case["id"]


@pytest.mark.parametrize("kind", KINDS)
def test_case_ids_are_unique(kind: str) -> None:
    counts = Counter(case["id"] for case in _cases(kind))
    assert [i for i, n in counts.items() if n > 1] == []


@pytest.mark.parametrize("kind", KINDS)
def test_every_language_has_positives_and_look_alikes(kind: str) -> None:
    sides = Counter((case["lang"], is_positive(case)) for case in _cases(kind))
    thin = [
        (lang, side)
        for lang in LANGUAGES
        for side in (True, False)
        if sides[(lang, side)] < MINIMUM_EACH_SIDE
    ]
    assert thin == []


def test_expected_answers_have_the_shape_of_their_kinds_answer() -> None:
    for case in _cases("operator"):
        assert case["expected"] in OPERATORS, case["id"]
    for case in _cases("operator_conflict"):
        assert set(case["expected"]) <= OPERATORS - {"eq"}, case["id"]
    for case in _cases("probability"):
        expected = case["expected"]
        assert expected is None or (
            0 <= expected[0] <= 1 and expected[1] in {"exact", "lower_bound", "upper_bound"}
        ), case["id"]
    for kind in ("t1", "privacy", "reported_speech", "other_speaker", "party_politics", "guidance"):
        for case in _cases(kind):
            assert isinstance(case["expected"], bool), case["id"]


def test_a_conflict_cases_offsets_point_at_its_figure() -> None:
    for case in _cases("operator_conflict"):
        assert case["text"][case["figure_start"] : case["figure_end"]] == case["figure"], case["id"]


def test_an_other_speaker_cases_quote_is_inside_its_sentence() -> None:
    for case in _cases("other_speaker"):
        assert case["quote"] in case["text"], case["id"]
        assert case["subject_names"] and all(isinstance(n, str) and n for n in case["subject_names"]), case[
            "id"
        ]


def test_t1_values_are_numbers_and_units_strings() -> None:
    for case in _cases("t1"):
        assert isinstance(case["value"], int | float) and isinstance(case["unit"], str), case["id"]
