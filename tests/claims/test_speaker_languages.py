"""[M] step 4 "Statements by other people are dropped, as are reported paraphrases", in
every language the subjects write (issue 25): reported speech ("sagde, at", "a déclaré
que", "заявил, что", "と述べた") and another speaker named beside an attribution ("ifølge
Jens Holm", "по словам Ивана Петрова", "قال أحمد", "田中社長") are caught by code; the
subject's own first-person speech and the subject's own name are not."""

from __future__ import annotations

import pytest

from reliability_core.claims.speaker import drop_reason_for, is_reported_speech, named_other_speaker
from reliability_core.text.lexicon import WEB_LANGUAGES, area_lexicon
from tests.claims.claim_builders import reading

REPORTED = {
    "germanic": [
        "Selskabet sagde, at det vil bygge 3 GW inden 2030",
        "I en meddelelse sagde koncernen, at den vil lukke to fabrikker",
        "Bolaget sa att det ska halvera utsläppen",
        "Selskapet opplyste at det skal bygge to nye anlegg",
        "Das Unternehmen sagte, dass es 3 GW bauen werde",
        "Am Montag erklärte der Vorstand, dass die Dividende steigt",
        "Het bedrijf zei dat het de uitstoot halveert",
    ],
    "romance": [
        "Le groupe a déclaré qu'il construirait trois usines",
        "La empresa dijo que construirá 3 GW",
        "L'azienda ha detto che costruirà tre impianti",
        "A empresa disse que vai dobrar a produção",
    ],
    "slavic": [
        "Spółka powiedziała, że zbuduje 3 GW",
        "Společnost uvedla, že postaví dvě továrny",
        "Компания заявила, что построит 3 ГВт",
        "Компанія повідомила, що збудує новий завод",
    ],
    "cjk": [
        "公司表示将在2030年前建设3吉瓦",
        "同社は3GWを建設すると述べた",
        "회사는 3GW를 건설할 것이라고 말했다",
    ],
    "semitic": ["قال إن الشركة ستبني ثلاثة مصانع", "החברה אמרה שהיא תבנה שלושה מפעלים"],
    "turkic_persian": [
        "Şirket 3 GW kuracağını söyledi",
        "Şirket dedi ki üç fabrika kuracak",
        "شرکت گفت که سه کارخانه می‌سازد",
    ],
    "vietnamese_indonesian": [
        "Công ty cho biết sẽ xây ba nhà máy",
        "Perusahaan mengatakan bahwa akan membangun tiga pabrik",
    ],
}

OWN_WORDS = {
    "germanic": [
        "We said that we would build 3 GW, and we did",
        "Vi sagde, at vi ville bygge 3 GW",
        "Wir haben gesagt, dass wir 3 GW bauen",
        "Vi bygger 3 GW inden 2030",
        "Wir werden die Emissionen halbieren",
    ],
    "romance": ["Nous construirons trois usines d'ici 2030", "Construiremos 3 GW antes de 2030"],
    "slavic": ["Мы заявили, что построим 3 ГВт", "Zbudujemy 3 GW do 2030 roku"],
    "cjk": ["我们表示将建设3吉瓦", "当社は3GWを建設します", "우리는 3GW를 건설할 것이라고 말했다"],
    "semitic": ["نحن قلنا إننا سنبني ثلاثة مصانع", "אנחנו נבנה שלושה מפעלים"],
    "turkic_persian": ["2030'a kadar 3 GW kuracağız", "ما سه کارخانه خواهیم ساخت"],
    "vietnamese_indonesian": ["Chúng tôi cho biết sẽ xây ba nhà máy", "Kami akan membangun tiga pabrik"],
}

SUBJECT = ["Northwind Energy A/S", "Northwind", "Henrik Dahl"]

OTHER_SPEAKERS = {
    "germanic": [
        ("Priserne vil falde, sagde Anna Berg, analytiker", "Anna Berg"),
        ("Ifølge Jens Holm vil priserne falde", "Jens Holm"),
        ("Laut Konzernchef Hans Müller wächst der Markt", "Hans Müller"),
        ("Enligt Karin Ek stiger priserna", "Karin Ek"),
        ("Volgens Jan de Vries stijgen de prijzen", "Jan de Vries"),
        ("Prices will fall, according to the regulator's Jens Holm", "Jens Holm"),
    ],
    "romance": [
        ("Selon le PDG Jean Dupont, les prix vont baisser", "Jean Dupont"),
        ("Según María López, los precios subirán", "María López"),
        ("Il prezzo salirà, ha detto Mario Rossi", "Mario Rossi"),
        ("Segundo João Silva, os preços vão cair", "João Silva"),
    ],
    "slavic": [
        ("По словам Ивана Петрова, цены вырастут", "Ивана Петрова"),
        ("Ceny porostou, uvedl Petr Svoboda", "Petr Svoboda"),
        ("Według Anny Nowak ceny wzrosną", "Anny Nowak"),
    ],
    "cjk": [
        ("田中社長は価格が上がると述べた", "田中"),
        ("据张伟称，价格将上涨", "张伟"),
        ("김철수 대표는 가격이 오를 것이라고 말했다", "김철수"),
    ],
    "semitic": [
        ("قال أحمد الخالدي إن الأسعار سترتفع", "أحمد الخالدي"),
        ("לדברי יוסי כהן, המחירים יעלו", "יוסי כהן"),
    ],
    "turkic_persian": [
        ("Ahmet Yılmaz'a göre fiyatlar artacak", "Ahmet Yılmaz"),
        ("به گفته علی رضایی، قیمت‌ها افزایش می‌یابد", "علی رضایی"),
    ],
    "vietnamese_indonesian": [
        ("Menurut Budi Santoso, harga akan naik", "Budi Santoso"),
        ("Giá sẽ tăng, ông Trần Minh cho biết", "Trần Minh"),
        ("Bà Lê Thị Hoa, chuyên gia phân tích, cho biết giá sẽ tăng", "Lê Thị Hoa"),
    ],
}

NO_OTHER_SPEAKER = {
    "germanic": [
        "Selskabet sagde, at det vil vokse",
        "Henrik Dahl sagde, at han vil bygge 3 GW",
        "Laut Unternehmen wächst der Umsatz",
        "Die Preise sinken, sagte Vorstandschef Henrik Dahl",
        "Prices will fall in Denmark, said Henrik Dahl",
        "According to the annual report, revenue will rise",
        "Northwind Energy said on Tuesday it will install 15 GW by 2025",
        "Laut Geschäftsbericht stieg der Gewinn",
    ],
    "romance": ["Según la empresa, los precios subirán", "Selon le groupe, la demande reste forte"],
    "slavic": ["По словам компании, цены вырастут", "Podle plánu postavíme dvě továrny"],
    "cjk": ["公司表示，价格将上涨", "同社によると、価格は上がる"],
    "semitic": ["وفقا للشركة، سترتفع الأسعار", "לדברי החברה, המחירים יעלו"],
    "turkic_persian": ["Geçen yıla göre satışlar arttı", "به گفته وی، قیمت‌ها افزایش می‌یابد"],
    "vietnamese_indonesian": [
        "Theo kế hoạch, công ty sẽ xây ba nhà máy",
        "Menurut perusahaan, harga akan naik",
    ],
}


def _ids(table: dict[str, list[str]]) -> list[object]:
    return [
        pytest.param(t, id=f"{family}-{i}") for family, texts in table.items() for i, t in enumerate(texts)
    ]


@pytest.mark.parametrize("quote", _ids(REPORTED))
def test_reported_speech_is_caught_in_every_language_family(quote: str) -> None:
    assert is_reported_speech("direct_quote", quote)
    assert drop_reason_for(reading(0), quote) == "paraphrase"


@pytest.mark.parametrize("quote", _ids(OWN_WORDS))
def test_the_subjects_own_first_person_speech_is_not_reported_speech(quote: str) -> None:
    assert not is_reported_speech("direct_quote", quote)


@pytest.mark.parametrize(
    ("sentence", "name"),
    [
        pytest.param(s, n, id=f"{family}-{i}")
        for family, pairs in OTHER_SPEAKERS.items()
        for i, (s, n) in enumerate(pairs)
    ],
)
def test_another_speaker_is_named_beside_the_attribution_in_any_script(sentence: str, name: str) -> None:
    assert named_other_speaker(sentence, "", SUBJECT) == name


@pytest.mark.parametrize("sentence", _ids(NO_OTHER_SPEAKER))
def test_the_subject_pronouns_and_generic_sources_are_no_other_speaker(sentence: str) -> None:
    assert named_other_speaker(sentence, "", SUBJECT) is None


def test_a_name_in_another_case_is_still_the_subjects_name() -> None:
    assert named_other_speaker("По словам Ивана Петрова, цены вырастут", "", ["Иван Петров"]) is None
    assert named_other_speaker("Według Jana Kowalskiego ceny wzrosną", "", ["Jan Kowalski"]) is None


def test_the_quote_itself_is_never_read_as_the_attribution() -> None:
    quote = "Vi sagde, at Danmark vil vokse"
    assert named_other_speaker(f"\u201c{quote}\u201d, sagde Henrik Dahl.", quote, SUBJECT) is None


def test_every_speech_concept_has_words_in_every_web_language() -> None:
    lexicon = area_lexicon("speech")
    for concept in lexicon.concepts:
        assert set(lexicon.languages(concept)) >= set(WEB_LANGUAGES), concept
