"""The privacy mask ([M] step 4: "Statements about anyone's private life, family,
health, home or location are dropped before anything is stored").

Text the pipeline stores but does not store as statements (page snapshots, search
snippets, cached model answers) passes through ``mask_private_life`` before it is
written; the statements themselves are dropped in ``claims.speaker``. Here, below
every phase, because the web and provider layers mask what they store.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Final

from reliability_core.models.documents import PageSnapshot, SearchResultSet
from reliability_core.text.lexicon import AreaLexicon, LexiconHit, area_lexicon, normalise_for_lexicon
from reliability_core.text.quotes import verify_quote
from reliability_core.text.sentences import sentence_span, split_sentences

_PRIVATE_NOUNS = (
    r"wife|husband|spouse|partner|children|child|kids|son|sons|daughter|daughters|family|mother|father|"
    r"parents|brother|sister|health|illness|diagnosis|home|house|flat|apartment|holidays?|vacations?|"
    r"divorce|marriage|wedding|girlfriend|boyfriend|grandchildren|cancer|treatment|chemotherapy|therapy|"
    r"burnout|depression|pregnancy|weekends|spare\s+time|free\s+time|cottage|summer\s+house|"
    r"doctor|GP|physician|surgeon|heart|medication|houseboat|neighbou?rs?"
)

# --- The concepts of private life in the subjects' languages ---------------------------------
# Written from the concepts ([M] step 4: family, health, home), in English, Danish, Norwegian,
# Swedish, German, Dutch, French, Spanish, Italian and Portuguese. A word that an organisation
# also uses ("family of brands", "cancer research", "cabin crew", "home market") counts only in
# a personal form: a person's possessive or a person as the subject, so an organisation's
# statements are never masked; a word that only a person uses ("dad", "sommerhus") counts alone.

# "my", "his", "her" in each language (not "our"/"their": organisations speak in them).
_PERSONAL_POSSESSIVE = (
    r"my|his|her|min|mit|mine|hans|hendes|hennes|sin|sit|sine|mitt|mina|"
    r"mein|meine|meinem|meinen|meiner|meines|sein|seine|seinem|seinen|seiner|seines|"
    r"mijn|haar|mon|ma|mes|son|sa|ses|mi|mis|mio|mia|miei|mie|suo|sua|suoi|sue|"
    r"meu|minha|meus|minhas|seu|seus|suas"
)
# "I", "he", "she" in each language, as a sentence's subject. The English "I" only before a
# lower-case word: "I" opens Danish, Norwegian and Swedish sentences as "in" ("I 2021 ...");
# the Portuguese "eu" never in capitals, which is the EU.
_PERSON = (
    r"(?:(?:^|(?<=\W))(?:(?-i:I)(?=\s+[a-z'’])|he|she|jeg|han|hun|jag|hon|ich|ik|hij|zij|je|il|elle|yo|él|ella|"
    r"io|lui|lei|(?-i:[Ee]u)|ele|ela)\s+|\bj['’])"
)
# Parents and grandparents called by a familiar word: only family says "mum".
_FAMILIAR_PARENT = (
    r"mum|mummy|mom|mommy|dad|daddy|grandma|grandpa|granny|grandad|"
    r"mormor|morfar|farmor|farfar|mamma|pappa|mutti|vati|maman|mamie|papi|papy|mamá|papá|nonna|nonno|"
    r"vovó|vovô"
)
# Family members after a personal possessive ("min far", "ma mère", "mi esposa").
_FAMILY = (
    r"mor|far|mama|papa|mother|father|grandmother|grandfather|kone|mand|hustru|børn|barn|barnet|søn|datter|bror|søster|"
    r"familie|forældre|kæreste|foreldre|kona|fru|son|dotter|syster|familj|föräldrar|"
    r"mutter|vater|frau|mann|kinder|sohn|tochter|bruder|schwester|eltern|"
    r"moeder|vader|vrouw|man|kinderen|zoon|dochter|broer|zus|ouders|"
    r"mère|père|femme|mari|enfants|fils|fille|frère|sœur|famille|"
    r"madre|padre|esposa|esposo|marido|mujer|hijos|hijo|hija|hermano|hermana|familia|padres|"
    r"moglie|marito|figli|figlio|figlia|fratello|sorella|famiglia|genitori|"
    r"mãe|pai|filhos|filho|filha|irmão|irmã|família|pais"
)
# Illnesses by name (a named illness is a person's health only in a personal form).
_ILLNESS = (
    r"cancer|tumou?r|leuka?emia|lymphoma|stroke|heart\s+attack|diabetes|sclerosis|parkinson'?s|"
    r"alzheimer'?s|dementia|depression|anxiety|burn-?out|long\s+covid|covid|pneumonia|epilepsy|hiv|"
    r"hepatitis|sepsis|meningitis|concussion|migraine|arthritis|"
    r"kræft|blodprop|hjerneblødning|hjerteanfald|sukkersyge|sklerose|demens|angst|stress|"
    r"kreft|hjärtinfarkt|hjärnblödning|"
    r"krebs|schlaganfall|herzinfarkt|leukämie|demenz|"
    r"kanker|beroerte|hartaanval|"
    r"tumeur|avc|infarctus|leucémie|démence|dépression|"
    r"cáncer|ictus|infarto|leucemia|demencia|depresión|cancro|tumore|demenza|depressione|"
    r"câncer|enfarte|demência|depressão"
)
# Treatment of a person: "treated for", "diagnosed with", "operated on", sick leave.
_TREATED = (
    r"treated\s+for|diagnosed|operated\s+on|underwent\s+(?:surgery|an?\s+operation|chemo\w*)|"
    r"admitted\s+to\s+hospital|suffer(?:s|ed|ing)?\s+from|battling|recovering\s+from|"
    r"behandlet\s+for|diagnosticeret|diagnostisert|opereret|operert|sygemeldt|sykmeldt|indlagt|innlagt|"
    r"behandlad\s+för|diagnostiserad|opererad|sjukskriven|inlagd|"
    r"behandelt\s+wegen|diagnostiziert|operiert|krankgeschrieben|"
    r"behandeld\s+voor|gediagnosticeerd|geopereerd|"
    r"soignée?\s+pour|traitée?\s+pour|diagnostiquée?|opérée?\s+(?:de|du|d['’]|à|au)|hospitalisée?|"
    r"tratad[oa]\s+(?:de|por|contra)|diagnosticad[oa]|operad[oa]\s+de|hospitalizad[oa]|internad[oa]|"
    r"curat[oa]\s+per|diagnosticat[oa]|operat[oa]\s+(?:al|alla|di|a)|ricoverat[oa]"
)
# Someone on sick leave (a leave policy is an organisation's: "on" makes it a person's).
_LEAVE = (
    r"on\s+(?:sick|medical)\s+leave|på\s+sygeorlov|i\s+krankenstand|in\s+ziekteverlof|"
    r"en\s+(?:arrêt|congé)\s+maladie|de\s+baja(?:\s+médica|\s+por\s+enfermedad)?|in\s+malattia|"
    r"em\s+licença\s+médica|de\s+licença\s+médica"
)
# A second home described without the word "home": only a household has a summer house.
_HOLIDAY_HOME = (
    r"summer\s*house|beach\s+house|lake\s+house|holiday\s+cottage|ski\s+(?:lodge|chalet)|country\s+house|"
    r"sommerhus\w*|fritidshus\w*|fritidsbolig\w*|feriebolig\w*|sommarstuga\w*|sommarhus\w*|"
    r"ferienhaus\w*|sommerhaus\w*|wochenendhaus\w*|ferienwohnung\w*|vakantiehuis\w*|zomerhuis\w*|"
    r"résidence\s+secondaire|maison\s+de\s+(?:vacances|campagne)|casa\s+de\s+(?:campo|verano|vacaciones|férias|praia)|"
    r"segunda\s+residencia|seconda\s+casa|casa\s+(?:al\s+mare|vacanze|di\s+campagna)"
)
# Dwelling words that organisations use too (a cabin crew, a villa brand): only a person's.
_DWELLING = r"cabin|villa|chalet|hytte|stuga|hütte|huisje|house|hus|haus|huis|maison|casa|hjem|zuhause"
# "our place in Provence": a dwelling of ours in a named place (case-sensitive capital).
_OUR_PLACE_IN = re.compile(
    r"\b(?:[Oo]ur|[Vv]ores|[Vv]årt?|[Uu]nser(?:e|em)?|[Oo]ns|[Nn]otre|[Nn]uestra|[Nn]ostra|[Nn]ossa)\s+"
    rf"(?:\w+\s+)?(?i:{_DWELLING}|place|flat|apartment|farm|cottage)\s+"
    r"(?:in|on|at|near|by|i|på|ved|im|am|bei|en|à|a|al|au|na|no|em|op|bij)\s+(?:the\s+|la\s+|le\s+)?[A-ZÆØÅÄÖÜ]"
)

_CONCEPTS = re.compile(
    rf"\b(?:{_FAMILIAR_PARENT})\b"
    # A family member, but not a "family of products" (of, af, von, de, di, van, du, do, da).
    rf"|\b(?:{_PERSONAL_POSSESSIVE})\s+(?:\w+\s+)?(?:(?:{_FAMILY})\b(?!\s+(?:of|af|von|de|di|van|du|do|da)\b)"
    rf"|(?:{_ILLNESS}|{_DWELLING})\b)"
    rf"|{_PERSON}(?:\w+\s+){{0,4}}?(?:{_TREATED})(?!\w)"
    rf"|{_PERSON}(?:\w+\s+){{0,3}}?(?:wegen|because\s+of|på\s+grund\s+av|pga\.?|à\s+cause\s+d['’]?\w*|por)\s+"
    rf"(?:\w+\s+)?(?:{_ILLNESS})\b"
    rf"|{_PERSON}(?:\w+\s+){{0,3}}?(?:have|has|had|got|har|hade|habe|hat|hatte|heb|heeft|"
    rf"ai|a(?=\s+une?\b)|avait|tengo|tiene|tenía|ho|ha|aveva|tenho|tem|tinha)\s+"
    rf"(?:(?:an?|en|et|ein|eine|einen|un|une|uno|una|um|uma)\s+)?(?:\w+\s+)?(?:{_ILLNESS})\b"
    rf"|\b(?:{_LEAVE})\b|\b(?:{_HOLIDAY_HOME})\b",
    re.IGNORECASE,
)


_PRIVATE_LIFE = re.compile(
    rf"\b(?:my|his|her|their)\s+(?:[a-z']+\s+)?(?:{_PRIVATE_NOUNS})\b"
    r"|\bexpecting\s+(?:a|my|our|her|his|their)\s+(?:\w+\s+)?(?:baby|child)\b"
    # "our children's hospital foundation" is an organisation's: the possessive form is not counted.
    r"|\bour\s+(?:kids|children)\b(?!['’]s?\s)|\bour\s+(?:holiday\s+home|summer\s+house|cottage|home\s+in)\b"
    r"|\bour\s+family\s+(?!of\b|business\b|company\b|firm\b|owned\b|foundation\b)\w+"
    r"|\bdiagnos(?:is|ed)\b|\billness\b|\bsurgery\b|\bhospitali[sz]ed\b|\bpregnan\w*\b|\bdivorc\w*\b"
    # A person is on holiday; an organisation sells holidays ("holiday packages", "the holiday season").
    r"|\b(?:on|a|an|my|his|her|their|our|family)\s+(?:\w+\s+)?(?:holiday|vacation)s?\b"
    r"(?!\s+(?:packages?|season|sales|bookings?|homes?|rentals?|company|companies|business|market|lets?|parks?|resorts?)\b)"
    r"|\bvacation(?:ed|ing)\b|\bholidaying\b|\b(?:holiday|vacation)s?\s+(?:in|with|at)\s+(?!the\s+(?:start|end)\b)"
    r"|\bon\s+sick\s+leave\b"
    r"|\bwhere\s+(?:I|we|he|she|they)\s+lives?\b"
    r"|\b(?:I|we|he|she|they)\s+(?:now\s+|still\s+)?live[sd]?\s+(?:in|on|at|near|outside)\b"
    r"(?!\s+(?:an?|the)\s+(?:\w+\s+)?(?:world|age|era|time|period|moment|economy)\b|\s+(?:\w+\s+)?times\b)"
    r"|\bheart\s+(?:attack|scare|condition|surgery)\b|\bmedical\s+leave\b"
    # A person is in hospital; "patients in hospital wards" are an organisation's.
    r"|\bin\s+hospital\b(?!\s+(?:wards?|beds?|care|settings?|systems?|staff|pharmac\w*|admissions|capacity)\b)"
    r"|\bmoved\s+house\b",
    re.IGNORECASE,
)


PRIVATE_REDACTION = "[sentence about private life withheld]"


# --- The concepts of private life in every language the subjects write (issue 25) ------------
# The words are data (``text/lexicon/privacy/<lang>.json``, written from the concept list);
# the rule below says how the concepts combine. Words only a person's life uses ("Mum",
# "sommerhus", "pregnant", "hospitalised", "divorce") count alone; words an organisation uses
# too ("family", "home", "cancer", "weekend", "lives in") count when a personal frame stands
# next to them: a singular person's pronoun or possessive, a first-person singular verb, or a
# person's title. An organisation's phrases ("family of brands", "home market", "cancer
# research", "children's hospital") are blanked out first, so they never count.

_ALONE: Final = ("familiar_family", "holiday_home", "pregnancy", "marriage", "health_event", "sighting")
_FRAMED: Final = ("family_member", "illness", "treatment", "home", "leisure", "whereabouts")
# A frame counts up to this many words before the private word ("she was treated for ...",
# "min kone og jeg": the pronoun or possessive leads), or right after it, where a language
# puts the possessive after the noun (Hebrew "המשפחה שלי", Italian "la moglie mia").
_FRAME_WORDS_BEFORE: Final = 5
_FRAME_WORDS_AFTER: Final = 1
# An illness and its treatment named within this many words, after a person's name, are that
# person's health ("Anna Berg is recovering from a stroke"); "300 patients were treated for
# cancer in our hospitals" names no one and is an organisation's statement.
_ILLNESS_TREATMENT_WORDS: Final = 6
_PERSON_NAME = re.compile(
    r"\b(?-i:[A-ZÀ-ÖØ-ÞА-ЯЁЄІЇ][a-zà-öø-ÿа-яёєії'’-]+)\s+(?-i:[A-ZÀ-ÖØ-ÞА-ЯЁЄІЇ][a-zà-öø-ÿа-яёєії'’-]+)\b"
)
# Scripts without word gaps count one word per two characters (most Chinese and Japanese
# words are two characters long).
_WORD = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+|[^\W_]+")
_CLAUSE_END = re.compile(r"[.!?;\u3002\uff01\uff1f\u061f\u061b]")


def _privacy_lexicon() -> AreaLexicon:
    return area_lexicon("privacy")


def _words_between(text: str) -> int:
    """How many words ``text`` holds (scripts without word gaps: one per two characters)."""
    count = 0
    for run in _WORD.findall(text):
        count += (len(run) + 1) // 2 if "\u3040" <= run[0] <= "\ufaff" else 1
    return count


def without_organisation_use(text: str) -> str:
    """``text`` with an organisation's uses of private words ("family of brands", "home
    market", "cancer research", "our children's hospital foundation") blanked out, same
    length, so the rest is read as written and no organisation's statement is masked."""
    normal = normalise_for_lexicon(text)
    if len(normal) != len(text):
        text = normal
    hits = _privacy_lexicon().find(text, "organisation_use")
    for hit in reversed(hits):
        text = text[: hit.start] + " " * (hit.end - hit.start) + text[hit.end :]
    return text


def _framed(text: str, hit: LexiconHit, frames: Sequence[LexiconHit]) -> bool:
    """Does a personal frame stand next to ``hit``, in the same clause?"""
    for frame in frames:
        if frame.end <= hit.start:
            gap = text[frame.end : hit.start]
            if not _CLAUSE_END.search(gap) and _words_between(gap) <= _FRAME_WORDS_BEFORE:
                return True
        elif frame.start >= hit.end:
            gap = text[hit.end : frame.start]
            if not _CLAUSE_END.search(gap) and _words_between(gap) <= _FRAME_WORDS_AFTER:
                return True
    return False


def _illness_with_treatment(
    text: str, illnesses: Sequence[LexiconHit], treatments: Sequence[LexiconHit]
) -> bool:
    """An illness and its treatment or recovery named close together, after a person's name
    in the same clause ("Anna Berg is recovering from a stroke")."""
    for ill in illnesses:
        for care in treatments:
            left, right = (ill, care) if ill.end <= care.start else (care, ill)
            if (
                left.end > right.start
                or _words_between(text[left.end : right.start]) > _ILLNESS_TREATMENT_WORDS
            ):
                continue
            clause = _CLAUSE_END.split(text[: left.start])[-1]
            if _PERSON_NAME.search(clause):
                return True
    return False


def _lives_with_family(text: str, places: Sequence[LexiconHit], family: Sequence[LexiconHit]) -> bool:
    """Where someone lives, with their family, in one clause ("vive en Madrid con su mujer",
    "bydlí v Brně s rodinou"): languages that drop the pronoun still say whose life it is."""
    for place in places:
        for member in family:
            left, right = (place, member) if place.end <= member.start else (member, place)
            if left.end <= right.start and not _CLAUSE_END.search(text[left.end : right.start]):
                return True
    return False


def private_life_concepts(text: str) -> bool:
    """[M] step 4 "private life, family, health, home or location" in any of the languages
    ``text.lexicon.WEB_LANGUAGES``: a word only a person's life uses, or a private word with
    a personal frame next to it, or an illness with its treatment; an organisation's uses of
    the words never count (``without_organisation_use``)."""
    lexicon = _privacy_lexicon()
    text = without_organisation_use(text)
    # Every rule below needs a word of one of these concepts: one scan of them all decides
    # most texts (a page's sentences rarely say any), instead of a scan per concept.
    if not lexicon.has_any(text, _ALONE + _FRAMED):
        return False
    if any(lexicon.has(text, concept) for concept in _ALONE):
        return True
    hits = {concept: lexicon.find(text, concept) for concept in _FRAMED}
    if _illness_with_treatment(text, hits["illness"], hits["treatment"]):
        return True
    if _lives_with_family(text, hits["whereabouts"], hits["family_member"]):
        return True
    if not any(hits.values()):
        return False
    frames = lexicon.find(text, "person")
    return any(_framed(text, hit, frames) for found in hits.values() for hit in found)


def _private(text: str) -> bool:
    """Does ``text`` hold a personal form of private life (the keyword rule)? The English
    and Western European patterns above, then the concepts in every language; an
    organisation's uses of the words are blanked out for both."""
    if not text.strip():
        return False
    plain = without_organisation_use(text)
    if _PRIVATE_LIFE.search(plain) or _CONCEPTS.search(plain) or _OUR_PLACE_IN.search(plain):
        return True
    return private_life_concepts(text)


def mentions_private_life(text: str) -> bool:
    """Code-side backstop for [M] "Statements about anyone's private life, family,
    health, home or location are dropped before anything is stored".

    Matches personal forms only ("my wife", "his health", "where she lives",
    "diagnosed", "holiday") so that an organisation's "health programmes" or
    "home market" are not dropped; the classifier's flag covers the rest. Text
    holding the mask (``PRIVATE_REDACTION``) is about private life too: a
    statement that needs a masked sentence is dropped as such."""
    return PRIVATE_REDACTION in text or _private(text)


_MEMO_CHARS = 4000  # texts up to this long are kept with their masked form (titles, snippets, sentences)
_MEMO_PAGE_CHARS = 200_000  # pages up to this long are kept too, fewer of them


def mask_private_life(text: str) -> str:
    """[M] "Statements about anyone's private life, family, health, home or location
    are dropped before anything is stored", applied to text we store but do not
    store as statements (page snapshots, search snippets, cached model answers):
    each sentence the privacy backstop matches is replaced by ``PRIVATE_REDACTION``;
    everything else, line breaks included, is kept exactly as received, so quotes
    are still verified word for word against what remains."""
    # The same titles, snippets, sentences and pages pass through here again and again
    # (every search result set, every cached answer, every page read once per claim): a
    # text's masking is kept, so the lexicon is read once per text. Short texts are kept by
    # the thousand, pages by the hundred and very long ones not at all, to bound memory.
    # The key holds the privacy lexicon's digest, so a changed lexicon is read afresh. Blank
    # text holds no sentence: it is returned before the lexicon is read (a refused page's
    # empty snapshot must not load the lexicon inside the fetch's memory bound).
    if not text.strip():
        return text
    digest = _privacy_lexicon().digest
    if len(text) <= _MEMO_CHARS:
        return _mask_kept(text, digest)
    return _mask_page_kept(text, digest) if len(text) <= _MEMO_PAGE_CHARS else _mask(text)


@functools.lru_cache(maxsize=8192)
def _mask_kept(text: str, digest: str) -> str:
    del digest  # part of the cache key only
    return _mask(text)


@functools.lru_cache(maxsize=128)
def _mask_page_kept(text: str, digest: str) -> str:
    del digest  # part of the cache key only
    return _mask(text)


def _mask(text: str) -> str:
    # The keyword rule alone decides here, so masking masked text changes nothing.
    if not _private(text):
        return text
    lines = text.split("\n")
    for n, line in enumerate(lines):
        if not _private(line):
            continue
        parts = split_sentences(line, keep_breaks=True)
        # Even positions are sentences, odd ones the breaks between them.
        lines[n] = "".join(
            PRIVATE_REDACTION if i % 2 == 0 and _private(part) else part for i, part in enumerate(parts)
        )
    return "\n".join(lines)


def mask_page_snapshot(snapshot: PageSnapshot) -> PageSnapshot:
    """A page snapshot as it may be stored: title, visible text and main text with
    every private-life sentence masked (``mask_private_life``). The SHA-256 and byte
    count of the body as received stay on the record, so what was fetched is still
    provable; ``private_life_masked`` counts the masked sentences (never their text)."""
    return _masked_snapshot(snapshot, mask_private_life)


def mask_sentences_holding(text: str, quotes: Sequence[str]) -> str:
    """[M] step 4 "dropped before anything is stored", for statements found private by
    the classifier or the keyword rule: every sentence of ``text`` that holds one of
    ``quotes`` (found word for word after normalisation, as quotes are verified) is
    replaced by ``PRIVATE_REDACTION``, line by line so line breaks stay as received."""
    for quote in quotes:
        if not quote.strip() or PRIVATE_REDACTION in quote:
            continue
        # Every occurrence: the page may repeat the sentence (a pull quote, a summary).
        while (check := verify_quote(quote, text)).verified:
            assert check.start is not None and check.end is not None
            left, right = sentence_span(text, check.start, check.end)
            held = text[left:right].split("\n")
            masked = "\n".join(PRIVATE_REDACTION if line.strip() else line for line in held)
            if masked == text[left:right]:
                break
            text = text[:left] + masked + text[right:]
    return text


def mask_private_statements(snapshot: PageSnapshot, quotes: Sequence[str]) -> PageSnapshot:
    """A page snapshot as it may be stored once step 4 has read it: the keyword rule's
    mask (``mask_page_snapshot``) and every sentence holding a statement dropped as
    private (``quotes``, by the classifier or the rule) masked in its title, visible
    text, main text and hidden texts; ``private_life_masked`` counts the masked
    sentences (never their text)."""
    snapshot = mask_page_snapshot(snapshot)
    if not quotes:
        return snapshot
    return _masked_snapshot(snapshot, lambda text: mask_sentences_holding(text, quotes))


def mask_private_in_results(
    result_sets: Sequence[SearchResultSet], quotes: Sequence[str]
) -> list[SearchResultSet]:
    """Stored search results with every sentence holding one of ``quotes`` (statements
    found private after the results were stored) masked in their titles and snippets."""
    if not quotes:
        return list(result_sets)
    masked = []
    for result_set in result_sets:
        results = [
            r.model_copy(
                update={
                    "title": mask_sentences_holding(r.title, quotes),
                    "snippet": mask_sentences_holding(r.snippet, quotes),
                }
            )
            for r in result_set.results
        ]
        masked.append(
            result_set
            if results == result_set.results
            else result_set.model_copy(update={"results": results})
        )
    return masked


def _masked_snapshot(snapshot: PageSnapshot, mask: Callable[[str], str]) -> PageSnapshot:
    """``snapshot`` with ``mask`` applied to its title, visible text, main text and hidden
    texts, counting the sentences it masked in ``private_life_masked`` (never their text);
    the SHA-256 and byte count of the body as received stay, so what was fetched is still
    provable. Unchanged text gives the same snapshot back."""
    title, text, main = (mask(t) for t in (snapshot.title, snapshot.text, snapshot.main_text))
    hidden = [h.model_copy(update={"text": mask(h.text)}) for h in snapshot.hidden_texts]
    if (title, text, main, hidden) == (
        snapshot.title,
        snapshot.text,
        snapshot.main_text,
        snapshot.hidden_texts,
    ):
        return snapshot
    masked = text.count(PRIVATE_REDACTION) - snapshot.text.count(PRIVATE_REDACTION)
    return snapshot.model_copy(
        update={
            "title": title,
            "text": text,
            "main_text": main,
            "hidden_texts": hidden,
            "private_life_masked": snapshot.private_life_masked + masked,
        }
    )
