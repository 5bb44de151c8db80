"""Public offices, and the words that say an office has ended, in the subjects' languages.

[M] "Serving politicians and officials in post are out of scope." The vocabulary of
``subjects.coverage.serving_office_in_evidence``, built as concepts first (the offices the
method means by "politicians and officials in post": ministers, members of parliament, mayors,
governors of central banks, judges, commissioners, heads of regulators, ambassadors and
their equivalents), then the words each language uses for the concept. Written from the
concept, not from any test item; each entry is a regular-expression fragment matched as a
whole word, case-insensitively. Germanic languages write offices as compounds
("finansminister", "Bundesministerin", "Oberbürgermeister"): a word marked ``*`` there may
carry a prefix.
"""

from __future__ import annotations

import re
from datetime import date
from typing import NamedTuple

# concept -> language -> words. "*word" admits a compound prefix ("*minister" matches
# "erhvervsminister"); the rest are whole words or phrases.
OFFICES: dict[str, dict[str, tuple[str, ...]]] = {
    "head of government or state": {
        "en": ("prime minister", "premier", "president of the republic", "head of state", "chancellor of germany",
               "first minister"),
        "da": ("*statsminister",), "no": ("*statsminister",), "sv": ("*statsminister",),
        "de": ("*bundeskanzler(?:in)?", "*ministerpräsident(?:in)?", "*bundespräsident(?:in)?"),
        "fr": ("premier ministre", "première ministre", "président de la république", "présidente de la république"),
        "es": ("president[ae] del gobierno", "jef[ae] del estado"),
        "it": ("presidente del consiglio", "president[ea] della repubblica"),
        "nl": ("*premier", "minister-president"),
        "pt": ("primeir[oa][- ]ministr[oa]", "president[ea] da república"),
        "pl": ("premier", "prezes rady ministrów", "prezydent rzeczypospolitej"),
    },
    "minister": {
        "en": ("minister", "secretary of state", "state secretary", "cabinet secretary", "chancellor of the exchequer"),
        "da": ("*minister", "statssekretær"), "no": ("*minister", "statsråd", "statssekretær"),
        "sv": ("*minister", "statsråd", "statssekreterare"),
        "de": ("*minister(?:in)?", "*staatssekretär(?:in)?", "*senator(?:in)?"),
        "fr": ("ministre", "secrétaire d'état"),
        "es": ("ministr[oa]", "secretari[oa] de estado", "consejer[oa]"),
        "it": ("ministr[oa]", "sottosegretari[oa]"),
        "nl": ("*minister", "staatssecretaris"),
        "pt": ("ministr[oa]", "secretári[oa] de estado"),
        "pl": ("minister", "wiceminister", "sekretarz stanu"),
    },
    "member of parliament": {
        "en": ("member of parliament", "mp", "mep", "member of the european parliament", "senator",
               "congress(?:man|woman|member)", "member of congress", "assemblyman", "assemblywoman", "lawmaker"),
        "da": ("folketingsmedlem", "medlem af folketinget", "mf", "parlamentsmedlem", "europaparlamentariker"),
        "no": ("stortingsrepresentant", "stortingsmedlem", "medlem av stortinget"),
        "sv": ("riksdagsledamot", "riksdagsman", "ledamot av riksdagen", "europaparlamentariker"),
        "de": ("*abgeordnete[rn]?", "mdb", "mdl", "mdep", "mitglied des bundestag(?:e?s)?", "parlamentarier(?:in)?"),
        "fr": ("député(?:e)?", "sénat(?:eur|rice)", "parlementaire"),
        "es": ("diputad[oa]", "senador(?:a)?", "parlamentari[oa]", "eurodiputad[oa]"),
        "it": ("deputat[oa]", "senat(?:ore|rice)", "parlamentare", "europarlamentare"),
        "nl": ("*kamerlid", "lid van de tweede kamer", "senator", "europarlementariër"),
        "pt": ("deputad[oa]", "senador(?:a)?", "parlamentar", "eurodeputad[oa]"),
        "pl": ("poseł", "posłanka", "senator", "europoseł", "europosłanka"),
    },
    "mayor": {
        "en": ("mayor", "lord mayor", "governor of the state", "state governor"),
        "da": ("*borgmester", "regionsrådsformand"), "no": ("ordfører", "byrådsleder", "fylkesordfører"),
        "sv": ("kommunstyrelsens ordförande", "kommunalråd", "borgmästare", "landshövding"),
        "de": ("*bürgermeister(?:in)?", "landrat", "landrätin"),
        "fr": ("maire", "préfet", "préfète"),
        "es": ("alcalde(?:sa)?",), "it": ("sindac[oa]", "governatore della regione"),
        "nl": ("burgemeester", "commissaris van de koning", "gedeputeerde", "wethouder"),
        "pt": ("prefeit[oa]", "president[ea] da câmara"),
        "pl": ("burmistrz", "prezydent miasta", "wójt", "starosta", "wojewoda"),
    },
    "governor of a central bank": {
        "en": ("governor of the (?:\\w+ )?(?:central bank|bank of \\w+|reserve bank|national bank|riksbank|bundesbank)",
               "central bank governor", "chair(?:man|woman)? of the federal reserve", "fed chair(?:man|woman)?",
               "president of the (?:european central bank|bundesbank)"),
        "da": ("nationalbankdirektør", "direktør (?:i|for) nationalbanken"),
        "no": ("sentralbanksjef", "visesentralbanksjef"), "sv": ("riksbankschef", "vice riksbankschef"),
        "de": ("bundesbankpräsident(?:in)?", "präsident(?:in)? der (?:deutschen )?bundesbank", "notenbankchef(?:in)?",
               "präsident(?:in)? der europäischen zentralbank"),
        "fr": ("gouverneur de la banque (?:de france|centrale|nationale)",),
        "es": ("gobernador(?:a)? del banco de españa", "gobernador(?:a)? del banco central"),
        "it": ("governatore della banca d'italia", "governatore della banca centrale"),
        "nl": ("president van de nederlandsche bank", "president van dnb"),
        "pt": ("governador(?:a)? do banco (?:de portugal|central)", "president[ea] do banco central"),
        "pl": ("prezes (?:nbp|narodowego banku polskiego)",),
    },
    "judge": {
        "en": ("judge of the", "high court judge", "supreme court judge", "circuit judge", "district judge",
               "justice of the", "supreme court justice", "(?:\\w+ )?court judge", "magistrate"),
        "da": ("*dommer",), "no": ("*dommer",), "sv": ("*domare", "justitieråd"),
        "de": ("*richter(?:in)?",), "fr": ("juge", "magistrat(?:e)?"),
        "es": ("juez(?:a)?", "magistrad[oa]"), "it": ("giudice", "magistrat[oa]"),
        "nl": ("rechter", "raadsheer"), "pt": ("juiz(?:a)?", "juíza", "desembargador(?:a)?"),
        "pl": ("sędzia", "sędzina"),
    },
    "commissioner": {
        "en": ("commissioner", "eu commissioner", "european commissioner", "ombudsman"),
        "da": ("*kommissær", "ombudsmand"), "no": ("*kommissær", "ombud"), "sv": ("*kommissionär", "ombudsman"),
        "de": ("*kommissar(?:in)?", "*beauftragte[rn]?"), "fr": ("commissaire(?: européen(?:ne)?)?", "médiat(?:eur|rice)"),
        "es": ("comisari[oa]", "defensor(?:a)? del pueblo"), "it": ("commissari[oa] europe[oa]", "difensore civico"),
        "nl": ("eurocommissaris", "europees commissaris", "ombudsman"),
        "pt": ("comissári[oa] europe[ui]a?", "provedor(?:a)? de justiça"),
        "pl": ("komisarz(?: europejski)?", "rzecznik praw obywatelskich"),
    },
    "head of a regulator": {
        "en": ("(?:head|chair(?:man|woman|person)?|director[- ]general|president|chief executive|ceo) of the "
               "(?:\\w+ ){0,4}(?:authority|regulator|regulatory \\w+|supervisory \\w+|agency|commission|inspectorate)",
               "(?:\\w+ )?regulator's (?:head|chair(?:man|woman)?|chief)",
               "(?:heads|chairs|leads|runs|has (?:headed|chaired|led|run)) the (?:\\w+ ){0,4}(?:authority|regulator|"
               "supervisory \\w+|agency|commission|inspectorate)", "director of public prosecutions",
               "attorney general", "auditor general"),
        "da": ("direktør (?:for|i) (?:\\w+)?(?:tilsynet|styrelsen)", "rigsrevisor", "rigsadvokat"),
        "no": ("direktør (?:for|i) (?:\\w+)?(?:tilsynet|direktoratet)", "riksrevisor", "riksadvokat"),
        "sv": ("generaldirektör", "(?:\\w+)?inspektionens chef", "riksrevisor", "riksåklagare"),
        "de": ("präsident(?:in)? der (?:\\w+ ){0,3}(?:bundesanstalt|behörde|aufsicht|bundesnetzagentur|bafin)",
               "bafin-chef(?:in)?", "generalbundesanwalt", "generalbundesanwältin"),
        "fr": ("président(?:e)? de l'autorité", "président(?:e)? de la commission de régulation",
               "directeur général de l'agence", "procureur(?:e)? de la république"),
        "es": ("president[ae] de la (?:cnmv|cnmc|comisión nacional)", "fiscal general"),
        "it": ("president[ea] (?:della consob|dell'autorità)", "procuratore generale"),
        "nl": ("voorzitter van de (?:afm|acm|autoriteit)", "procureur-generaal"),
        "pt": ("president[ea] da (?:cmvm|anacom|autoridade|comissão de valores)", "procurador(?:a)?[- ]geral"),
        "pl": ("prezes (?:uke|ure|uokik|urzędu)", "przewodnicząc[ya] knf", "prokurator krajowy"),
    },
    "ambassador": {
        "en": ("ambassador", "high commissioner", "envoy", "consul general"),
        "da": ("ambassadør", "generalkonsul"), "no": ("ambassadør", "generalkonsul"),
        "sv": ("ambassadör", "generalkonsul"), "de": ("botschafter(?:in)?", "generalkonsul(?:in)?"),
        "fr": ("ambassad(?:eur|rice)", "consul(?:e)? général(?:e)?"), "es": ("embajador(?:a)?", "cónsul general"),
        "it": ("ambasciat(?:ore|rice)", "console generale"), "nl": ("ambassadeur", "consul-generaal"),
        "pt": ("embaixador(?:a)?", "cônsul[- ]geral"), "pl": ("ambasador", "konsul generalny"),
    },
    "official in post (general)": {
        "en": ("politician", "government official", "official in post", "civil servant", "councillor", "councilor"),
        "da": ("politiker", "byrådsmedlem", "embedsmand", "regionsrådsmedlem"),
        "no": ("politiker", "bystyremedlem", "embetsmann"), "sv": ("politiker", "kommunfullmäktigeledamot"),
        "de": ("politiker(?:in)?", "*stadtrat", "*stadträtin", "beamte[rn]?", "beamtin"),
        "fr": ("homme politique", "femme politique", "conseill(?:er|ère) municipal(?:e)?", "haut fonctionnaire"),
        "es": ("polític[oa]", "concejal(?:a)?", "alto cargo"), "it": ("politic[oa]", "consigliere comunale", "assessore"),
        "nl": ("politicus", "politica", "gemeenteraadslid"), "pt": ("polític[oa]", "vereador(?:a)?"),
        "pl": ("polityk", "radn[ya]"),
    },
}  # fmt: skip

# An office that ended: a word or prefix before the title in each language ("former minister",
# "tidligere minister", "ehemaliger Minister", "ancien ministre", "ex-ministro", "oud-minister").
FORMER_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("former", "ex", "retired", "then", "previously", "one-time", "onetime", "erstwhile", "late", "past"),
    "da": ("tidligere", "forhenværende", "fhv", "daværende", "eks", "forrige"),
    "no": ("tidligere", "forhenværende", "fhv", "daværende", "eks", "forrige"),
    "sv": ("före detta", "f\\.d", "fd", "tidigare", "förre", "dåvarande", "förutvarande"),
    "de": ("ehemalige[rnsm]?", "frühere[rnsm]?", "einstige[rnsm]?", "damalige[rnsm]?", "vormalige[rnsm]?",
           "ex", "a\\.d", "außer dienst"),
    "fr": ("ancien(?:ne)?", "ex", "alors", "précédent(?:e)?"),
    "es": ("ex", "antigu[oa]", "entonces", "anterior"),
    "it": ("ex", "già", "allora", "precedente"),
    "nl": ("voormalig(?:e)?", "oud", "toenmalig(?:e)?", "ex", "vorige"),
    "pt": ("ex", "antig[oa]", "então", "anterior"),
    "pl": ("był[aey]?", "byłego", "byłej", "eks", "ówczesn[yaei]\\w*", "poprzedni\\w*"),
}  # fmt: skip
# Prefixes written onto the title itself: "ex-minister", "exministra", "oud-burgemeester",
# "Altbürgermeister", "eks-minister".
FORMER_PREFIXES = ("ex-", "ex", "eks-", "oud-", "alt-", "alt", "fhv.", "f.d.")
# An end date written after the title: "until 2019", "indtil 2019", "bis 2019", "jusqu'en 2019",
# "hasta 2019", "fino al 2019", "tot 2019", "até 2019", "do 2019", "2015-2019", "from 2010 to 2014".
END_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("until", "till", "through", "ending in", "ended in", "left office in", "stepped down in"),
    "da": ("indtil", "frem til", "gik af i"), "no": ("inntil", "fram til", "frem til", "gikk av i"),
    "sv": ("fram till", "intill", "avgick"), "de": ("bis", "bis zum", "bis ende"),
    "fr": ("jusqu'en", "jusqu'au", "jusqu'à"), "es": ("hasta",), "it": ("fino al?",),
    "nl": ("tot en met", "tot"), "pt": ("até",), "pl": ("do",),
}  # fmt: skip
# "from 2010 to 2014" and its equivalents: the second year is the end. Short words such as
# "to", "a", "à" end an office only after a "from" year, never on their own ("a 2019 report").
FROM_WORDS = ("from", "fra", "frå", "från", "von", "de", "desde", "dal", "van", "od", "entre")
TO_WORDS = ("to", "til", "till", "bis", "à", "a", "al", "tot", "do", "y", "e", "och", "og", "und", "en")
# Offices a word list would take for public ones: a brand's "ambassador", a prize's "judge".
NOT_AN_OFFICE = re.compile(
    r"\b(?:brand|goodwill|student|club|youth|climate|product|global|ministry|ministeriet|ministerium|ministère|"
    r"ministerio|ministero|ministerie|ministério|ministerstwo|departement|competition|contest|award|prize|show|"
    r"panel)\s*$",
    re.IGNORECASE,
)
_YEAR = r"((?:19|20)\d{2})"
_RANGE = re.compile(
    rf"\b(?:(?:{'|'.join(FROM_WORDS)})\s+)?{_YEAR}\s*(?:[-–—/]|\s(?:{'|'.join(TO_WORDS)})\s)\s*(?:{_YEAR}|(\d{{2}}))\b",
    re.IGNORECASE,
)


# Danish, Norwegian and Swedish write the definite article as an ending ("ministeren",
# "riksdagsledamoten", "borgmästaren").
_DEFINITE_ENDING = {"da": "(?:en|n|et)?", "no": "(?:en|n|et)?", "sv": "(?:en|n|et)?"}


def _alternation(language: str, words: tuple[str, ...]) -> str:
    ending = _DEFINITE_ENDING.get(language, "")
    parts = []
    for word in words:
        body = rf"\w*{word[1:]}" if word.startswith("*") else word
        parts.append(f"(?:{body}){ending}")
    return "|".join(parts)


_OFFICE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (
        concept,
        re.compile(
            rf"(?<![\w-])(?:{'|'.join(_alternation(lang, words) for lang, words in langs.items())})(?![\w])",
            re.IGNORECASE,
        ),
    )
    for concept, langs in OFFICES.items()
)
_FORMER_BEFORE = re.compile(
    rf"(?<![\w])(?:{'|'.join(w for ws in FORMER_WORDS.values() for w in ws)})\.?[\s-]+(?:\S+\s+){{0,3}}$",
    re.IGNORECASE,
)
_END_AFTER = re.compile(
    rf"^[^.;]{{0,60}}?\b(?:{'|'.join(w for ws in END_WORDS.values() for w in ws)})\s+(?:(?:the\s+)?end\s+of\s+|"
    rf"(?:\w+\s+)?)?{_YEAR}\b",
    re.IGNORECASE,
)


class OfficeMention(NamedTuple):
    """An office found in a text, with the concept it belongs to."""

    concept: str
    words: str
    start: int
    end: int


def office_mentions(text: str) -> list[OfficeMention]:
    """Every office phrase in ``text`` (longest first where two overlap), with its concept."""
    found: list[OfficeMention] = []
    for concept, pattern in _OFFICE_PATTERNS:
        for match in pattern.finditer(text):
            found.append(OfficeMention(concept, match.group(0), match.start(), match.end()))
    found.sort(key=lambda m: (m.start, -(m.end - m.start)))
    kept: list[OfficeMention] = []
    for mention in found:
        if kept and mention.start < kept[-1].end:
            continue
        kept.append(mention)
    return kept


def office_has_ended(text: str, mention: OfficeMention, today: date | None) -> bool:
    """Whether the text says the office at ``mention`` ended: a "former" word or prefix in
    front of it, or an end date after it that has passed ("until 2019", "2015-2019"). An end
    date not yet reached ("until 2028") is a term still running. Without ``today`` any end
    date written counts as passed."""
    word_start = mention.start
    while word_start > 0 and (text[word_start - 1].isalnum() or text[word_start - 1] in "-."):
        word_start -= 1
    prefix = text[word_start : mention.start].lower()
    if prefix and any(prefix.startswith(p) for p in FORMER_PREFIXES):
        return True
    if _FORMER_BEFORE.search(text[max(0, word_start - 40) : word_start]):
        return True
    after = text[mention.end : mention.end + 80]
    end_year: int | None = None
    end = _END_AFTER.search(after)
    if end:
        end_year = int(end.group(1))
    else:
        span = _RANGE.search(after[:40])
        if span:
            end_year = int(span.group(2)) if span.group(2) else int(span.group(1)[:2] + span.group(3))
    if end_year is None:
        return False
    return today is None or end_year < today.year
