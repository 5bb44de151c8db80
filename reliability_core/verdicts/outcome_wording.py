"""What a quote's own words say: an outcome, or only an expectation, a plan or a report of
what someone said ([R] "Forecasts, polls and analyst expectations are never outcomes";
[M] step 7 "reports that only repeat the claim"; [M] step 8 "a report of a delay or
cancellation"; [R] "the event was cancelled").

The evidence reader proposes a label for each quote (``ReadItem.kind``, ``stance``); the
rules that decide whether the label stands (``evidence_rules.never_an_outcome_reading``,
``duplicates.repeats_claim``, ``verdict_rules.has_positive_evidence`` and
``verdict_rules.cancelled_event_verdict``) read the verified quote's own words through the
word lists here. The lists are written from the concepts (future tense, expectation and
estimate words, polls, analysts, reported speech, plans, delays and cancellations) for the
languages the subjects write: English, Danish, Norwegian, Swedish, German, Dutch, French,
Spanish, Italian and Portuguese. They decide only what a quote is not (not an outcome, not
independent of the claim); a quote none of them matches is left as the reader read it.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Literal

from reliability_core.text.dates import find_dates

NotOutcomeKind = Literal["forecast", "poll", "analyst_expectation"]


def _words(*alternatives: str) -> re.Pattern[str]:
    """One case-insensitive pattern of whole words or phrases (each alternative a regex)."""
    return re.compile(r"(?<![\w'’])(?:" + "|".join(alternatives) + r")(?![\w’])", re.IGNORECASE)


# Analysts and their consensus: what they expect is never what happened.
ANALYST_WORDS = _words(
    r"analysts?", r"consensus", r"analytiker(?:e|en|ne|na)?", r"analyst(?:en|in|innen)?",
    r"analystes?", r"analistas?", r"analisti", r"analisten", r"markedsanalytiker\w*",
)  # fmt: skip
# Polls and opinion surveys.
POLL_WORDS = _words(
    r"polls?", r"polling", r"polled", r"opinion (?:survey|research)", r"survey of (?:voters|households)",
    r"meningsmåling(?:er|en)?", r"(?:meinungs)?umfragen?", r"sondages?", r"encuestas?", r"sondeos?",
    r"sondaggi[o]?", r"peilingen?", r"opinionsmätning(?:ar|en)?", r"sondagens?", r"meningsmålinger",
)  # fmt: skip
# Expectation, forecast and estimate wording.
EXPECTATION_WORDS = _words(
    # English
    r"expect(?:s|ed|ing|ation|ations)?", r"forecasts?", r"forecast(?:ed|ing|er|ers)", r"predict\w*",
    r"projected", r"projections?", r"estimates?", r"estimated", r"outlook", r"guidance", r"likely",
    r"is on track to", r"are on track to", r"is set to", r"are set to",
    # Danish, Norwegian, Swedish
    r"forvent\w*", r"ventes", r"väntas", r"förvänt\w*", r"prognos\w*", r"skøn(?:ner|net|nes)?",
    r"anslå\w*", r"anslag", r"estimat\w*", r"uppskatt\w*", r"beräknas", r"sandsynlig\w*",
    r"sannsynlig\w*", r"sannolik\w*", r"spår", r"forudsig\w*", r"udsigter(?:ne)?",
    # German, Dutch
    r"erwart\w*", r"prognostizier\w*", r"voraussichtlich\w*", r"schätz\w*", r"geschätzt\w*",
    r"ausblick", r"wahrscheinlich\w*", r"verwacht\w*", r"schatting\w*", r"geschat", r"waarschijnlijk",
    r"vooruitzicht\w*",
    # French, Spanish, Italian, Portuguese
    r"prévision\w*", r"prévoi\w*", r"s['’]attend\w*", r"estim\w*", r"probablement", r"perspectives",
    r"previsi[oó]n\w*", r"prevé", r"prevén", r"pronóstic\w*", r"se espera\w*", r"probablemente",
    r"previsioni", r"prevede\w*", r"stim[ae]", r"probabilmente", r"previsão", r"previsões", r"prevê",
    r"provavelmente", r"projeç\w*", r"proyecci\w*",
)  # fmt: skip
# "higher than expected", "as expected", "end forventet", "als erwartet", "que prévu": a
# comparison with an expectation reports an outcome, so the cue that follows does not count.
_COMPARED_WITH = re.compile(
    r"(?:than|as|end|enn|än|als|wie|dan|que|qu['’]|de lo|di quanto|do que)\s+(?:\w+\s+)?$", re.IGNORECASE
)
# Future tense and its auxiliaries. Romance futures by their (accented) endings where those
# are distinctive; French by its common forms.
FUTURE_WORDS = _words(
    r"will", r"won['’]t", r"shall", r"would", r"\w+['’]ll", r"(?:is|are) going to",
    r"vil", r"skal", r"ville", r"skulle", r"kommer til at", r"kommer til å", r"kommer att", r"ska", r"skall",
    r"wird", r"werden", r"werde", r"würden?", r"zal", r"zullen", r"zou", r"zouden",
    r"sera", r"seront", r"aura", r"auront", r"fera", r"feront", r"pourra", r"pourront", r"devra", r"devront",
    r"devrait", r"devraient", r"\w{3,}(?:eront|iront|dront)", r"atteindra", r"dépassera",
    r"(?:va|vont) \w+(?:er|ir|re)",
    r"(?:va|van|vai|vão) a \w+(?:ar|er|ir)", r"(?:vai|vão) \w+(?:ar|er|ir)",
    r"\w+(?:ará|erá|irá|arán|erán|irán|arão|erão|irão)", r"habrá", r"tendrá", r"podrá",
    r"\w+(?:erà|irà|eranno|iranno)", r"sarà", r"saranno", r"avrà",
)  # fmt: skip
# Plans and intentions: what someone means to do, not what was done.
INTENTION_WORDS = _words(
    r"plans? to", r"planned to", r"planning to", r"aims? to", r"aiming to", r"intends? to",
    r"planlægger", r"agter at", r"har til hensigt", r"sigter mod", r"satser på",
    r"planlegger", r"tar sikte på", r"planerar", r"avser att", r"siktar på",
    r"beabsichtig\w*", r"strebt \w+ an", r"van plan", r"streeft",
    r"prévoit de", r"compte \w+er", r"entend", r"envisage de", r"vise à", r"s['’]engage à",
    r"planea", r"pretende", r"tiene previsto", r"se compromete a",
    r"intende", r"prevede di", r"punta a", r"si impegna a", r"planeja", r"planeia",
)  # fmt: skip
# Reported speech: somebody said, told, announced, pledged (and "according to").
SPEECH_WORDS = _words(
    r"said", r"says", r"told", r"tells", r"announced", r"announces", r"pledged", r"pledges",
    r"promised", r"promises", r"stated", r"declared", r"vowed", r"reiterated", r"according to",
    r"sagde", r"siger", r"udtalte", r"udtaler", r"meddelte", r"meddeler", r"oplyste", r"oplyser", r"lovede",
    r"lover", r"annoncerede", r"erklærede", r"fortalte", r"ifølge",
    r"sa", r"sier", r"uttalte", r"lovet", r"lovte", r"kunngjorde", r"opplyste",
    r"sade", r"säger", r"uppgav", r"meddelade", r"lovade", r"lovar", r"tillkännagav", r"enligt",
    r"sagte", r"sagten", r"gesagt", r"erklärte", r"erklärten", r"kündigte", r"angekündigt", r"teilte",
    r"mitgeteilt", r"versprach", r"versprochen", r"betonte", r"laut", r"zufolge",
    r"zei", r"zegt", r"verklaarde", r"kondigde", r"beloofde", r"liet weten", r"volgens",
    r"a déclaré", r"déclare", r"a dit", r"a annoncé", r"annonce", r"a promis", r"promet", r"a affirmé",
    r"affirme", r"a indiqué", r"indique", r"a assuré", r"selon",
    r"dijo", r"dice", r"declaró", r"anunció", r"anuncia", r"prometió", r"promete", r"afirmó", r"afirma",
    r"aseguró", r"asegura", r"indicó", r"según",
    r"ha detto", r"ha dichiarato", r"dichiara", r"ha annunciato", r"ha promesso", r"ha affermato", r"secondo",
    r"disse", r"declarou", r"anunciou", r"prometeu", r"afirmou", r"segundo", r"garantiu",
)  # fmt: skip
# A cancellation: the event will not take place at all.
CANCELLATION_WORDS = _words(
    r"cancel+(?:s|ed|ing|ation|ations)?", r"called off", r"scrap(?:s|ped|ping)?", r"abandon\w*", r"axed",
    r"shelved", r"will not (?:take place|go ahead|be held)", r"did not take place", r"was not held",
    r"aflys\w*", r"annuller\w*", r"skrinlagt", r"opgivet", r"sløjfet", r"finder ikke sted",
    r"blev ikke afholdt", r"avlys\w*", r"kansellert", r"inställ(?:d|t|da)", r"ställ(?:ts|des) in",
    r"avblåst", r"skrinlagd",
    r"abgesagt", r"absage", r"storniert", r"gestrichen", r"annulliert", r"findet nicht statt",
    r"fand nicht statt", r"geannuleerd", r"afgelast", r"geschrapt", r"afgeblazen",
    r"annul(?:é|ée|és|ées|ation)", r"n['’]aura pas lieu", r"n['’]a pas eu lieu",
    r"cancelad[oa]s?", r"cancelaci[oó]n", r"anulad[oa]s?", r"no se celebrará", r"no se celebró",
    r"annullat[oaie]", r"cancellat[oaie]", r"annullamento", r"non si terrà", r"cancelamento",
)  # fmt: skip
# A delay, a miss, or an event that ended without the outcome: the deadline's event is over.
DELAY_OR_MISS_WORDS = _words(
    r"delay(?:s|ed|ing)?", r"postpon\w*", r"halt(?:s|ed)?", r"suspend\w*", r"withdr[ae]w\w*",
    r"pushed back", r"put on hold", r"dropped", r"missed", r"behind schedule",
    r"(?:not|never) (?:be )?(?:completed|finished|delivered|met|reached|meet|reach|complete|deliver|achieved?)",
    r"miss(?:es|ing)?",
    r"(?:ended|finished|closed|concluded|broke up) without",
    r"udskudt", r"udsat", r"forsink\w*", r"ikke nået", r"ikke færdig\w*", r"sluttede uden", r"endte uden",
    r"utsatt", r"uppskjut\w*", r"skjut(?:s|its) upp", r"sköts upp", r"försen\w*", r"slutade utan",
    r"verschoben", r"verzöger\w*", r"verspätet", r"nicht erreicht", r"verfehlt", r"endete ohne",
    r"uitgesteld", r"vertraa?g\w*", r"niet gehaald", r"eindigde zonder",
    r"report(?:é|ée|és|ées)", r"retard\w*", r"n['’]a pas atteint", r"manqué", r"s['’]est (?:terminée?|achevée?) sans",
    r"aplazad[oa]s?", r"pospuest[oa]s?", r"retras\w*", r"no alcanzó", r"incumplid[oa]s?", r"terminó sin",
    r"rinviat[oaie]", r"posticipat[oaie]", r"ritard\w*", r"non ha raggiunto", r"si è concluso senza",
    r"adiad[oa]s?", r"atras\w*", r"não atingiu", r"terminou sem",
)  # fmt: skip
# Winning, results and scores: what a claim about the outcome of an event speaks of.
EVENT_RESULT_WORDS = _words(
    r"wins?", r"won", r"winner", r"beats?", r"elected", r"finish(?:es)? (?:first|ahead)", r"results? of",
    r"vinder", r"vandt", r"vinner", r"vann", r"vinnare", r"vinner", r"gewinnt", r"gewann", r"gewinner",
    r"siegt", r"wint", r"winnaar", r"gagne", r"gagnant", r"remporte", r"gana", r"ganador", r"vince",
    r"vincitore", r"vence", r"vencedor", r"valgt", r"gewählt", r"élu", r"elegido", r"eletto", r"eleito",
)  # fmt: skip


def _cues(pattern: re.Pattern[str], text: str) -> list[str]:
    """The matches of ``pattern`` in ``text``; of the expectation words, those that are not
    part of a comparison with an expectation ("higher than expected")."""
    return [
        match.group(0)
        for match in pattern.finditer(text)
        if pattern is not EXPECTATION_WORDS
        or not _COMPARED_WITH.search(text[max(0, match.start() - 24) : match.start()])
    ]


def expectation_cue(quote: str) -> tuple[NotOutcomeKind, str] | None:
    """The kind of statement the quote's words make when they are an analyst's expectation,
    a poll, an expectation or estimate, or a statement in the future tense, with the words
    that show it; None when none of these is written."""
    for kind, pattern in (
        ("analyst_expectation", ANALYST_WORDS),
        ("poll", POLL_WORDS),
        ("forecast", EXPECTATION_WORDS),
        ("forecast", FUTURE_WORDS),
    ):
        found = _cues(pattern, quote)
        if found:
            return kind, found[0]  # type: ignore[return-value]
    return None


def reports_cancellation(text: str) -> bool:
    """The text reports (or, in criteria, speaks of) a cancellation: the event will not take place."""
    return bool(CANCELLATION_WORDS.search(text))


def reports_delay_or_cancellation(text: str) -> bool:
    """The text reports a delay, postponement, cancellation, a missed target, or an event
    that ended without the outcome: the deciding event at the deadline is over."""
    return reports_cancellation(text) or bool(DELAY_OR_MISS_WORDS.search(text))


def speaks_of_future_or_intention(text: str) -> bool:
    """The text is in the future tense, or states a plan or intention."""
    return bool(_cues(FUTURE_WORDS, text) or INTENTION_WORDS.search(text))


def is_reported_speech(text: str) -> bool:
    """The text reports what somebody said, told, announced or pledged."""
    return bool(SPEECH_WORDS.search(text))


def speaks_of_event_result(text: str) -> bool:
    """The text speaks of the result of an event: who wins it, who is elected."""
    return bool(EVENT_RESULT_WORDS.search(text))


# --- the times a quote names -----------------------------------------------------------

def times_named_in(text: str) -> list[date]:
    """The times a text names, each as the day it points at (``text.dates``, every WEB
    language): a date ("2024-12-31", "31.12.2024", "31 December 2024", "31 de diciembre de
    2024", "2024年12月31日") is that day; a month, quarter or year its first day; and "the end
    of" or "by" a period ("by the end of 2024", "udgangen af 2024", "Ende 2024", "fin 2024",
    "year-end 2024", "by 2024", "до конца 2024 года", "2024年末") its last day, a point in time."""
    return [mention.point for mention in find_dates(text)]
