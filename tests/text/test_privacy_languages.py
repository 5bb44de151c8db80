"""[M] step 4 "Statements about anyone's private life, family, health, home or location are
dropped before anything is stored", in every language the subjects write (issue 25): the
keyword backstop finds a person's illness, treatment, family, homes and whereabouts in each
language family, and leaves an organisation's own uses of the same words alone."""

from __future__ import annotations

import pytest

from reliability_core.text.lexicon import WEB_LANGUAGES, area_lexicon
from reliability_core.text.privacy import PRIVATE_REDACTION, mask_private_life, mentions_private_life

PRIVATE = {
    "germanic": [
        "My sister has been caring for our father since his stroke",
        "She is recovering from pneumonia and will be back in the spring",
        "He finished his last round of chemotherapy in May",
        "The family spends every July at their summer house on Fanø",
        "Min kone og jeg flyttede til Aarhus sidste år",
        "Han har været sygemeldt siden januar",
        "Hun kæmper med kræft og er i behandling",
        "Vi tilbringer weekenderne i vores sommerhus ved Vesterhavet",
        "Mormor fyldte 90 i sommer",
        "Hon är gravid med sitt andra barn",
        "Jag bor i Uppsala med min familj",
        "Han ble innlagt på sykehus i mars",
        "Vi var på hytta hele påsken",
        "Meine Frau ist an Krebs erkrankt",
        "Er wurde im Herbst am Herzen operiert und erholt sich gut",
        "Wir verbringen jeden Sommer in unserem Ferienhaus an der Ostsee",
        "Oma wohnt jetzt bei uns",
        "Mijn man werkt thuis sinds de geboorte van onze dochter",
        "Zij is zwanger van haar tweede kind",
        "The former minister was spotted at a ski resort last week",
        "We took a long holiday in the Alps with the children",
        "Foreldrene mine bor fortsatt i Bodø",
    ],
    "romance": [
        "Ma femme est malade depuis l'hiver",
        "Il a été hospitalisé la semaine dernière",
        "Nous passons l'été dans notre maison de campagne en Bretagne",
        "Mi esposa está embarazada de nuestro segundo hijo",
        "Le diagnosticaron un cáncer el año pasado",
        "Pasamos los fines de semana en la casa de campo de mis padres",
        "Mia madre è stata ricoverata in ospedale",
        "Lui si sta riprendendo da un ictus",
        "Meu pai faz quimioterapia desde março",
        "Ela mora em Lisboa com os filhos",
        "Vive en Valencia con su marido",
    ],
    "slavic": [
        "Моя жена лечится от рака",
        "Он провёл выходные на даче с семьёй",
        "Его госпитализировали с инфарктом",
        "Моя дружина вагітна",
        "Він живе у Львові з батьками",
        "Moja żona jest w ciąży",
        "Mój ojciec leży w szpitalu po zawale",
        "Moje dcera je těhotná",
        "Víkendy trávíme na chatě u Sázavy",
    ],
    "cjk": [
        "我妻子上个月住院了",
        "他被确诊患有癌症",
        "周末我们都在别墅和家人一起",
        "妻は先月入院した",
        "彼女はがんと診断された",
        "夏は軽井沢の別荘で過ごした",
        "제 아내가 지난달 입원했다",
        "그는 암 투병 중이다",
    ],
    "semitic": [
        "زوجتي مريضة منذ الشتاء",
        "أدخل المستشفى الأسبوع الماضي",
        "نقضي الصيف في بيت صيفي على البحر",
        "אשתי בהריון",
        "הוא אושפז בבית החולים בשבוע שעבר",
        "אמא שלי גרה בחיפה",
    ],
    "turkic_persian": [
        "Annem hastanede yatıyor",
        "Eşim hamile",
        "Yazları yazlıkta geçiriyoruz",
        "همسرم باردار است",
        "پدرم در بیمارستان بستری شد",
        "او به سرطان مبتلا شده است",
    ],
    "vietnamese_indonesian": [
        "Vợ tôi bị ung thư",
        "Ông ấy nhập viện tuần trước",
        "Istri saya sedang hamil",
        "Ayah saya dirawat di rumah sakit karena stroke",
        "Kami menghabiskan akhir pekan di vila keluarga saya",
    ],
}

ORGANISATION = {
    "germanic": [
        "Our children's hospital foundation donated DKK 2 million in 2023",
        "The family of brands grew by 12% last year",
        "Cancer research is one of the areas our foundation funds",
        "The health insurer's results improved in the third quarter",
        "Denmark is still our home market",
        "We cut sick leave by 10% across our plants",
        "Prices will fall in the second half, he said",
        "Vores hjemmemarked voksede med 4 %",
        "I 2021 blev 300 patienter behandlet for kræft på vores hospitaler",
        "Koncernen og dens datterselskaber investerede 2 mia. kr.",
        "Wir investieren in die Krebsforschung",
        "Das Familienunternehmen steigerte den Umsatz um 5 %",
        "Unser Heimatmarkt bleibt Deutschland",
        "Het moederbedrijf rapporteerde een hogere omzet",
        "Sales of holiday packages fell in the second quarter",
        "Patients in hospital wards received the new treatment first",
        "She told investors the hospital unit treated 20% more patients",
    ],
    "romance": [
        "Notre famille de produits s'agrandit en 2024",
        "La société mère a publié ses résultats",
        "El mercado doméstico creció un 3 %",
        "La empresa dijo que su red de hospitales atendió a más pacientes",
        "La ricerca sul cancro riceve il 10 % dei fondi",
        "A empresa-mãe reportou lucro recorde",
    ],
    "slavic": [
        "Дочерняя компания увеличила выручку на 5 %",
        "Spółka ma nowy dom handlowy w Krakowie",
        "Mateřská společnost zvýšila zisk",
    ],
    "cjk": ["母公司的收入增长了5%", "国内市場の売上高は増加した", "자회사의 매출이 늘었다"],
    "semitic": ["الشركة الأم حققت أرباحا قياسية", "חברת האם דיווחה על רווח"],
    "turkic_persian": ["Şirketin iç pazar satışları arttı", "شرکت مادر سود بیشتری گزارش کرد"],
    "vietnamese_indonesian": [
        "Công ty mẹ báo lãi kỷ lục",
        "Anak perusahaan mencatat laba",
        "Các bệnh viện của chúng tôi đã điều trị 2 triệu bệnh nhân",
    ],
}


@pytest.mark.parametrize(
    "text",
    [pytest.param(t, id=f"{family}-{i}") for family, texts in PRIVATE.items() for i, t in enumerate(texts)],
)
def test_a_persons_illness_family_home_or_whereabouts_is_private_in_every_language_family(text: str) -> None:
    assert mentions_private_life(text)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(t, id=f"{family}-{i}")
        for family, texts in ORGANISATION.items()
        for i, t in enumerate(texts)
    ],
)
def test_an_organisations_own_uses_of_the_same_words_are_not_private(text: str) -> None:
    assert not mentions_private_life(text)


def test_the_mask_withholds_the_private_sentence_and_keeps_the_organisations() -> None:
    text = "Umsatz stieg um 4 %. Meine Frau ist an Krebs erkrankt. Unser Heimatmarkt wuchs."
    assert mask_private_life(text) == f"Umsatz stieg um 4 %. {PRIVATE_REDACTION} Unser Heimatmarkt wuchs."
    assert mask_private_life(mask_private_life(text)) == mask_private_life(text)


def test_the_redaction_itself_is_not_read_as_a_new_private_statement() -> None:
    assert mask_private_life(PRIVATE_REDACTION) == PRIVATE_REDACTION


def test_every_privacy_concept_has_words_in_every_web_language() -> None:
    lexicon = area_lexicon("privacy")
    for concept in lexicon.concepts:
        assert set(lexicon.languages(concept)) >= set(WEB_LANGUAGES), concept
