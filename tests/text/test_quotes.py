from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reliability_core.text.normalise import normalise_for_match
from reliability_core.text.numbers import value_written_in
from reliability_core.text.quotes import numbers_in_text, value_in_quote, verify_evidence_quote, verify_quote

PAGE = (
    "Northwind Annual Report 2022.\n\u201cWe installed 7.4\u00a0GW of offshore capacity in 2022 \u2014 "
    "our best year yet,\u201d said Jane Doe.\nRevenue rose to DKK 1.2 billion, up 12.5% on 2021."
)


def test_quote_found_verbatim_after_normalisation_is_verified_with_its_original_span() -> None:
    check = verify_quote('"We installed 7.4 GW of offshore capacity in 2022 - our best year yet,"', PAGE)
    assert check.verified
    assert check.start is not None and check.end is not None
    assert PAGE[check.start : check.end] == (
        "We installed 7.4\u00a0GW of offshore capacity in 2022 \u2014 our best year yet,"
    )


def test_quote_failing_verification_is_kept_and_marked_unverified() -> None:
    check = verify_quote("We installed 8.4 GW of offshore capacity in 2022", PAGE)
    assert not check.verified
    assert check.start is None and check.end is None
    assert "not found" in check.reason


def test_paraphrase_is_not_verified() -> None:
    assert not verify_quote("We put in 7.4 GW of offshore capacity during 2022", PAGE).verified


def test_empty_quote_is_not_verified() -> None:
    assert not verify_quote('  " "  ', PAGE).verified


@pytest.mark.parametrize(("quote", "verified"), [("x" * 19, False), ("Revenue rose to DKK 1", True)])
def test_evidence_quotes_must_be_20_to_600_characters(quote: str, verified: bool) -> None:
    page = "Revenue rose to DKK 1.2 billion " + "x" * 30
    assert verify_evidence_quote(quote, page).verified is verified


def test_evidence_quote_over_600_characters_is_refused_even_if_present() -> None:
    page = "word " * 400
    check = verify_evidence_quote(page[:700], page)
    assert not check.verified
    assert "more than 600" in check.reason


def test_length_bounds_are_optional() -> None:
    assert verify_quote("Jane Doe", PAGE).verified
    assert not verify_quote("Jane Doe", PAGE, min_chars=20).verified


def test_prenormalised_page_gives_the_same_answer() -> None:
    quote = "up 12.5% on 2021"
    assert verify_quote(quote, normalise_for_match(PAGE)) == verify_quote(quote, PAGE)


PAGE_TEXT = st.text(
    alphabet=st.sampled_from(list("abcdefghij ABCDEF.,;:!?0123456789'\"\u2019\u201c\u201d-\u2014\n\t\u00a0")),
    min_size=30,
    max_size=300,
)
PERTURB = {
    " ": [" ", "  ", "\u00a0", "\n", " \u200b"],
    "'": ["'", "\u2019", "\u2018"],
    "\u2019": ["'", "\u2019"],
    '"': ['"', "\u201c", "\u201d"],
    "\u201c": ['"', "\u201c"],
    "\u201d": ['"', "\u201d"],
    "-": ["-", "\u2013", "\u2014", " - "],
    "\u2014": ["-", "\u2013"],
}


@given(PAGE_TEXT, st.data())
@settings(max_examples=300, deadline=None)
def test_quote_cut_from_a_page_always_verifies_after_spacing_and_quote_style_changes(
    page: str, data: st.DataObject
) -> None:
    start = data.draw(st.integers(0, len(page) - 1))
    end = data.draw(st.integers(start + 1, len(page)))
    quote = page[start:end]
    assume(quote.strip(" \n\t\u00a0\"'\u2019\u201c\u201d"))
    perturbed = "".join(data.draw(st.sampled_from(PERTURB[ch])) if ch in PERTURB else ch for ch in quote)
    perturbed = perturbed.upper() if data.draw(st.booleans()) else perturbed
    check = verify_quote(perturbed, page)
    assert check.verified, (quote, perturbed)
    assert check.start is not None and check.end is not None


@given(PAGE_TEXT, st.data())
@settings(max_examples=200, deadline=None)
def test_verified_span_normalises_to_the_quote(page: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(page) - 1))
    end = data.draw(st.integers(start + 1, len(page)))
    quote = page[start:end]
    check = verify_quote(quote, page)
    if check.verified:
        assert check.start is not None and check.end is not None
        shown = normalise_for_match(page[check.start : check.end]).text
        needle = normalise_for_match(quote).text.strip(" \"'")
        assert needle in shown


@pytest.mark.parametrize(
    ("value", "quote", "percent", "found"),
    [
        (72.4, "accuracy reached 72.4 on the benchmark", False, True),
        (72.4, "accuracy reached 72.4% on the benchmark", True, True),
        (72.4, "accuracy reached 72.4 per cent", True, True),
        (72.4, "an accuracy of 0.724", True, True),
        (0.724, "accuracy reached 72.4%", False, True),
        # Issue 25: a percentage claim is never matched by the fraction reading of another
        # percentage (a claimed 0.5% is not "50%"), a scaled figure only at its scale, and a
        # year is not a value.
        (0.724, "accuracy reached 72.4%", True, False),
        (72.4, "an accuracy of 0.724", False, False),
        (72.4, "accuracy reached 72.5%", True, False),
        (72.4, "accuracy reached 724", True, False),
        (1_200_000_000, "1.2 billion users", False, True),
        (1_200_000_000, "1,200,000,000 users", False, True),
        (1_200_000_000, "DKK 1.2bn in revenue", False, True),
        (1.2, "1.2 billion users", False, False),
        (1_200, "1 200 tonnes", False, True),
        (1_200, "1\u00a0200 tonnes", False, True),
        (1_200, "1,200 tonnes", False, True),
        (12_500_000, "12.5 million homes", False, True),
        (7.4, "7.4 GW in 2022", False, True),
        (2022, "7.4 GW in 2022", False, False),
        (7.4, "17.4 GW in 2022", False, False),
        (4, "Q4 results", False, False),
        (72.4, "72,4 %", True, True),
        (3.2, "revenue fell \u22123.2% in the quarter", True, True),
        (28_000_000_000, "EBITDA above DKK 28 billion in 2025", False, True),
    ],
)
def test_value_must_appear_in_the_quote_in_a_common_written_form(
    value: float, quote: str, percent: bool, found: bool
) -> None:
    assert value_in_quote(value, quote, percent=percent) is found


def test_numbers_in_text_reads_separators_and_scales() -> None:
    found = numbers_in_text("1,234,567 and 2.5 million and 40%")
    assert [(float(n), pct, scale) for n, pct, scale in found] == [
        (1234567.0, False, 1),
        (2.5, False, 1_000_000),
        (40.0, True, 1),
    ]


@pytest.mark.parametrize(
    ("value", "unit", "text", "found"),
    [
        (300, "", "three hundred engineers", True),
        (25, "", "twenty-five sites", True),
        (1_500_000, "", "one and a half million homes", True),
        (500_000, "", "half a million homes", True),
        (12, "", "a dozen turbines", True),
        (1_200_000, "", "1.200.000 kr", True),
        (5_000_000, "", "5m users", True),
        (5, "", "5 m tall", True),
        (5_000_000, "", "5 m tall", False),
        (28, "DKK billion", "EBITDA of DKK 28,000 million", True),
        (72.4, "%", "an accuracy of 0.724", True),
        (4, "percentage points", "up 4 percentage points", True),
        (2_000_000, "", "20 lakh people", True),
        (300, "", "3,000 engineers", False),
        (15.2, "GW", "15.25 GW", False),
    ],
)
def test_the_number_reader_handles_common_written_forms_generally(
    value: float, unit: str, text: str, found: bool
) -> None:
    """[#15] "Number matching must handle common written forms generally": digits with any
    grouping, scale words and abbreviations, percentages, and numbers in words."""
    assert value_written_in(value, text, unit=unit) is found
