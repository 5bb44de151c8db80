"""What the quote's own words say, read by code, for triage ([M] step 5) and [R] v1.2.

The classifier proposes flags (too vague, counterfactual, own records only, an intention
without a target, the deadline, harm to a person); these functions read the same things from
the quote, so a classifier's label never decides alone (issue 24, "Rules only the stand-in
holds"). ``claims.triage.decide_triage_flags`` sets the two readings side by side: where they
disagree, the code's reading stands and the disagreement is recorded on the claim.

Each cue list is built as a concept first, then the words of each of the subjects'
languages (English, Danish, Norwegian, Swedish, German, French, Spanish, Italian, Dutch,
Portuguese, Polish; harm to a person in Hebrew too, as [R] v1.2 names it). A function that
cannot tell returns None, and the classifier's flag then stands.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from reliability_core.text.dates import find_dates, said_after, said_before
from reliability_core.text.numbers import parse_numbers


def _any(words: dict[str, tuple[str, ...]]) -> str:
    return "|".join(w for ws in words.values() for w in ws)


# --- Counterfactual: about what would have happened ---------------------------------------

COUNTERFACTUAL: dict[str, tuple[str, ...]] = {
    "en": (r"^\s*had\s+\w+", r"\bif\b[^.]*\bhad\b", r"\bwould\s+have\b", r"\bwould\s+not\s+have\b",
           r"\bcould\s+have\s+been\b", r"\bwere\s+it\s+not\s+for\b"),
    "da": (r"\bhvis\b[^.]*\bhavde\b", r"\bville\s+(?:ikke\s+)?have\b", r"\bhavde\s+vi\s+ikke\b"),
    "no": (r"\bhvis\b[^.]*\bhadde\b", r"\bville\s+(?:ikke\s+)?ha(?:tt)?\b", r"\bhadde\s+vi\s+ikke\b"),
    "sv": (r"\bom\b[^.]*\bhade\b", r"\bskulle\s+(?:inte\s+)?ha\b", r"\bhade\s+vi\s+inte\b"),
    "de": (r"\bhätte[n]?\b", r"\bwäre[n]?\b[^.]*\bgewesen\b", r"\bwenn\b[^.]*\bhätte"),
    "fr": (r"\bsi\s+(?:nous|on|j'|il|elle|ils)\w*\s+(?:avions|avait|avais|étions|était)\b", r"\baurai(?:t|ent|s)\b",
           r"\baurions\b", r"\bserai(?:t|ent)\s+\w+é"),
    "es": (r"\bsi\s+(?:no\s+)?hubi(?:éramos|era|eran|ese)\b", r"\bhabría(?:mos|n)?\b"),
    "it": (r"\bse\s+(?:non\s+)?(?:avessimo|avesse|avessero|fossimo|fosse)\b", r"\bavrebbe(?:ro)?\b", r"\bavremmo\b",
           r"\bsarebbe(?:ro)?\s+stat"),
    "nl": (r"\bals\b[^.]*\bhadden\b", r"\bzou(?:den)?\b[^.]*\bhebben\b", r"\bhad\s+\w+\s+niet\b"),
    "pt": (r"\bse\s+(?:não\s+)?(?:tivéssemos|tivesse|tivessem)\b", r"\bteria(?:mos|m)?\b"),
    "pl": (r"\bgdyby(?:śmy|m)?\b", r"\bbyłby(?:śmy)?\b", r"\bbyłoby\b"),
}  # fmt: skip
_COUNTERFACTUAL = re.compile(_any(COUNTERFACTUAL), re.IGNORECASE)


def is_counterfactual_wording(quote: str) -> bool:
    """[M] step 5 "never resolvable (... counterfactual ...)": the quote says what would have
    happened ("had we not ...", "if ... had", "would have"; "hätten wir", "si nous avions",
    "gdybyśmy" ...). True when the words say so; False means only that no cue was found."""
    return bool(_COUNTERFACTUAL.search(quote))


# --- Too vague: an evaluation with nothing to measure ----------------------------------

EVALUATIVE: dict[str, tuple[str, ...]] = {
    "en": ("best", "greatest", "greenest", "finest", "leading", "world-class", "unrivalled", "unmatched",
           "the future of", "second to none", "excellent", "outstanding", "amazing"),
    "da": ("bedste", "førende", "verdensklasse", "grønneste", "fremragende", "uovertruffen"),
    "no": ("beste", "ledende", "verdensklasse", "grønneste", "fremragende"),
    "sv": ("bästa", "ledande", "världsklass", "grönaste", "enastående"),
    "de": ("beste[nrs]?", "führende[nrs]?", "weltklasse", "grünste[nrs]?", "hervorragend", "unübertroffen"),
    "fr": ("meilleur(?:e|s|es)?", "leader", "de classe mondiale", "le plus vert", "inégalé(?:e)?", "exceptionnel(?:le)?"),
    "es": ("mejor(?:es)?", "líder", "de clase mundial", "más verde", "inigualable", "excelente"),
    "it": ("migliore?", "leader", "di livello mondiale", "più verde", "ineguagliabile", "eccellente"),
    "nl": ("beste", "toonaangevend(?:e)?", "wereldklasse", "groenste", "ongeëvenaard(?:e)?", "uitstekend(?:e)?"),
    "pt": ("melhor(?:es)?", "líder", "de classe mundial", "mais verde", "inigualável", "excelente"),
    "pl": ("najlepsz\\w*", "wiodąc\\w*", "światowej klasy", "najbardziej zielon\\w*", "niezrównan\\w*"),
}  # fmt: skip
_EVALUATIVE = re.compile(rf"(?<!\w)(?:{_any(EVALUATIVE)})(?!\w)", re.IGNORECASE)


# Dates are not figures to measure: "the best since 2010" is still an evaluation, "we hope to
# grow by 2030" still an intention.
_DATES = re.compile(r"(?<!\d)(?:\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{4}|(?:19|20)\d{2}|Q[1-4]|H[12])(?!\d)")


def _without_dates(quote: str) -> str:
    return _DATES.sub(" ", quote)


def vague_wording(quote: str) -> bool | None:
    """[M] step 5 "never resolvable (too vague ...)": an evaluation ("we are the best",
    "førende", "weltklasse") with no figure written in digits is too vague (True); a figure in
    digits is something a record can settle (False); otherwise the words alone cannot tell
    (None)."""
    digits = bool(re.search(r"\d", _without_dates(quote)))
    if _EVALUATIVE.search(quote) and not digits:
        return True
    if digits:
        return False
    return None


# --- Own records only: internal figures and processes -----------------------------------

OWN_RECORDS: dict[str, tuple[str, ...]] = {
    "en": (r"internal(?:ly)?", r"(?:staff|employee|engagement)\s+survey", r"our\s+own\s+records"),
    "da": (r"intern(?:e|t)?", r"medarbejder(?:tilfredsheds)?(?:undersøgelse|måling)"),
    "no": (r"intern(?:e|t)?", r"medarbeider(?:undersøkelse|tilfredshet)"),
    "sv": (r"intern(?:a|t)?", r"medarbetar(?:undersökning|enkät)"),
    "de": (r"intern(?:e[nrms]?)?", r"mitarbeiter(?:befragung|umfrage)"),
    "fr": (r"interne[s]?", r"enquête\s+(?:interne|auprès\s+des\s+salariés)"),
    "es": (r"interno[s]?|interna[s]?", r"encuesta\s+(?:interna|a\s+(?:los\s+)?empleados)"),
    "it": (r"intern[oaie]", r"sondaggio\s+(?:interno|tra\s+i\s+dipendenti)"),
    "nl": (r"intern(?:e)?", r"medewerkers(?:onderzoek|enquête)"),
    "pt": (r"intern[oa]s?", r"pesquisa\s+(?:interna|com\s+(?:os\s+)?funcionários)"),
    "pl": (r"wewnętrzn\w*", r"ankiet\w*\s+pracownicz\w*"),
}  # fmt: skip
_OWN_RECORDS = re.compile(rf"(?<!\w)(?:{_any(OWN_RECORDS)})(?!\w)", re.IGNORECASE)


def own_records_wording(quote: str) -> bool:
    """[M] step 5 "checkable only against the subject's own records (internal figures and
    processes)": the quote reports an internal figure or process ("our internal audit", "an
    employee survey"; "intern", "Mitarbeiterbefragung", "enquête interne" ...)."""
    return bool(_OWN_RECORDS.search(quote))


# --- An intention without a target ------------------------------------------------------

INTENTION: dict[str, tuple[str, ...]] = {
    "en": (r"(?:want|wants|hope|hopes|aspire|aspires|strive|strives|wish|wishes|dream|dreams)\s+to", r"ambitions?"),
    "da": (r"vil\s+gerne", r"håber", r"ønsker\s+at", r"stræber\s+efter", r"ambition(?:en|er)?", r"drømmer\s+om"),
    "no": (r"ønsker\s+å", r"håper", r"streber\s+etter", r"ambisjon(?:en|er)?", r"drømmer\s+om"),
    "sv": (r"vill\s+gärna", r"hoppas", r"önskar", r"strävar\s+efter", r"ambition(?:en|er)?", r"drömmer\s+om"),
    "de": (r"möchten", r"hoffen", r"streben", r"ambition(?:en)?", r"wünschen\s+uns", r"träumen\s+von"),
    "fr": (r"souhait(?:ons|e)", r"esp[éè]r(?:ons|e)", r"aspir(?:ons|e)", r"ambition[s]?", r"rêv(?:ons|e)\s+de"),
    "es": (r"quer(?:emos|ría)", r"esperamos", r"aspiramos", r"ambici(?:ón|ones)", r"deseamos", r"soñamos\s+con"),
    "it": (r"vorremmo", r"speriamo", r"aspiriamo", r"ambizion[ei]", r"desideriamo", r"sogniamo\s+di"),
    "nl": (r"willen\s+graag", r"hopen", r"streven\s+ernaar", r"ambitie[s]?", r"dromen\s+van"),
    "pt": (r"quer(?:emos|íamos)", r"esperamos", r"aspiramos", r"ambiç(?:ão|ões)", r"desejamos", r"sonhamos\s+com"),
    "pl": (r"chcielibyśmy", r"mamy\s+nadzieję", r"dążymy", r"ambicj\w*", r"marzymy\s+o"),
}  # fmt: skip
_INTENTION = re.compile(rf"(?<!\w)(?:{_any(INTENTION)})(?!\w)", re.IGNORECASE)


def has_written_figure(quote: str) -> bool:
    """A figure is written in the quote, in digits or words (``text.numbers``); a year or
    a date is not a figure."""
    text = _without_dates(quote)
    return bool(re.search(r"\d", text)) or bool(parse_numbers(text))


def intention_without_target_wording(quote: str) -> bool | None:
    """[M] "plans and intentions without either [a deliverable or a measurable target] are
    not checked": intention words ("we hope to", "ambition"; "håber", "möchten", "souhaitons"
    ...) with no figure written are an intention without a target (True); a figure written
    is a measurable target (False); otherwise the words alone cannot tell (None)."""
    if has_written_figure(quote):
        return False
    if _INTENTION.search(quote):
        return True
    return None


# --- The deadline, read from the quote ----------------------------------------------------


def deadline_in_words(quote: str) -> date | None:
    """[M] step 4 "any deadline", read from the quote: the last day by which a dated promise
    or prediction should come true, from the one reader of written times (``text.dates``,
    CLDR month names in every WEB language) and the words around it (lexicon area
    ``dates``). "by 2025", "in 2025", "inden 2025", "bis 2025", "d'ici 2025", "до 2025 года",
    "2025年までに", "2025'e kadar" -> 2025-12-31; "by June 2027", "bis Ende Juni 2027", "d'ici
    juin 2027" -> 2027-06-30; "by Q3 2026" -> 2026-09-30; "before 2016", "vor 2016", "2016年より
    前" -> 2015-12-31; a day as written (2027-01-01, 1 January 2027, 1. januar 2027,
    01.01.2027, 2027年1月1日). The first time in the quote that the words make a limit decides.
    Relative dates ("next year") are not resolved: None."""
    for mention in find_dates(quote):
        if said_before(quote, mention, "before_before") or said_after(quote, mention, "before_after"):
            return mention.first - timedelta(days=1)
        if (
            mention.precision == "day"
            or mention.end_of
            or said_before(quote, mention, "deadline_before")
            or said_after(quote, mention, "deadline_after")
        ):
            return mention.last
    return None


RELATIVE_DATE: dict[str, tuple[str, ...]] = {
    "en": (r"next\s+(?:year|month|quarter)", r"this\s+(?:year|autumn|spring|summer|winter|quarter)",
           r"within\s+\w+\s+(?:years?|months?)", r"in\s+\w+\s+(?:years?|months?)(?:'\s+time)?"),
    "da": (r"næste\s+år", r"i\s+år", r"inden\s+for\s+\w+\s+år"), "no": (r"neste\s+år", r"i\s+år", r"innen\s+\w+\s+år"),
    "sv": (r"nästa\s+år", r"i\s+år", r"inom\s+\w+\s+år"), "de": (r"nächste[ns]?\s+jahr", r"dieses\s+jahr", r"innerhalb"),
    "fr": (r"l'an(?:née)?\s+prochaine?", r"cette\s+année", r"d'ici\s+\w+\s+ans"), "es": (r"el\s+próximo\s+año", r"este\s+año"),
    "it": (r"l'anno\s+prossimo", r"quest'anno", r"entro\s+\w+\s+anni"), "nl": (r"volgend\s+jaar", r"dit\s+jaar"),
    "pt": (r"próximo\s+ano", r"este\s+ano"), "pl": (r"w\s+przyszłym\s+roku", r"w\s+tym\s+roku"),
}  # fmt: skip
_RELATIVE_DATE = re.compile(rf"(?<!\w)(?:{_any(RELATIVE_DATE)})(?!\w)", re.IGNORECASE)


def has_relative_date(quote: str) -> bool:
    """The quote dates itself relatively ("next year", "within two years"; "næste år",
    "nächstes Jahr" ...): only the date it was said can resolve it, so a deadline the
    classifier resolved from it is not refused for being unwritten."""
    return bool(_RELATIVE_DATE.search(quote))


# --- Someone dying or being hurt ([R] v1.2) -----------------------------------------------

# Forms of dying, being killed and being hurt that say it of a person: verbs and the
# participles that go with a person, never the count nouns a statistic uses ("deaths",
# "injuries", "fatalities": a mortality figure is a public record, not someone's harm).
HARM: dict[str, tuple[str, ...]] = {
    # English "die"/"dies" alone would read the German article and "dies" ("this"): only the
    # forms English alone writes. "Dead", "hurt", "harmed" and "shot" are left out: business
    # copy uses them of deals, sales and films.
    "en": (r"died", r"dying", r"(?:will|would|could|may|might|to|shall|going\s+to|not)\s+die(?!\s+(?:out|off|down))",
           r"dies\s+(?:of|from|in|at|after|before)", r"(?:be|been|was|were|is|are|get|got|gets)\s+(?:killed|injured|"
           r"wounded|murdered|assassinated)", r"pass(?:es|ed)?\s+away", r"los(?:e|es|t)\s+(?:his|her|their)\s+li(?:fe|ves)"),
    # "dør" is also "door": only the forms that are not.
    "da": (r"(?:vil|skal|kan|kommer\s+til\s+at)\s+dø", r"døde", r"(?:blive|blevet|blev|bliver)\s+(?:dræbt|såret|kvæstet|"
           r"myrdet)", r"omkom(?:mer|met)?", r"mist(?:e|er|ede)\s+livet", r"kom(?:mer)?\s+til\s+skade"),
    "no": (r"(?:vil|skal|kan|kommer\s+til\s+å)\s+dø", r"døde", r"(?:bli|blitt|ble|blir)\s+(?:drept|såret|skadet|myrdet)",
           r"omk(?:om|ommer|ommet)", r"mist(?:e|er|et)\s+livet"),
    "sv": (r"(?:kommer\s+att|ska|skall|kan)\s+dö", r"dör", r"dött", r"avled", r"(?:bli|blivit|blev|blir)\s+(?:dödad|"
           r"skadad|sårad|mördad)e?", r"omk(?:om|ommer|ommit)", r"mist(?:a|ar|ade)\s+livet"),
    "de": (r"stirbt|starb|starben|gestorben", r"(?:wird|werden)\s+sterben", r"(?:wird|werden|wurde|wurden|ist|sind)\s+"
           r"(?:\S+\s+){0,8}(?:getötet|verletzt|verwundet|ermordet)", r"ums\s+leben\s+(?:kommen|kommt|kam|gekommen)"),
    "fr": (r"meur(?:t|ent)", r"mourr(?:a|ont)", r"(?:est|sont|sera|seront|a\s+été|ont\s+été)\s+(?:\w+\s+)?(?:tué|tuée|"
           r"tués|blessé|blessée|blessés|décédé|décédée|assassiné)", r"(?:a|ont)\s+(?:trouvé\s+la\s+mort|péri)"),
    "es": (r"muer(?:e|en)", r"morir(?:á|án)", r"muri(?:ó|eron)", r"falleci(?:ó|eron|do)", r"fallecerá",
           r"(?:fue|fueron|será|serán|está|están|ha\s+sido)\s+(?:\w+\s+)?(?:asesinad|herid|lesionad)[oa]s?"),
    "it": (r"muor(?:e|ono)", r"morirà|moriranno", r"(?:è|sono|sarà|saranno|è\s+stato|sono\s+stati)\s+(?:\w+\s+)?"
           r"(?:mort|uccis|ferit|decedut)[oaie]"),
    "nl": (r"sterf(?:t)?|sterven|stierf|stierven", r"(?:is|zijn|wordt|worden|werd|werden)\s+(?:\w+\s+)?(?:overleden|"
           r"gedood|gewond|vermoord|omgekomen)", r"komt\s+om|kwam\s+om|om\s+het\s+leven"),
    "pt": (r"morr(?:e|em|eu|eram|erá|erão)", r"falec(?:e|eu|eram|erá)", r"(?:foi|foram|será|serão|está|estão)\s+"
           r"(?:\w+\s+)?(?:mort|ferid|assassinad)[oa]s?"),
    "pl": (r"umrze|umrą|umarł[aoy]?|umarli|zmarł[aoy]?|zmarli", r"zgin(?:ie|ą|ął|ęła|ęli)", r"(?:został[aoy]?|zostali|"
           r"zostanie|zostaną)\s+(?:zabit|rann|zamordowan)\w*"),
    "he": ("ימות", "ימותו", "מת", "מתה", "מתו", "נהרג", "נהרגה", "נהרגו", "ייהרג", "ייהרגו", "נפצע", "נפצעה", "נפצעו",
           "ייפצע", "ייפצעו", "נרצח", "נרצחה"),
}  # fmt: skip
_HARM = re.compile(rf"(?<!\w)(?:{_any(HARM)})(?!\w)", re.IGNORECASE)


def harm_to_person_wording(quote: str) -> bool:
    """[R] v1.2 "a claim about someone dying or getting hurt can't be locked at all ... It
    now hands them straight back, without searching": the quote says that someone dies, is
    killed or is hurt, will be, or was ("will die", "was injured", "vil dø", "wird getötet",
    "sera blessé", "zginie", "נהרג"), in any of the subjects' languages. A count noun of a
    statistic ("road deaths fell", "zero lost-time injuries") is not someone's harm."""
    return bool(_HARM.search(quote))
