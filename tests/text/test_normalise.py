from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reliability_core.text.normalise import normalise_for_match, normalised


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("\u201cCurly\u201d and \u2018single\u2019", "\"curly\" and 'single'"),
        ("\u201eGerman\u201c \u00abFrench\u00bb", '"german" "french"'),
        ("we\u2019ll and we'll and we`ll", "we'll and we'll and we'll"),
        ("2020\u20132025 \u2014 dash", "2020-2025-dash"),
        ("a \u2212 b", "a-b"),
        ("non\u2011breaking hyphen", "non-breaking hyphen"),
        ("wait\u2026", "wait..."),
        ("co\u00adop\u00aderate", "cooperate"),
        ("zero\u200bwidth\u200d join\ufeff", "zerowidth join"),
        ("nbsp\u00a0here\u202fthin\u2009space", "nbsp here thin space"),
        ("  lots \n\t of   space  ", "lots of space"),
        ("CASE Folding STRASSE Straße", "case folding strasse strasse"),
        ("\uff26\uff55\uff4c\uff4c\uff57\uff49\uff44\uff54\uff48", "fullwidth"),
        ("\ufb01nance", "finance"),  # ligature
        ("cafe\u0301", "caf\u00e9"),  # combining accent composes
        ("\u00bd", "1\u20442"),  # NFKC vulgar fraction
    ],
)
def test_normalisation_covers_spacing_quotes_dashes_ellipses_and_case(raw: str, expected: str) -> None:
    assert normalised(raw) == expected


def test_offset_map_points_back_to_the_original_text() -> None:
    original = "Intro.  \u201cWe\u2019ll  deliver\u00a01.2\u00a0GW\u201d, she said."
    result = normalise_for_match(original)
    needle = "we'll deliver 1.2 gw"
    index = result.text.index(needle)
    start, end = result.original_span(index, index + len(needle))
    assert original[start:end] == "We\u2019ll  deliver\u00a01.2\u00a0GW"


def test_offset_map_covers_expansions_and_removals() -> None:
    original = "x\u2026y co\u00adop \ufb01ne"
    result = normalise_for_match(original)
    assert len(result.offsets) == len(result.text) + 1
    index = result.text.index("coop")
    assert original[slice(*result.original_span(index, index + 4))] == "co\u00adop"
    index = result.text.index("fine")
    assert original[slice(*result.original_span(index, index + 4))] == "\ufb01ne"


def test_original_span_of_a_combining_sequence_includes_the_mark() -> None:
    original = "un cafe\u0301 noir"
    result = normalise_for_match(original)
    index = result.text.index("café")
    assert original[slice(*result.original_span(index, index + 4))] == "cafe\u0301"


def test_original_span_rejects_spans_outside_the_text() -> None:
    with pytest.raises(ValueError):
        normalise_for_match("abc").original_span(2, 10)


WORDS = st.text(
    alphabet=st.characters(
        codec="utf-8",
        categories=("Lu", "Ll", "Lt", "Lo", "Nd", "Po", "Pd", "Pi", "Pf", "Zs", "Sm", "Sc", "Cf", "Mn"),
    ),
    max_size=80,
)


@given(WORDS)
@settings(max_examples=300, deadline=None)
def test_normalising_twice_changes_nothing(text: str) -> None:
    once = normalised(text)
    assert normalised(once) == once


@given(st.text(max_size=200))
@settings(max_examples=300, deadline=None)
def test_offset_map_is_monotone_and_within_the_original(text: str) -> None:
    result = normalise_for_match(text)
    offsets = list(result.offsets)
    assert len(offsets) == len(result.text) + 1
    assert offsets == sorted(offsets)
    assert all(0 <= offset <= len(text) for offset in offsets)
