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

import calendar
import re
from datetime import date

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

MONTHS: dict[str, tuple[str, ...]] = {
    "en": tuple(calendar.month_name[1:]),
    "da": ("januar", "februar", "marts", "april", "maj", "juni", "juli", "august", "september", "oktober",
           "november", "december"),
    "no": ("januar", "februar", "mars", "april", "mai", "juni", "juli", "august", "september", "oktober",
           "november", "desember"),
    "sv": ("januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti", "september", "oktober",
           "november", "december"),
    "de": ("januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september", "oktober",
           "november", "dezember"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre"),
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
           "noviembre", "diciembre"),
    "it": ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre",
           "novembre", "dicembre"),
    "nl": ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
           "november", "december"),
    "pt": ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
           "novembro", "dezembro"),
    "pl": ("stycz\\w*", "lut\\w*", "mar(?:zec|ca)", "kwie\\w*", "maj\\w*", "czerw\\w*", "lip\\w*", "sierp\\w*",
           "wrze\\w*", "październik\\w*", "listopad\\w*", "grud\\w*"),
}  # fmt: skip
# "by", "before", "in", "until" and their equivalents: a deadline is a date the claim runs to.
BY_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("by", "in", "before", "until", "during", "through", "throughout", "for", "on"),
    "da": ("inden", "senest", "i", "før", "til", "frem til", "ved"),
    "no": ("innen", "senest", "i", "før", "til", "fram til", "ved"),
    "sv": ("senast", "före", "innan", "i", "till", "fram till", "vid"),
    "de": ("bis", "vor", "im", "in", "bis zum", "bis spätestens", "spätestens"),
    "fr": ("d'ici", "avant", "en", "d'ici à", "jusqu'en", "au plus tard en", "pour"),
    "es": ("para", "antes de", "en", "hasta", "a más tardar en"),
    "it": ("entro", "entro il", "prima del", "nel", "in", "fino al"),
    "nl": ("in", "voor", "tegen", "uiterlijk", "uiterlijk in", "tot"),
    "pt": ("até", "antes de", "em", "no máximo em"),
    "pl": ("do", "przed", "w", "najpóźniej w", "najpóźniej do"),
}  # fmt: skip
BEFORE_WORDS = ("before", "før", "före", "innan", "vor", "avant", "antes de", "prima del", "voor", "przed")
END_OF = (r"(?:the\s+)?end\s+of|(?:the\s+)?close\s+of|udgangen\s+af|utgangen\s+av|utgången\s+av|slutningen\s+af|"
          r"slutten\s+av|slutet\s+av|ende|fin(?:\s+de)?|finales\s+de|final\s+de|la\s+fine\s+del?|fine|eind|"
          r"het\s+eind\s+van|końca|koniec")  # fmt: skip
_MONTH_NUMBER: dict[str, int] = {}
_MONTH_PATTERNS: list[tuple[re.Pattern[str], int]] = []
for _names in MONTHS.values():
    for _number, _name in enumerate(_names, start=1):
        _MONTH_PATTERNS.append((re.compile(rf"^(?:{_name})$", re.IGNORECASE), _number))
_MONTH = "|".join(sorted({n for ns in MONTHS.values() for n in ns}, key=len, reverse=True))
_BY = "|".join(sorted({w for ws in BY_WORDS.values() for w in ws}, key=len, reverse=True))
_YEAR = r"((?:19|20)\d{2})"
_PART = r"(Q[1-4]|H[12]|[1-4]Q|[1-4]\.\s*(?:quartal|kvartal)|[1-4]\.\s*halvår|(?:first|second|third|fourth)\s+quarter)"


def _month_number(word: str) -> int | None:
    for pattern, number in _MONTH_PATTERNS:
        if pattern.match(word):
            return number
    return None


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


_PART_END = {"1": 3, "2": 6, "3": 9, "4": 12}
_DEADLINES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"), "iso"),
    (re.compile(rf"(?<!\w)(\d{{1,2}})[./](\d{{1,2}})[./]{_YEAR}\b"), "dmy_digits"),
    (re.compile(rf"(?<!\w)(?:{_BY})\s+(?:the\s+|den\s+|le\s+|el\s+|il\s+|o\s+|dia\s+)?(\d{{1,2}})(?:\.|er|st|nd|rd|th)?\s*(?:de\s+)?"
                rf"({_MONTH})\s+(?:de\s+)?{_YEAR}", re.IGNORECASE), "day_month"),
    (re.compile(rf"(?<!\w)(?:{_BY})\s+({_MONTH})\s+(\d{{1,2}}),\s+{_YEAR}", re.IGNORECASE), "month_day"),
    (re.compile(rf"(?<!\w)(?:{_BY})\s+(?:(?:{END_OF})\s+)?(?:de\s+|di\s+)?({_MONTH})\s+(?:de\s+|del\s+)?{_YEAR}",
                re.IGNORECASE), "month"),
    (re.compile(rf"(?<!\w)(?:{_BY})\s+(?:(?:{END_OF})\s+)?(?:the\s+)?{_PART}\s+(?:of\s+)?{_YEAR}", re.IGNORECASE),
     "part"),
    (re.compile(rf"(?<!\w)(?:{'|'.join(BEFORE_WORDS)})\s+{_YEAR}\b", re.IGNORECASE), "before_year"),
    (re.compile(rf"(?<!\w)(?:{_BY})\s+(?:(?:{END_OF})\s+)?(?:the\s+)?(?:fiscal\s+year\s+|year\s+|året\s+|"
                rf"dem\s+jahr\s+|l'année\s+|el\s+año\s+|l'anno\s+|het\s+jaar\s+|o\s+ano\s+|roku\s+)?{_YEAR}\b",
                re.IGNORECASE), "year"),
)  # fmt: skip


def deadline_in_words(quote: str) -> date | None:
    """[M] step 4 "any deadline", read from the quote: the last day by which a dated promise
    or prediction should come true. "by 2025", "in 2025", "inden 2025", "bis 2025", "d'ici
    2025" -> 2025-12-31; "by June 2027", "bis Ende Juni 2027", "d'ici juin 2027" -> 2027-06-30;
    "by Q3 2026" -> 2026-09-30; "before 2016", "vor 2016" -> 2015-12-31; exact dates as
    written (2027-01-01, 1 January 2027, 1. januar 2027, 01.01.2027). Relative dates ("next
    year") are not resolved: None."""
    for pattern, kind in _DEADLINES:
        match = pattern.search(quote)
        if not match:
            continue
        try:
            if kind == "iso":
                return date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
            if kind == "dmy_digits":
                return date(int(match.group(3)), int(match.group(2)), int(match.group(1)))
            if kind == "day_month":
                month = _month_number(match.group(2))
                if month is not None:
                    return date(int(match.group(3)), month, int(match.group(1)))
                continue
            if kind == "month_day":
                month = _month_number(match.group(1))
                if month is not None:
                    return date(int(match.group(3)), month, int(match.group(2)))
                continue
            if kind == "month":
                month = _month_number(match.group(1))
                if month is not None:
                    return _month_end(int(match.group(2)), month)
                continue
            if kind == "part":
                return _month_end(int(match.group(2)), _part_end_month(match.group(1)))
            if kind == "before_year":
                return date(int(match.group(1)) - 1, 12, 31)
            return date(int(match.group(1)), 12, 31)
        except ValueError:
            continue
    return None


def _part_end_month(part: str) -> int:
    text = part.lower()
    if text.startswith("h") or "halvår" in text:
        return 6 if re.search(r"1", text) else 12
    if "quarter" in text:
        return {"first": 3, "second": 6, "third": 9, "fourth": 12}[text.split()[0]]
    digit = re.search(r"[1-4]", text)
    return _PART_END[digit.group(0)] if digit else 12


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
