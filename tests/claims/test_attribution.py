"""[M] step 4 attribution rules: speaker, paraphrase, privacy, party politics,
claim type, promises and stated probabilities."""

from __future__ import annotations

from datetime import date

import pytest

from reliability_core.claims.claim_type import (
    is_checkable_promise,
    is_company_guidance,
    is_party_political,
    resolve_claim_type,
)
from reliability_core.claims.speaker import drop_reason_for, is_about_private_life
from reliability_core.claims.stated_probability import parse_stated_probability, record_stated_probability
from reliability_core.text.privacy import mentions_private_life
from tests.claims.claim_builders import reading


@pytest.mark.parametrize(
    "text",
    [
        "My wife and I moved to the coast last year.",
        "I spent the summer with my children.",
        "His health has been poor since the surgery.",
        "She was diagnosed in March.",
        "He lives in Hellerup with his family.",
        "We took a long holiday in Italy.",
    ],
)
def test_private_life_backstop_catches_family_health_home_and_location(text: str) -> None:
    assert mentions_private_life(text)


@pytest.mark.parametrize(
    "text",
    [
        "Our health programmes reached 2 million people in 2022.",
        "Denmark remains our home market.",
        "We will install 5 GW of offshore wind by 2025.",
        "Our deworming work reached 4 million children in 2021.",
    ],
)
def test_private_life_backstop_leaves_organisations_professional_statements_alone(text: str) -> None:
    assert not mentions_private_life(text)


def test_private_life_flag_of_the_model_drops_even_without_keywords() -> None:
    assert is_about_private_life(True, "It was a hard year for all of us.")
    assert (
        drop_reason_for(reading(0, private_life=True), "It was a hard year for all of us.") == "private_life"
    )


def test_private_life_is_the_drop_reason_even_when_another_person_speaks() -> None:
    other = reading(0, is_subject=False, speaker="Lars Holm")
    assert drop_reason_for(other, "My daughter starts school next week.") == "private_life"


def test_statements_by_other_people_are_dropped() -> None:
    assert (
        drop_reason_for(reading(0, is_subject=False, speaker="Lars Holm"), "Prices will fall.")
        == "other_speaker"
    )


def test_reported_paraphrases_are_dropped() -> None:
    assert drop_reason_for(reading(0, paraphrase=True), "Northwind said that it would grow.") == "paraphrase"


def test_subject_statement_is_kept() -> None:
    assert drop_reason_for(reading(0), "In 2021 we installed 1.2 GW of capacity.") is None


def test_party_political_claims_are_flagged_by_model_or_wording() -> None:
    assert is_party_political(True, "We support the reform.")
    assert is_party_political(False, "The Social Democrats will win the next election.")
    assert is_party_political(False, "The climate bill should pass before summer.")
    assert not is_party_political(False, "We will install 5 GW by 2025.")


def test_company_guidance_is_classified_as_a_prediction() -> None:
    text = "We expect EBITDA above DKK 28 billion in 2025."
    assert is_company_guidance(text)
    assert resolve_claim_type("promise", company_guidance=True) == "prediction"
    assert resolve_claim_type("promise", company_guidance=False) == "promise"
    assert not is_company_guidance("We expect the weather to improve.")


def test_promise_needs_a_deliverable_or_target_with_a_date() -> None:
    assert is_checkable_promise(True, date(2030, 12, 31))
    assert not is_checkable_promise(True, None)  # a target with no date
    assert not is_checkable_promise(False, date(2030, 12, 31))  # an intention with a date


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It is 70% likely that prices fall.", (0.70, "exact")),
        ("There is a 70% chance of approval.", (0.70, "exact")),
        ("We see a probability of 60% for the merger.", (0.60, "exact")),
        ("It is more than 10% likely.", (0.10, "lower_bound")),
        ("There is at least a 30% chance.", (0.30, "lower_bound")),
        ("There is at least 30% chance of delay.", (0.30, "lower_bound")),
        ("There is less than a 20% chance of delay.", (0.20, "upper_bound")),
    ],
)
def test_stated_probability_is_exact_or_a_bound(text: str, expected: tuple[float, str]) -> None:
    parsed = parse_stated_probability(text)
    assert parsed is not None
    assert parsed[0] == pytest.approx(expected[0])
    assert parsed[1] == expected[1]


def test_a_percentage_that_is_not_a_probability_is_not_one() -> None:
    assert parse_stated_probability("Revenue grew 10% in 2021.") is None


def test_words_decide_a_bound_even_when_the_model_called_it_exact() -> None:
    value, kind = record_stated_probability(0.1, "exact", "It is more than 10% likely that we sell the unit.")
    assert value == pytest.approx(0.1)
    assert kind == "lower_bound"


def test_model_probability_in_percent_is_recorded_as_a_fraction_and_invalid_ones_dropped() -> None:
    value, kind = record_stated_probability(70.0, "exact", "We put approval at 70 out of 100.")
    assert value == pytest.approx(0.7)
    assert kind == "exact"
    assert record_stated_probability(250.0, "exact", "Very likely.") == (None, None)


def test_probability_inferred_from_hedged_words_is_not_recorded() -> None:
    assert record_stated_probability(0.7, "exact", "We think approval is likely.") == (None, None)
    assert record_stated_probability(70.0, None, "Growth should return next year.") == (None, None)


def test_a_model_probability_without_words_stating_one_is_not_recorded_rule_6() -> None:
    """[#15] rule 6: "likely" is no probability, whatever value the model proposes."""
    assert record_stated_probability(70.0, "exact", "We think approval is likely.") == (None, None)
    assert record_stated_probability(0.6, "exact", "Approval is expected.") == (None, None)
    assert record_stated_probability(None, None, "We expect growth.") == (None, None)


@pytest.mark.parametrize(
    "text",
    [
        "I now live on a houseboat in Amsterdam",
        "My doctor told me to cut back on travel after my heart scare",
        "We live in Oslo now",
        "I was in hospital for a week",
        "I am expecting my second child in the autumn",
    ],
)
def test_where_someone_lives_and_their_health_are_private_life(text: str) -> None:
    assert mentions_private_life(text)


@pytest.mark.parametrize(
    "text",
    [
        "We live in a world of rising demand",
        "we live in interesting times",
        "the heart of our strategy is offshore wind",
        "our health programmes reached 2 million people",
    ],
)
def test_figures_of_speech_and_organisational_health_are_not_private_life(text: str) -> None:
    assert not mentions_private_life(text)


def test_private_sentences_are_withheld_from_stored_snippets_and_the_rest_kept() -> None:
    from reliability_core.text.privacy import PRIVATE_REDACTION, mask_private_life

    text = "Northwind added 1.2 GW in 2021. I now live on a houseboat in Amsterdam. Revenue rose 4%."
    redacted = mask_private_life(text)
    assert "houseboat" not in redacted
    assert redacted == f"Northwind added 1.2 GW in 2021. {PRIVATE_REDACTION} Revenue rose 4%."
    assert mask_private_life("Revenue rose 4%.") == "Revenue rose 4%."


def test_masking_page_text_keeps_every_line_and_every_other_sentence_as_received() -> None:
    from reliability_core.text.privacy import PRIVATE_REDACTION, mask_private_life

    page = (
        "Northwind names Lund\n"
        "Freja Lund said: \u201cMy wife and I moved to Oakland for her job last year.\u201d "
        "She added: \u201cWe will build 3 GW by 2030.\u201d\n"
        "\n"
        "Revenue rose 4% (see table)! Is that enough? My doctor told me to rest\u2026 We grew."
    )
    masked = mask_private_life(page)
    assert masked.split("\n")[0] == "Northwind names Lund"
    assert masked.split("\n")[1] == f"{PRIVATE_REDACTION} She added: \u201cWe will build 3 GW by 2030.\u201d"
    assert masked.split("\n")[2] == ""
    assert masked.split("\n")[3] == f"Revenue rose 4% (see table)! Is that enough? {PRIVATE_REDACTION} We grew."
    assert mask_private_life(masked) == masked  # masking twice changes nothing


def test_a_statement_that_needs_a_masked_sentence_is_about_private_life() -> None:
    from reliability_core.text.privacy import PRIVATE_REDACTION

    assert mentions_private_life(f"We grew. {PRIVATE_REDACTION}")
    assert is_about_private_life(False, "We will build 3 GW.", f"{PRIVATE_REDACTION} She added:")
