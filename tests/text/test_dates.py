"""The one reader of written times (text.dates) and the rules that read it: the deadline
in a promise's words, the period a factual claim names, the times an evidence quote names.
Forms per language family; CLDR month names through babel."""

from __future__ import annotations

import json
from datetime import date

import pytest

from reliability_core.claims.criteria_reading import named_period_end
from reliability_core.claims.wording import deadline_in_words
from reliability_core.text.dates import find_dates, month_names, month_number
from reliability_core.text.lexicon import LEXICON_ROOT, WEB_LANGUAGES
from reliability_core.verdicts.outcome_wording import times_named_in


def test_cldr_month_names_are_unambiguous_and_cover_every_language() -> None:
    from babel import Locale

    for lang in WEB_LANGUAGES:
        wide = Locale.parse(lang).months["format"]["wide"]
        for number, name in wide.items():
            if not any(ch.isdigit() for ch in name):
                assert month_number(name) == number, (lang, name)
    assert len(month_names()) > 300


@pytest.mark.parametrize(
    ("text", "first", "last", "precision"),
    [
        ("31 December 2026", date(2026, 12, 31), date(2026, 12, 31), "day"),  # Germanic, English
        ("31. Dezember 2026", date(2026, 12, 31), date(2026, 12, 31), "day"),
        ("31 de diciembre de 2026", date(2026, 12, 31), date(2026, 12, 31), "day"),  # Romance
        ("le 31 décembre 2026", date(2026, 12, 31), date(2026, 12, 31), "day"),
        ("31 декабря 2026 года", date(2026, 12, 31), date(2026, 12, 31), "day"),  # Slavic, genitive
        ("30. června 2027", date(2027, 6, 30), date(2027, 6, 30), "day"),
        ("czerwca 2027", date(2027, 6, 1), date(2027, 6, 30), "month"),
        ("2026年12月31日", date(2026, 12, 31), date(2026, 12, 31), "day"),  # CJK
        ("2027년 6월", date(2027, 6, 1), date(2027, 6, 30), "month"),
        ("ngày 31 tháng 12 năm 2026", date(2026, 12, 31), date(2026, 12, 31), "day"),  # Vietnamese
        ("בדצמבר 2026", date(2026, 12, 1), date(2026, 12, 31), "month"),  # Hebrew, attached "in"
        ("December 31, 2026", date(2026, 12, 31), date(2026, 12, 31), "day"),
        ("12/31/2026", date(2026, 12, 31), date(2026, 12, 31), "day"),
        ("Q3 2026", date(2026, 7, 1), date(2026, 9, 30), "quarter"),
        ("3. kvartal 2026", date(2026, 7, 1), date(2026, 9, 30), "quarter"),
        ("1. halvår 2026", date(2026, 1, 1), date(2026, 6, 30), "half"),
        ("Okt. 2026", date(2026, 10, 1), date(2026, 10, 31), "month"),
    ],
)
def test_forms_of_a_time(text: str, first: date, last: date, precision: str) -> None:
    (mention,) = find_dates(text)
    assert (mention.first, mention.last, mention.precision) == (first, last, precision)


@pytest.mark.parametrize("text", ["FY2026 guidance", "the 2024/25 season", "revenue of 2.026", "Phase 3"])
def test_not_a_time(text: str) -> None:
    assert find_dates(text) == []


def test_undotted_abbreviations_that_are_words_elsewhere_are_not_months() -> None:
    # "Sie" (German "you"), "out" (English) are Polish and Portuguese month abbreviations.
    assert [m.precision for m in find_dates("Haben Sie 2026 gewonnen?")] == ["year"]
    assert [m.precision for m in find_dates("we rolled out 2026 models")] == ["year"]
    assert [m.precision for m in find_dates("out. 2026")] == ["month"]


@pytest.mark.parametrize(
    ("quote", "deadline"),
    [
        ("We will be carbon neutral by 2030.", date(2030, 12, 31)),
        ("Vi vil være CO2-neutrale inden udgangen af 2030.", date(2030, 12, 31)),
        ("Wir werden bis Ende Juni 2027 alle Filialen umstellen.", date(2027, 6, 30)),
        ("Nous fermerons la centrale d'ici 2028.", date(2028, 12, 31)),
        ("Abriremos 40 tiendas antes de 2027.", date(2026, 12, 31)),
        ("Мы выйдем на безубыточность до конца 2026 года.", date(2026, 12, 31)),
        ("Zakończymy budowę do 30 czerwca 2027.", date(2027, 6, 30)),
        ("2030年までに排出量を半減させます。", date(2030, 12, 31)),
        ("我们将在2025年底前实现盈利。", date(2025, 12, 31)),
        ("2030년까지 탄소중립을 달성하겠습니다.", date(2030, 12, 31)),
        ("2028'e kadar 50 yeni mağaza açacağız.", date(2028, 12, 31)),
        ("سنفتتح المصنع بحلول 2027.", date(2027, 12, 31)),
        ("נשלים את הפרויקט עד 2029.", date(2029, 12, 31)),
        ("Chúng tôi sẽ hoàn thành trước năm 2027.", date(2026, 12, 31)),
        ("Kami akan menyelesaikannya paling lambat 2027.", date(2027, 12, 31)),
        ("We will open on 1 March 2027.", date(2027, 3, 1)),
    ],
)
def test_deadline_in_words_in_every_family(quote: str, deadline: date) -> None:
    assert deadline_in_words(quote) == deadline


def test_no_deadline_without_a_limit_in_the_words() -> None:
    assert deadline_in_words("Since 2015 we have grown every year.") is None
    assert deadline_in_words("We will grow next year.") is None


@pytest.mark.parametrize(
    ("quote", "end"),
    [
        ("Revenue in 2024 was DKK 28 billion, up from 2019 levels.", date(2024, 12, 31)),
        ("Der Umsatz stieg 2024 gegenüber 2019 um 12 %.", date(2024, 12, 31)),
        ("売上高は2019年以来で最高の2024年に達した。", date(2024, 12, 31)),
        ("Выручка в 2024 году выросла по сравнению с 2019 годом.", date(2024, 12, 31)),
        ("Revenue in Q3 2024 was a record.", date(2024, 9, 30)),
    ],
)
def test_the_period_a_factual_claim_names(quote: str, end: date) -> None:
    assert named_period_end(quote) == end


def test_two_periods_named_means_none() -> None:
    assert named_period_end("Revenue grew in 2023 and in 2024.") is None


def test_times_an_evidence_quote_names() -> None:
    assert times_named_in("Die Anlage ging bis Ende 2024 ans Netz.") == [date(2024, 12, 31)]
    assert times_named_in("工場は2024年末に稼働した") == [date(2024, 12, 31)]
    assert times_named_in("opened in June 2024") == [date(2024, 6, 1)]


def test_dates_lexicon_covers_every_language() -> None:
    for lang in WEB_LANGUAGES:
        data = json.loads((LEXICON_ROOT / "dates" / f"{lang}.json").read_text(encoding="utf-8"))
        concepts = data["concepts"]
        assert concepts["deadline_before"] or concepts["deadline_after"], lang


def test_a_restatement_date_is_anchored_by_the_same_day_in_the_quotes_language() -> None:
    from reliability_core.claims.restatement import restatement_unanchored

    quote = "Vi åbner fabrikken den 1. juni 2027."
    assert not [m for m in restatement_unanchored("Vi åbner fabrikken 1 June 2027.", quote) if "date" in m]
    wrong = restatement_unanchored("Vi åbner fabrikken 1 July 2027.", quote)
    assert any(m.startswith("date") for m in wrong)
