"""Stated probabilities in every language the subjects write (issue 25; [#15] rule 6: "A
stated probability is one the words state ("70% likely", "a one-in-three chance");
"likely" or "expected" is no probability; bounds stay bounds")."""

from __future__ import annotations

import pytest

from reliability_core.claims.comparisons import explicit_comparisons
from reliability_core.claims.stated_probability import (
    parse_stated_probability,
    record_stated_probability,
    remove_stated_probability,
)
from reliability_core.text.lexicon import WEB_LANGUAGES, area_lexicon


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # Germanic
        ("Det er 70 % sandsynligt, at handlen gennemføres i år.", 0.70),
        ("Die Übernahme kommt mit 70-prozentiger Wahrscheinlichkeit zustande.", 0.70),
        ("Die Wahrscheinlichkeit liegt bei 40 Prozent.", 0.40),
        ("Er is 60 procent kans dat de fusie doorgaat.", 0.60),
        ("Sannolikheten är 25 procent att projektet stoppas.", 0.25),
        ("Det er 80 prosent sannsynlig at avtalen signeres.", 0.80),
        # Romance
        ("Il y a 70 % de chances que la fusion aboutisse.", 0.70),
        ("Hay una probabilidad del 65 % de que se apruebe.", 0.65),
        ("C'è una probabilità del 30% che il progetto slitti.", 0.30),
        ("Há uma probabilidade de 55% de aprovação.", 0.55),
        # Slavic
        ("С вероятностью 70% сделка будет закрыта.", 0.70),
        ("Z prawdopodobieństwem 70% transakcja zostanie zamknięta.", 0.70),
        ("Ймовірність 35% що угоду скасують.", 0.35),
        ("Pravděpodobnost 20 % že se projekt zpozdí.", 0.20),
        # CJK
        ("70%の確率で承認される見通し。", 0.70),
        ("承認の確率は40%とみられる。", 0.40),
        ("7割の確率で実現する。", 0.70),
        ("有70%的可能性获批。", 0.70),
        ("승인될 확률은 70%다.", 0.70),
        # Semitic
        ("هناك احتمال بنسبة 70% أن تتم الصفقة.", 0.70),
        ("יש סיכוי של 70% שהעסקה תיסגר.", 0.70),
        # Turkic / Persian
        ("%70 ihtimalle onaylanacak.", 0.70),
        ("Yüzde 40 olasılıkla ertelenecek.", 0.40),
        ("احتمال ۷۰ درصد وجود دارد که قرارداد امضا شود.", 0.70),
        # Vietnamese / Indonesian
        ("Khả năng 70% dự án được phê duyệt.", 0.70),
        ("Ada kemungkinan 70% kesepakatan disetujui.", 0.70),
    ],
)
def test_a_percentage_beside_a_probability_word_is_an_exact_stated_probability(
    text: str, value: float
) -> None:
    parsed = parse_stated_probability(text)
    assert parsed is not None
    assert parsed[0] == pytest.approx(value)
    assert parsed[1] == "exact"


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("Es ist mehr als 10 % wahrscheinlich, dass der Verkauf scheitert.", 0.10, "lower_bound"),
        ("Il y a au moins 30 % de chances de retard.", 0.30, "lower_bound"),
        ("Hay menos de un 20 % de probabilidad de retraso.", 0.20, "upper_bound"),
        ("Вероятность не менее 60%.", 0.60, "lower_bound"),
        ("Der er under 5 % sandsynlighed for en nedskrivning.", 0.05, "upper_bound"),
        ("成功的可能性不到30%。", 0.30, "upper_bound"),
        ("Olasılık en az %50.", 0.50, "lower_bound"),
    ],
)
def test_a_bound_on_a_stated_probability_stays_a_bound(text: str, value: float, kind: str) -> None:
    parsed = parse_stated_probability(text)
    assert parsed is not None
    assert parsed[0] == pytest.approx(value)
    assert parsed[1] == kind


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("There is a one in three chance of a recession.", 1 / 3),
        ("Die Chancen stehen eins zu drei.", 1 / 3),
        ("Il y a une chance sur trois que le projet soit retardé.", 1 / 3),
        ("Hay uno de cada tres posibilidades de retraso.", 1 / 3),
        ("Шанс один из трёх.", 1 / 3),
        ("三分の一の確率で延期される。", 1 / 3),
        ("三分之一的可能性", 1 / 3),
        ("üçte bir ihtimalle ertelenecek.", 1 / 3),
        ("Er is een kans van één op tien.", 1 / 10),
    ],
)
def test_odds_in_words_are_a_stated_probability(text: str, value: float) -> None:
    parsed = parse_stated_probability(text)
    assert parsed is not None
    assert parsed[0] == pytest.approx(value)


@pytest.mark.parametrize(
    "text",
    [
        "The 70% stake is likely to be sold.",
        "Growth of 70% is likely.",
        "Der Umsatz wächst wahrscheinlich um 10 %.",
        "Det er sandsynligt, at omsætningen stiger 10 %.",
        "La fusión es probable; la cuota es del 30 %.",
        "Выручка, вероятно, вырастет на 10%.",
        "売上高は10%増える可能性が高い。",
        "One in three employees works remotely.",
        "Un salarié sur trois travaille à distance.",
        "Revenue grew 10% in 2021.",
        "The probability of a 10% decline is low.",
        "Es ist wahrscheinlich.",
    ],
)
def test_a_probability_word_alone_or_a_percentage_about_something_else_is_no_probability(text: str) -> None:
    assert parse_stated_probability(text) is None


def test_removing_a_stated_probability_keeps_the_other_figures_and_their_places() -> None:
    text = "Es ist mehr als 10 % wahrscheinlich, dass wir 5 GW erreichen."
    blanked = remove_stated_probability(text)
    assert len(blanked) == len(text)
    assert "10" not in blanked and "mehr als" not in blanked
    assert blanked.index("5 GW") == text.index("5 GW")
    assert explicit_comparisons(blanked) == ["ge"]


def test_the_words_decide_a_bound_the_model_called_exact_in_another_language() -> None:
    value, kind = record_stated_probability(0.3, "exact", "Il y a au moins 30 % de chances de retard.")
    assert value == pytest.approx(0.3)
    assert kind == "lower_bound"


def test_a_hedge_the_model_read_as_a_probability_is_not_recorded_in_another_language() -> None:
    assert record_stated_probability(0.7, "exact", "Die Übernahme ist wahrscheinlich.") == (None, None)


REQUIRED = (
    "prob_noun",
    "link_noun_amount",
    *(f"num_{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 1000)),
)


def test_every_concept_of_the_probability_area_has_words_in_every_web_language() -> None:
    lexicon = area_lexicon("probability")
    for concept in REQUIRED:
        missing = [lang for lang in WEB_LANGUAGES if lang not in lexicon.languages(concept)]
        assert not missing, f"{concept}: no words in {missing}"
    odds = set(lexicon.languages("odds_link")) | set(lexicon.languages("odds_link_reversed"))
    assert not [lang for lang in WEB_LANGUAGES if lang not in odds]


def test_a_percentage_is_never_the_whole_of_an_odds_form() -> None:
    # "eine ... von 70" reads like "one in 70" until the per cent word after 70 says otherwise.
    assert parse_stated_probability("Wir sehen eine Wahrscheinlichkeit von 70 Prozent, dass es gelingt.") == (
        0.7,
        "exact",
    )
    assert parse_stated_probability("une chance sur trois") is not None


def test_texts_without_a_probability_word_are_skipped_without_changing_a_reading(monkeypatch) -> None:
    """The reader skips a text with no probability noun, adjective or lead word (issue 29's
    speed); reading every text in full must find exactly the same probabilities, including
    a noun written straight against its figure, where the full reading cuts the text at the
    figure."""
    import dataclasses
    import re

    import reliability_core.claims.stated_probability as sp

    texts = [
        "There is a 70% chance the plant opens in 2027.",
        "Die Wahrscheinlichkeit70 % ist hoch.",
        "une chance sur trois",
        "70%の確率で開業する",
        "Revenue grew 70% in 2025, more than 10% above plan.",
        "more than 10% likely",
        "احتمال ۷۰ درصد",
        "The stake is 70%; the sale is likely.",
    ]
    fast = [sp.parse_stated_probability(t) for t in texts] + [sp.remove_stated_probability(t) for t in texts]
    full = dataclasses.replace(sp._patterns(), any_probability_word=re.compile(""))
    monkeypatch.setattr(sp, "_patterns", lambda: full)
    sp._stated_uncached.cache_clear()
    try:
        slow = [sp.parse_stated_probability(t) for t in texts] + [sp.remove_stated_probability(t) for t in texts]
    finally:
        sp._stated_uncached.cache_clear()
    assert fast == slow
    assert fast[0] == (0.7, "exact") and fast[4] is None
