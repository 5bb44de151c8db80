"""The one sentence splitter, stemmer and figure reader of ``reliability_core.text``, as every
caller uses them (issue 23: each rule in exactly one function)."""

from reliability_core.text.numbers import figure_value
from reliability_core.text.privacy import PRIVATE_REDACTION, mask_private_life
from reliability_core.text.sentences import sentence_around, split_sentences
from reliability_core.text.stems import stem


def test_a_sentence_ends_before_a_new_sentence_starts_not_inside_an_abbreviation() -> None:
    text = 'We expect approx. 3 GW, e.g. offshore. "It is done," she said. 2025 was good!\nNext line'
    assert split_sentences(text) == [
        "We expect approx.",
        "3 GW, e.g. offshore.",
        '"It is done," she said.',
        "2025 was good!",
        "Next line",
    ]


def test_a_closing_quote_stays_with_its_sentence() -> None:
    assert split_sentences('He said "we will." The plant opened.') == ['He said "we will."', "The plant opened."]


def test_kept_breaks_give_the_text_back_exactly() -> None:
    line = "First one.  Second one?\tThird (one)."
    parts = split_sentences(line, keep_breaks=True)
    assert "".join(parts) == line
    assert parts[::2] == ["First one.", "Second one?", "Third (one)."]


def test_the_privacy_mask_replaces_only_the_private_sentence() -> None:
    text = "Revenue rose 4%. My wife was ill last year. We opened two plants."
    assert mask_private_life(text) == f"Revenue rose 4%. {PRIVATE_REDACTION} We opened two plants."


def test_the_sentence_around_a_quote_is_cut_at_the_same_breaks() -> None:
    text = "Intro line\nNorthwind said it installed 2.1 GW. Analysts agreed. Later."
    start = text.index("installed")
    assert sentence_around(text, start, start + 9) == "Northwind said it installed 2.1 GW."
    assert sentence_around(text, None, None) == ""


def test_one_stem_for_the_forms_of_a_word_and_figures_left_as_written() -> None:
    assert stem("installed") == stem("installs") == stem("installing") == "install"
    assert stem("1990s") == "1990s" and stem("gas") == "gas"


def test_a_figure_found_by_a_stand_in_pattern_is_read_by_the_one_reader() -> None:
    assert figure_value("8,200") == 8200.0 and figure_value("13.1") == 13.1
    assert figure_value("1,200,000") == 1_200_000.0
