"""T1 in the languages the subjects write (issue 25): the value inside a quote is found only
when figure, scale and unit agree, and a year, date, reference, label or note marker is never
a value. Sentences are written the way company reports, newsrooms and statistics offices of
each language family write numbers."""

from __future__ import annotations

import pytest

from reliability_core.text.lexicon import WEB_LANGUAGES, area_lexicon
from reliability_core.text.numbers import VALUE, parse_numbers, read_unit, value_written_in

Case = tuple[float, str, str]

# --- must match: (value, unit, text) --------------------------------------------------------------

GERMANIC: list[Case] = [
    (28.5, "DKK billion", "Omsætningen steg til 28,5 mia. kr. i 2024."),
    (28_500, "DKK million", "Omsætningen steg til 28,5 mia. kr. i 2024."),
    (3, "EUR billion", "Der Umsatz stieg im Geschäftsjahr auf 3 Mrd. Euro."),
    (1.2, "billion", "Der Konzern investierte 1,2 Milliarden Euro in neue Netze."),
    (450, "EUR million", "Das EBIT lag bei 450 Mio. € nach 410 Mio. € im Vorjahr."),
    (4.2, "%", "Die Arbeitslosenquote lag im Juni bei 4,2\u00a0%."),
    (4.2, "%", "Die Inflationsrate betrug 4,2 Prozent."),
    (3, "million", "Das Unternehmen hat inzwischen drei Millionen Kunden."),
    (12.5, "SEK billion", "Nettoomsättningen uppgick till 12,5 miljarder kronor."),
    (7, "%", "Arbeidsledigheten steg til 7 prosent i fjor."),
    (2.1, "EUR billion", "De omzet steeg naar 2,1 miljard euro."),
    (600, "MW", "Het windpark levert 600 MW aan het net."),
    (1234.5, "CHF", "Der Gewinn je Aktie betrug CHF 1\u2019234.5."),
    (0.5, "", "Die Hälfte der Kunden nutzt die App."),
]
ROMANCE: list[Case] = [
    (3, "EUR billion", "Le chiffre d'affaires a atteint 3 milliards d'euros en 2024."),
    (12, "%", "Les émissions ont baissé de 12\u202f% depuis 2018."),
    (12, "%", "Les émissions ont baissé de 12 pour cent."),
    (300, "", "L'entreprise emploie trois cents personnes à Lyon."),
    (1 / 3, "", "Un tiers des salariés travaille à distance."),
    (28, "EUR billion", "Los ingresos alcanzaron 28.000 millones de euros."),
    (2000, "", "Vendimos dos mil unidades en el trimestre."),
    (5.4, "%", "El paro bajó al 5,4 por ciento en marzo."),
    (66.7, "%", "Dos tercios de los clientes renovaron el contrato."),
    (1.5, "EUR billion", "Il fatturato è salito a 1,5 miliardi di euro."),
    (3.2, "%", "Il PIL è cresciuto del 3,2 per cento."),
    (2.3, "BRL billion", "A receita líquida somou R$ 2,3 bilhões no ano."),
    (40, "%", "A participação chegou a 40 por cento."),
]
SLAVIC: list[Case] = [
    (1.5, "RUB billion", "Выручка компании выросла до 1,5 млрд руб."),
    (12, "%", "Доля рынка составила 12 процентов."),
    (3, "million", "Число абонентов достигло 3 млн."),
    (4.5, "PLN billion", "Przychody wzrosły do 4,5 mld zł."),
    (8, "%", "Bezrobocie spadło do 8 procent."),
    (250, "million", "Tržby dosáhly 250 mil. Kč."),
    (2.4, "UAH billion", "Прибуток склав 2,4 млрд грн."),
]
CJK: list[Case] = [
    (1234, "JPY hundred million", "売上高は1,234億円となった。"),
    (123_400_000_000, "JPY", "売上高は1,234億円となった。"),
    (5, "%", "営業利益率は5％に上昇した。"),
    (3.5, "CNY billion", "公司营收达到35亿元。"),
    (12, "%", "净利润增长12%。"),
    (2, "KRW trillion", "매출은 2조 원을 기록했다."),
    (0.25, "", "사업의 4분의 1을 매각했다."),
    (1 / 3, "", "社員の三分の一が在宅勤務だ。"),
]
SEMITIC_PERSIAN_TURKIC: list[Case] = [
    (40, "%", "Şirketin pazar payı yüzde 40'a ulaştı."),
    (40, "%", "Pazar payı %40 oldu."),
    (2.5, "TRY billion", "Net kâr 2,5 milyar TL oldu."),
    (2024.5, "million", "بلغت الإيرادات ٢٠٢٤٫٥ مليون"),
    (15, "%", "ارتفعت المبيعات بنسبة 15٪ خلال العام."),
    (3, "billion", "وبلغت الاستثمارات 3 مليارات دولار"),
    (123, "", "تعداد ۱۲۳ نفر در این بخش کار می‌کنند."),
    (20, "%", "سهم بازار به ۲۰ درصد رسید."),
    (5, "%", "שיעור האבטלה עלה ל-5% בחודש שעבר."),
    (1.2, "billion", "ההכנסות הגיעו ל-1.2 מיליארד שקל."),
]
SOUTHEAST_ASIAN: list[Case] = [
    (12, "VND trillion", "Doanh thu đạt 12 nghìn tỷ đồng."),
    (5, "%", "Tăng trưởng đạt 5 phần trăm."),
    (3.2, "IDR trillion", "Pendapatan naik menjadi Rp3,2 triliun."),
    (7, "%", "Inflasi mencapai 7 persen."),
    (1.5, "million", "Jumlah pelanggan mencapai 1,5 juta."),
]
ENGLISH: list[Case] = [
    (1.2, "billion", "Revenue rose to $1.2 billion."),
    (1200, "million", "Revenue rose to $1.2 billion."),
    (1_200_000_000, "", "Revenue rose to $1.2 billion."),
    (1.2, "USD billion", "Revenue was $1,200 million."),
    (1.2, "GW", "The plant has 1,200 MW of capacity."),
    (66.7, "%", "Two thirds of households own a car."),
    (12_34_567, "", "The survey counted 12,34,567 households."),
    (4, "percentage points", "Support fell 4 percentage points."),
    (2000, "employees", "The company has 2000 employees."),
]


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    GERMANIC + ROMANCE + SLAVIC + CJK + SEMITIC_PERSIAN_TURKIC + SOUTHEAST_ASIAN + ENGLISH,
)
def test_a_value_in_the_claims_scale_and_unit_is_found_as_the_language_writes_it(
    value: float, unit: str, text: str
) -> None:
    assert value_written_in(value, text, unit=unit)


# --- must not match -----------------------------------------------------------------------------

WRONG_SCALE_OR_UNIT: list[Case] = [
    (1.2, "billion", "Revenue rose to 1.2 million."),
    (1.2, "", "Revenue rose to 1.2 billion."),
    (1.2, "USD million", "Revenue was $1,200 million."),
    (28, "EUR million", "Los ingresos alcanzaron 28.000 millones de euros."),
    (28.5, "DKK million", "Omsætningen steg til 28,5 mia. kr."),
    (3, "EUR million", "Der Umsatz stieg auf 3 Mrd. Euro."),
    (1.5, "EUR million", "Il fatturato è salito a 1,5 miliardi di euro."),
    (1.5, "million", "Выручка выросла до 1,5 млрд руб."),
    (4.5, "PLN million", "Przychody wzrosły do 4,5 mld zł."),
    (72.4, "%", "The operator now serves 72.4 million customers."),
    (500, "GW", "The wind farm adds 500 MW."),
    (500, "MW", "The wind farm adds 500 MWh a year."),
    (28, "USD billion", "EBITDA reached DKK 28 billion."),
    (3, "USD billion", "Der Umsatz stieg auf 3 Mrd. Euro."),
    (1234, "USD hundred million", "売上高は1,234億円となった。"),
    (0.5, "%", "Half of the votes, or 50%, were cast by post."),
    (0.5, "%", "La participación subió al 50 %."),
    (12, "million customers", "Market share rose to 12%."),
    (35, "CNY billion", "公司营收达到35亿元。"),
]

NOT_VALUES: list[Case] = [
    (2022, "", "Offshore capacity reached 7.4 GW in 2022."),
    (2024, "", "Le chiffre d'affaires a progressé en 2024."),
    (2024, "", "Umsatz 2024/25 gestiegen."),
    (31, "", "Stand: 31. Dezember 2024."),
    (12, "", "Die Zahl wurde am 12. März veröffentlicht."),
    (15, "", "Publicado el 15 de marzo de 2024."),
    (12, "", "See page 12 of the annual report."),
    (12, "", "Siehe S. 12 des Geschäftsberichts."),
    (4, "", "Gemäß § 4 des Gesetzes."),
    (5, "", "Conforme o artigo 5 da lei."),
    (17, "", "См. стр. 17 отчёта."),
    (45, "", "Se side 45 i årsrapporten."),
    (3, "", "Scope 3 emissions fell sharply."),
    (2, "", "Phase 2 of the project starts now."),
    (1, "", "Tier 1 capital ratio improved."),
    (19, "", "COVID-19 hit sales hard."),
    (3, "", "Q3 results beat expectations."),
    (3, "", "Revenue grew strongly [3]."),
    (3, "", "Im 3. Quartal stieg der Umsatz."),
    (3, "", "I 3. kvartal steg omsætningen."),
    (3, "", "Our 3rd quarter was strong."),
    (2, "", "Le 2e trimestre a été difficile."),
    (3, "", "第3四半期の売上高が増えた。"),
    (3, "", "Doanh thu quý 3 tăng mạnh."),
    (3, "", "3분기 매출이 늘었다."),
    (5, "", "Согласно статье 5 закона."),
    (70, "", "We put approval at 70 out of 100 on 31 out. 2024."),
]


@pytest.mark.parametrize(("value", "unit", "text"), WRONG_SCALE_OR_UNIT)
def test_a_figure_in_another_scale_or_unit_is_not_the_value(value: float, unit: str, text: str) -> None:
    assert not value_written_in(value, text, unit=unit)


@pytest.mark.parametrize(("value", "unit", "text"), NOT_VALUES[:-1])
def test_years_dates_references_labels_and_notes_are_not_values(value: float, unit: str, text: str) -> None:
    assert not value_written_in(value, text, unit=unit)


@pytest.mark.xfail(strict=True, reason="a product name before a number is not known to the reader (issue 25)")
def test_a_product_name_before_a_number_is_a_label() -> None:
    assert not value_written_in(11, "Windows 11 adoption was slow.")


def test_an_abbreviated_month_needs_its_dot_or_a_year_to_make_a_date() -> None:
    # "out" is Portuguese for October only as "out." or before a year: here 70 is a value.
    assert value_written_in(70, "We put approval at 70 out of 100.", unit="%")


def test_a_number_word_of_another_language_is_not_read_in_this_one() -> None:
    # Italian "sei" is six; in a German sentence it is a verb. French "cent" is a hundred.
    assert not value_written_in(6, "Es sei denn, der Umsatz steigt.")
    assert not value_written_in(100, "a 5 cent rise in the price of the bond")
    assert value_written_in(3, "Wir haben drei Werke in Bayern und sind stolz darauf.")


@pytest.mark.parametrize(
    ("value", "unit", "found"),
    [
        (33.3, "%", True),
        (33, "%", True),
        (0.33, "", True),
        (0.3, "", False),
        (30, "%", False),
        (0.333, "%", False),
    ],
)
def test_a_fraction_in_words_is_compared_at_the_claims_precision(
    value: float, unit: str, found: bool
) -> None:
    assert value_written_in(value, "One third of sales came from abroad.", unit=unit) is found


# --- grouping and decimal conventions -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "readings"),
    [
        ("28.000 millones", {28_000}),  # a scale word decides: thousands
        ("$1,200 million", {1200}),
        ("Umsatz 1.200 Tonnen, Marge 2,5 %", {1200}),  # the text's decimal comma decides
        ("Sales 1,200 units at a 2.5% margin", {1200}),  # the text's decimal point decides
        ("Le taux est de 1,250 et 0,75", {1.25}),
        ("1.200", {1200, 1.2}),  # nothing decides: both readings stay
        ("0,500", {0.5}),  # a thousands group never follows a lone zero
        ("1’234.5", {1234.5}),
        ("1 234 567", {1_234_567}),
        ("1\u202f234,5", {1234.5}),
        ("12,34,567", {1_234_567}),
        ("١٬٢٠٠٫٥", {1200.5}),
        ("۱۲۳", {123}),
        ("１２３", {123}),
    ],
)
def test_grouping_is_read_by_the_convention_the_text_and_the_scale_word_allow(
    text: str, readings: set[float]
) -> None:
    first = parse_numbers(text)[0]
    assert sorted(float(f) for f in first.figures) == pytest.approx(sorted(readings))


# --- the criteria's unit -----------------------------------------------------------------------------


def test_the_criteria_unit_is_read_for_scale_currency_si_unit_and_words() -> None:
    dkk = read_unit("DKK billion")
    assert dkk.scale == 10**9 and "DKK" in dkk.currencies
    gw = read_unit("GW")
    assert gw.si_base == "W" and gw.si_prefix == 10**9
    customers = read_unit("million customers")
    assert customers.scale == 10**6 and customers.words == ("customers",)
    assert read_unit("percentage points").percent
    assert read_unit("EUR million").scale == 10**6


def test_every_number_has_a_role_and_only_values_count() -> None:
    roles = [(n.as_written, n.role) for n in parse_numbers("In 2024, Scope 3 emissions fell 12% (p. 4).")]
    assert [r for _, r in roles] == ["year", "label", VALUE, "reference"]


# --- the lexicon -------------------------------------------------------------------------------------

# Concepts every language writes. "percent_before", "reference_after" and "label_after" are
# word orders only some languages use (Turkish "yüzde 40", Japanese "12ページ").
UNIVERSAL_CONCEPTS = (
    "percent",
    "reference",
    "label",
    "period",
    "fraction_half",
    "fraction_third",
    "fraction_two_thirds",
    "fraction_quarter",
    "fraction_three_quarters",
)


@pytest.mark.parametrize("concept", UNIVERSAL_CONCEPTS)
def test_every_numbers_concept_has_words_in_every_web_language(concept: str) -> None:
    assert area_lexicon("numbers").languages(concept) == tuple(sorted(WEB_LANGUAGES))


def test_the_word_order_concepts_cover_the_languages_that_use_them() -> None:
    lexicon = area_lexicon("numbers")
    assert set(lexicon.languages("percent_before")) >= {"tr", "zh"}
    assert set(lexicon.languages("reference_after")) >= {"ja", "zh", "ko"}
    assert set(lexicon.languages("label_after")) >= {"ja", "zh", "ko"}


@pytest.mark.parametrize(
    ("text", "value", "unit", "expected"),
    [
        ("Ветропарк мощностью 1200 мегаватт введён в строй.", 1.2, "GW", True),
        ("Ветропарк мощностью 1200 мегаватт введён в строй.", 1200, "GW", False),
        ("Установленная мощность — 350 МВт.", 350, "GW", False),
        ("洋上風力の容量は600メガワットに達した。", 600, "GW", False),
        ("洋上風力の容量は600メガワットに達した。", 600, "MW", True),
        ("光伏电站装机容量为800兆瓦。", 0.8, "GW", True),
        ("ظرفیت این نیروگاه ۴۵۰ مگاوات است.", 450, "GW", False),
        ("بلغت قدرة المحطة 700 ميغا واط.", 700, "MW", True),
        ("풍력단지 용량은 250메가와트이다.", 250, "GW", False),
    ],
)
def test_a_unit_written_out_in_any_script_is_compared(text: str, value: float, unit: str, expected: bool) -> None:
    # CLDR's unit names (babel): megawatts in Cyrillic, kana, Han, Persian, Arabic or Hangul
    # are megawatts, never gigawatts.
    assert value_written_in(value, text, unit=unit) is expected


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("فروش در سال ۱۳۹۹ به اوج رسید.", 1399),  # a Persian solar year
        ("تأسست الشركة عام 1445 هـ.", 1445),  # a Hijri year
        ("Выручка в 2023 году выросла.", 2023),
        ("Şirket 2019 yılında kuruldu.", 2019),
        ("Doanh thu năm 2023 tăng mạnh.", 2023),
    ],
)
def test_a_number_the_word_year_stands_beside_is_a_year_in_any_calendar(text: str, value: int) -> None:
    assert not value_written_in(value, text)


def test_a_note_marker_in_parentheses_closing_a_sentence_is_not_a_value() -> None:
    assert not value_written_in(4, "Net profit rose to EUR 2.3 billion (4).")
    assert value_written_in(4, "The board has 4 members (4 independent).")
