"""The party-political and company-guidance backstops in every language of the web
(issue 25): the rule's concepts, per language family, with positives and look-alike
negatives. Sentences written for these tests from how newsrooms, parliaments and company
reports write, not taken from any benchmark."""

from __future__ import annotations

import pytest

from reliability_core.claims.claim_type import is_company_guidance, mentions_party_politics
from reliability_core.text.lexicon import WEB_LANGUAGES, area_lexicon

PARTY_CONCEPTS = (
    "election", "governance", "party", "party_kind", "not_party", "party_action", "legislature",
    "legislation", "should", "adopt",
)  # fmt: skip
GUIDANCE_CONCEPTS = (
    "company_expects", "expects", "guidance_term", "forecast_noun", "metric", "outside_forecaster",
    "versus_expectations",
)  # fmt: skip


@pytest.mark.parametrize(
    ("area", "concepts"), [("party_politics", PARTY_CONCEPTS), ("guidance", GUIDANCE_CONCEPTS)]
)
def test_every_concept_has_words_in_every_web_language(area: str, concepts: tuple[str, ...]) -> None:
    lexicon = area_lexicon(area)
    assert set(lexicon.concepts) == set(concepts)
    for concept in concepts:
        missing = set(WEB_LANGUAGES) - set(lexicon.languages(concept))
        assert not missing, f"{area}/{concept} has no words for {sorted(missing)}"


# --- Party politics: who wins an election, what a party will do, whether a bill should pass ---

ELECTIONS_AND_PARTIES = {
    "germanic": [
        "Labour is polling ahead of every rival before the general election.",
        "Nach der Bundestagswahl verhandeln die Parteien über eine Koalition.",
        "Oppositionen vil vinde flertal ved næste folketingsvalg.",
        "Väljarna straffade regeringspartiet i höstens val.",
        "De christendemocraten verliezen volgens de peiling vijf zetels.",
        "Partiet kommer inn på Stortinget etter valget.",
    ],
    "romance": [
        "Le parti de gauche remportera la majorité des sièges aux législatives.",
        "Las encuestas dan al partido gobernante una amplia ventaja.",
        "O partido da oposição vai vencer o segundo turno.",
        "Il centrodestra otterrà la maggioranza in Parlamento.",
    ],
    "slavic": [
        "Правящая партия потеряет большинство на выборах в Думу.",
        "Опозиційна партія пройде до парламенту за результатами виборів.",
        "Partia rządząca wygra wybory i utworzy rząd.",
        "Opoziční strana získá ve volbách většinu křesel.",
    ],
    "cjk": [
        "野党は次の総選挙で議席を伸ばす見通しだ。",
        "执政党将在大选中赢得多数议席。",
        "여당이 이번 총선에서 과반 의석을 차지할 것이다.",
    ],
    "semitic": [
        "الحزب الحاكم سيفوز بأغلبية المقاعد في الانتخابات المقبلة.",
        "מפלגת האופוזיציה תזכה ברוב המנדטים בבחירות.",
    ],
    "turkic_persian": [
        "Muhalefet partisi seçimde meclise girecek.",
        "حزب حاکم در انتخابات آینده اکثریت کرسی‌ها را به دست می‌آورد.",
    ],
    "vietnamese_indonesian": [
        "Đảng đối lập sẽ giành đa số ghế trong cuộc bầu cử.",
        "Partai oposisi akan memenangkan pemilu dan menguasai kursi DPR.",
    ],
}

BILLS_THAT_SHOULD_PASS = {
    "germanic": [
        "The bill must be passed before the recess.",
        "Das Heizungsgesetz sollte vom Bundestag abgelehnt werden.",
        "Lovforslaget bør vedtages inden sommerferien.",
        "Het wetsvoorstel moet door de Tweede Kamer worden aangenomen.",
    ],
    "romance": [
        "Le projet de loi doit être adopté par le Parlement.",
        "El Congreso debe rechazar la reforma laboral.",
        "Il disegno di legge va approvato entro giugno.",
        "A reforma tributária deve ser aprovada pelo Congresso.",
    ],
    "slavic": [
        "Законопроект должен быть отклонён Государственной думой.",
        "Projekt ustawy powinien zostać odrzucony przez Sejm.",
    ],
    "cjk": [
        "この法案は今国会で成立させるべきだ。",
        "这项法案应当尽快获得通过。",
        "국회는 이 법안을 반드시 통과시켜야 한다.",
    ],
    "semitic": ["يجب على مجلس النواب رفض مشروع القانون.", "הכנסת חייבת לאשר את הצעת החוק."],
    "turkic_persian": ["Bu kanun teklifi Meclis'te reddedilmeli.", "مجلس باید این لایحه را تصویب کند."],
    "vietnamese_indonesian": ["Quốc hội cần thông qua dự luật này.", "DPR harus menolak RUU tersebut."],
}

COMPANY_WORDS_THAT_LOOK_POLITICAL = {
    "germanic": [
        "Our party supplies division grew sales by 4%.",
        "A third-party audit confirmed the emission figures.",
        "Shareholders voted for the dividend at the annual general meeting.",
        "The AGM approved the election of two new board members.",
        "Die Hauptversammlung hat den Aufsichtsrat mit großer Mehrheit wiedergewählt.",
        "Generalforsamlingen genvalgte bestyrelsen og godkendte vederlagspolitikken.",
        "Årsstämman beslutade att välja om styrelsen.",
        "Each party will bear its own costs under the agreement.",
    ],
    "romance": [
        "L'assemblée générale des actionnaires a voté le dividende.",
        "La junta general de accionistas aprobó la reelección de los consejeros.",
        "A assembleia geral de acionistas aprovou a eleição do conselho de administração.",
        "L'assemblea degli azionisti ha votato il rinnovo del consiglio di amministrazione.",
    ],
    "slavic": [
        "Годовое собрание акционеров избрало совет директоров.",
        "Партия товара будет отгружена в мае.",
        "Walne zgromadzenie akcjonariuszy wybrało nową radę nadzorczą.",
        "Smluvní strana musí smlouvu schválit do konce měsíce.",
    ],
    "cjk": [
        "株主総会で取締役の選任議案が承認された。",
        "股东大会投票选举了新一届董事会。",
        "주주총회에서 사외이사 선임 안건이 가결됐다.",
    ],
    "semitic": [
        "الجمعية العامة للمساهمين انتخبت مجلس الإدارة.",
        "האסיפה הכללית של בעלי המניות אישרה את מינוי הדירקטורים.",
    ],
    "turkic_persian": [
        "Olağan genel kurul yönetim kurulu üyelerini seçti.",
        "مجمع عمومی صاحبان سهام اعضای هیئت مدیره را انتخاب کرد.",
    ],
    "vietnamese_indonesian": [
        "Đại hội đồng cổ đông đã bỏ phiếu bầu thành viên HĐQT.",
        "RUPS menyetujui pengangkatan kembali direksi dan dewan komisaris.",
    ],
}

ORDINARY_COMPANY_STATEMENTS = [
    "We will install 5 GW of offshore wind by 2025.",
    "Wir müssen die neuen Vorschriften einhalten.",
    "Nous devons respecter la loi.",
    "Компания должна соблюдать закон.",
    "当社は法令を遵守しなければならない。",
    "Customers should approve the new terms before delivery.",
]


def _cases(table: dict[str, list[str]]) -> list[tuple[str, str]]:
    return [(family, text) for family, texts in table.items() for text in texts]


@pytest.mark.parametrize(("family", "text"), _cases(ELECTIONS_AND_PARTIES))
def test_elections_and_what_a_party_does_are_party_politics(family: str, text: str) -> None:
    assert mentions_party_politics(text), family


@pytest.mark.parametrize(("family", "text"), _cases(BILLS_THAT_SHOULD_PASS))
def test_whether_a_bill_should_pass_is_party_politics(family: str, text: str) -> None:
    assert mentions_party_politics(text), family


@pytest.mark.parametrize(("family", "text"), _cases(COMPANY_WORDS_THAT_LOOK_POLITICAL))
def test_a_companys_votes_and_third_parties_are_not_party_politics(family: str, text: str) -> None:
    assert not mentions_party_politics(text), family


@pytest.mark.parametrize("text", ORDINARY_COMPANY_STATEMENTS)
def test_obeying_the_law_is_not_a_bill_that_should_pass(text: str) -> None:
    assert not mentions_party_politics(text)


def test_a_party_named_in_a_meeting_of_shareholders_is_still_politics() -> None:
    assert mentions_party_politics("Shareholders fear the ruling party will win the election.")


# --- Company guidance: the company's own expectation bound to a financial metric ----------

GUIDANCE = {
    "germanic": [
        "We expect EBITDA above DKK 28 billion.",
        "Ørsted expects EBITDA of DKK 24-26 billion for the year.",
        "Revenue is expected to be in the range of EUR 4.1-4.3 billion.",
        "Für das Geschäftsjahr 2025 erwarten wir einen Umsatz zwischen 3,1 und 3,3 Mrd. Euro.",
        "Vi forventer en organisk vækst i omsætningen på 5-8 %.",
        "Vi räknar med att rörelsemarginalen blir minst 12 procent.",
        "Wij verwachten dat de omzet dit jaar met 6% groeit.",
        "Vi forventer et driftsresultat på 2 milliarder kroner.",
        "Our full-year guidance is unchanged.",
    ],
    "romance": [
        "Nous anticipons une croissance organique du chiffre d'affaires de 4 %.",
        "Prevemos que los ingresos superen los 2.000 millones de euros.",
        "Esperamos um EBITDA entre R$ 1,2 e 1,4 bilhão.",
        "Ci aspettiamo ricavi in crescita a una cifra media.",
    ],
    "slavic": [
        "Мы ожидаем, что выручка в 2025 году вырастет на 10%.",
        "Ми прогнозуємо зростання чистого прибутку на 8%.",
        "Oczekujemy, że przychody grupy przekroczą 5 mld zł.",
        "Očekáváme tržby ve výši 12 miliard korun.",
    ],
    "cjk": [
        "当社は通期の売上高を1兆2000億円と見込む。",
        "公司预计2025年营业收入同比增长10%至15%。",
        "회사는 올해 매출이 20% 증가할 것으로 예상한다.",
        "業績予想を上方修正しました。",
        "公司维持全年业绩指引不变。",
    ],
    "semitic": [
        "نتوقع أن تنمو الإيرادات بنسبة 8% هذا العام.",
        "אנו צופים כי ההכנסות יסתכמו ב-2 מיליארד שקל.",
    ],
    "turkic_persian": [
        "Bu yıl ciroda yüzde 25 büyüme bekliyoruz.",
        "پیش‌بینی می‌کنیم درآمد شرکت ۳۰ درصد رشد کند.",
    ],
    "vietnamese_indonesian": [
        "Công ty dự kiến doanh thu năm nay đạt 10.000 tỷ đồng.",
        "Kami memperkirakan pendapatan tumbuh dua digit tahun ini.",
    ],
}

NOT_GUIDANCE = {
    "germanic": [
        "We expect the weather to improve.",
        "Analysts expect revenue of $5 billion.",
        "Revenue was higher than expected.",
        "Revenue grew 5% in 2024.",
        "EFRAG published guidance in 2024.",
        "Analysten erwarten einen Umsatz von 3 Mrd. Euro.",
        "Der Umsatz lag höher als erwartet.",
        "Analytikerne forventer en omsætning på 10 mia. kr.",
        "Omsætningen var højere end ventet.",
    ],
    "romance": [
        "Les analystes prévoient un chiffre d'affaires de 5 milliards.",
        "Los analistas esperan ingresos de 2.000 millones.",
        "Il fatturato è stato superiore alle attese.",
    ],
    "slavic": [
        "Аналитики ожидают, что выручка вырастет.",
        "Analitycy oczekują wzrostu przychodów.",
        "Tržby byly vyšší, než se očekávalo.",
    ],
    "cjk": [
        "アナリストは売上高を1兆円と予想する。",
        "分析师预计营收将增长。",
        "营收超出预期。",
        "매출이 예상을 웃돌았다.",
    ],
    "semitic": ["المحللون يتوقعون نمو الإيرادات.", "אנליסטים צופים עלייה בהכנסות."],
    "turkic_persian": ["Analistler ciroda artış bekliyor.", "تحلیلگران رشد درآمد را پیش‌بینی می‌کنند."],
    "vietnamese_indonesian": [
        "Các nhà phân tích dự báo doanh thu tăng.",
        "Para analis memperkirakan pendapatan naik.",
    ],
}


@pytest.mark.parametrize(("family", "text"), _cases(GUIDANCE))
def test_the_companys_own_expectation_of_a_metric_is_guidance(family: str, text: str) -> None:
    assert is_company_guidance(text), family


@pytest.mark.parametrize(("family", "text"), _cases(NOT_GUIDANCE))
def test_analysts_expectations_and_results_against_expectations_are_not_guidance(
    family: str, text: str
) -> None:
    assert not is_company_guidance(text), family


def test_the_company_names_itself_beside_the_analysts() -> None:
    assert is_company_guidance("We expect revenue above the analysts' consensus.")


def test_concepts_meet_in_one_sentence() -> None:
    assert not is_company_guidance("We expect a cold winter. Revenue grew 5% last year.")
    assert not mentions_party_politics("The bill arrived late. We must approve the invoice.")


@pytest.mark.parametrize(
    "text",
    [
        "Our target is EBITDA of at least DKK 20 billion in 2026.",
        "Unser Ziel ist ein Umsatz von 5 Mrd. Euro bis 2027.",
        "Nous visons un chiffre d'affaires de 3 milliards d'euros en 2026.",
        "当社は2027年に売上高1兆円を目標とする。",
        "The 2020 EBITDA of DKK 18 billion beat the guidance range of DKK 16-17 billion.",
    ],
)
def test_a_target_is_a_promise_and_a_beaten_guidance_is_the_past(text: str) -> None:
    """[M] a promise names "a measurable target with a date, even when worded as an aim"."""
    assert not is_company_guidance(text)


def test_a_party_in_a_biography_is_not_what_a_party_will_do() -> None:
    assert not mentions_party_politics(
        "She has been a Member of Parliament for the Liberal Party since 2011."
    )
    assert mentions_party_politics("The Liberal Party will win a majority of the seats.")
