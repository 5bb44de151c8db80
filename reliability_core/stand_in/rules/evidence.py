"""Offline rules for step 7: ``plan_research`` and ``read_evidence``.

Deterministic stand-ins for the live models, used by the demo and the tests.
They read only their step's input, exactly as a model would.

``plan_research`` (from the claim restatement and criteria):
  * "for" queries: the restatement's key terms (content words, names, numbers
    with units and years), and the key terms with the judge-at year;
  * "against" queries: the key terms with words of failure ("delayed
    cancelled postponed missed stopped"), so both sides are searched.

``read_evidence`` (from one page):
  * relevance: a sentence shares at least 35% of the claim's specific terms
    (the claim's words without the subject's name and without its figures,
    units and currencies, which every results page shares), names the claim's
    project or place when it has one, and, for a claim about the subject, sits
    on a page that names the subject; questions are skipped; at most three
    sentences per page, best first;
  * figures: a number with a unit ("13.1 GW", "DKK 28.6 billion", "8,200
    donors"; money only with its currency); a sentence naming other years than
    the judged one reports another period; among several figures the one next
    to the claim's words and the judged year wins, never the claim's own target
    ("targeted 15 GW"), guidance, or an earlier figure ("up from"); a claim
    about what was added ("new capacity") takes the "added" figure;
  * stance: a figure decides when the claim states a figure, range or bound
    (literal comparison; a factual figure must match within 0.5%); otherwise
    outcome words: failure words ("delayed", "postponed", "cancelled",
    "stopped", "missed", "extended", "failed", not negated) contradict, success
    words ("commissioned", "completed", "approved", "granted", "sold", "reached")
    or the claim's own verb in the past tense ("adopts" -> "adopted") support; a
    failure word the claim itself uses agrees with it; "kept ... until"
    contradicts a promise to stop; "rose"/"fell" follow the claim's direction;
  * kind: a reported failure is an outcome; "said ... will", "plans to",
    "targets 15 GW" repeat the claim;
    forecasts, polls and analyst expectations as the live rule reads them
    (``evidence_rules.never_an_outcome_reading``); everything else is an outcome;
  * date: the sentence's own date (ISO or "11 April 2025"), else the page's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from reliability_core.claims.stated_probability import remove_stated_probability
from reliability_core.models.base import ClaimType
from reliability_core.models.claims import NumericCriteria
from reliability_core.stand_in.model import offline_step
from reliability_core.text.dates import find_dates
from reliability_core.text.numbers import figure_value
from reliability_core.text.sentences import split_sentences
from reliability_core.text.stems import stem
from reliability_core.verdicts.evidence import (
    PlanResearchInput,
    PlanResearchOutput,
    ReadEvidenceInput,
    ReadEvidenceOutput,
)
from reliability_core.verdicts.evidence_rules import ReadItem, never_an_outcome_reading

MIN_SHARED_TERMS = 0.35
SAID_ON = re.compile(r"\s*\(said on [^)]*\)")  # the date stamp the extractor adds to a restatement
# Words of the forecast or pledge itself, not of its outcome: an outcome page says what
# happened ("raised $4.1 million in 2021"), not "expect", "chance" or "at least".
FORECAST_WORDS = frozenset(
    {
        "expect",
        "expects",
        "expected",
        "chance",
        "likely",
        "probability",
        "think",
        "say",
        "put",
        "more",
        "least",
        "less",
    }
)
MAX_QUOTES_PER_PAGE = 3
FACTUAL_MATCH_RELATIVE = 0.005

STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "by",
        "for",
        "from",
        "had",
        "has",
        "have",
        "he",
        "her",
        "his",
        "i",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "our",
        "over",
        "she",
        "that",
        "the",
        "their",
        "them",
        "they",
        "this",
        "to",
        "was",
        "we",
        "were",
        "will",
        "with",
        "would",
        "than",
        "then",
        "there",
        "these",
        "those",
        "which",
        "who",
        "what",
        "when",
        "where",
        "why",
        "how",
        "all",
        "any",
        "can",
        "could",
        "should",
        "may",
        "might",
        "must",
        "not",
        "no",
        "yes",
        "per",
        "also",
        "about",
        "after",
        "before",
        "end",
        "between",
        "year",
        "years",
        "said",
        "says",
        "say",
        "one",
        "two",
        "three",
        "first",
        "new",
        "end",
        "during",
        "through",
        "under",
        "until",
    ]
)
# Word stems of outcomes: failure (contradicts a claim that something happens) and success.
NEGATIVE_CUES = re.compile(
    r"\b(delay\w*|postpon\w*|cancel\w*|scrap\w*|stop\w*|miss\w*|slip\w*|extend\w*|fail\w*|abandon\w*)"
    r"|\bcontinued to burn\b|\bkeep burning\b|\bdid not\b|\bwas not\b"
)
POSITIVE_CUES = re.compile(
    r"\b(commission\w*|complet\w*|approv\w*|grant\w*|connected|sold|achiev\w*|reached)\b"
    r"|\bon schedule\b|\bon time\b|\btook effect\b|\bin operation\b"
)
CONTINUATION = re.compile(r"\b(keep|kept|keeps|continu\w*|remain\w*)\b[^.;]*\b(until|after|beyond|through)\b")
RISE_WORDS = ("rose", "rise", "risen", "increased", "higher", "up ")
FALL_WORDS = ("fell", "fall", "fallen", "declined", "decreased", "lower", "down ")
REPEAT_MARKERS = re.compile(
    r"\b(said|says|told|announced|pledged|promised)\b[^.;]*\b(will|would|plans? to|aims? to|intends? to)\b"
    r"|\b(plans|aims|intends) to\b|\btargets\s+(dkk\s+|eur\s+)?\d",
    re.IGNORECASE,
)
_UNIT = (
    r"(gw|mw|kw|twh|gwh|mwh|billion|bn|million|mn|%|per\s?cent|percent|people|employees|staff"
    r"|per\s+(?:kwh|mwh|twh|tonne|barrel|person|year)"
    # any plural noun counts things ("8,200 donors", "9 countries"); years are excluded below
    r"|[a-z]{2,}(?:ies|es|s))"
)
_NUMBER = r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
_NUMBER_WITH_UNIT = re.compile(rf"(?<![\w.]){_NUMBER}\s*{_UNIT}(?![a-z])", re.IGNORECASE)
_NAMED_UNITS = re.compile(
    r"^(gw|mw|kw|twh|gwh|mwh|billion|bn|million|mn|%|per\s?cent|percent|people|employees|staff|per\s+\w+)$",
    re.I,
)


# Words ending in -s that follow numbers without counting anything ("Sea Lynx 2 gets ...").
_NOT_UNITS = frozenset(
    [
        "gets",
        "says",
        "makes",
        "takes",
        "goes",
        "does",
        "has",
        "was",
        "is",
        "its",
        "this",
        "thus",
        "plus",
        "less",
        "unless",
        "across",
        "always",
        "perhaps",
        "yes",
        "us",
        "as",
        "his",
        "hers",
        "ours",
        "yours",
        "theirs",
        "means",
        "needs",
        "seems",
        "looks",
        "comes",
        "becomes",
        "remains",
        "stands",
    ]
)


def figures(text: str) -> list[re.Match[str]]:
    """Numbers with a unit. A counted plural noun is a unit ("8,200 donors"), but not a verb
    ("Sea Lynx 2 gets"), and a year followed by a noun ("2025 results") is not a figure."""
    return [
        m
        for m in _NUMBER_WITH_UNIT.finditer(text)
        if _NAMED_UNITS.match(m.group(2))
        or (m.group(2).casefold() not in _NOT_UNITS and not re.fullmatch(r"(19|20)\d\d", m.group(1)))
    ]


RANGE_WITH_UNIT = re.compile(
    rf"(?<![\w.]){_NUMBER}\s*(?:-|–|to)\s*{_NUMBER}\s*{_UNIT}(?![a-z])", re.IGNORECASE
)
YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")
ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?", re.UNICODE)


def normalise_unit(unit: str) -> str:
    """One spelling per unit: "per cent" and "percent" are "%", "bn" is "billion"."""
    u = re.sub(r"\s+", " ", unit.strip().casefold())
    return {
        "bn": "billion",
        "mn": "million",
        "per cent": "%",
        "percent": "%",
        "percent.": "%",
        "employees": "people",
        "staff": "people",
    }.get(u, u)


def criteria_unit(unit: str) -> str:
    """The unit of structured criteria as numbers in text carry it: "DKK billion" is "billion",
    "EUR per MWh" is "per mwh", "%" stays "%"."""
    words = unit.casefold().split()
    if not words:
        return ""
    if "per" in words[:-1]:
        return f"per {words[-1]}"
    return normalise_unit(words[-1])


_UNIT_WORDS = frozenset({"gw", "mw", "kw", "twh", "gwh", "mwh", "%", "bn", "mn"})
_CURRENCIES = frozenset({"dkk", "eur", "usd", "gbp", "sek", "nok"})


def key_terms(text: str, *, stemmed: bool = True) -> list[str]:
    """Content words of a text, lower-cased and (by default) stemmed, in order, once each;
    numbers and unit words kept, possessives dropped."""
    return list(_key_terms(text, stemmed))


@lru_cache(maxsize=16384)
def _key_terms(text: str, stemmed: bool) -> tuple[str, ...]:
    # The same page sentences are read for every claim of a subject: computed once.
    words = [w.casefold().removesuffix("'s") for w in _WORD.findall(text)]
    kept = (w for w in words if w not in STOPWORDS and (len(w) >= 3 or w.isdigit() or w in _UNIT_WORDS))
    return tuple(dict.fromkeys(stem(w) if stemmed else w for w in kept))


def without_dates(text: str) -> str:
    """The text without its ISO dates, so a dateline or filing date ("COPENHAGEN, 2022-02-02",
    "filed 2022-02-02") is not read as the period a figure is for; dates written in words
    ("at 31 December 2021") stay, since they say what the figure is for."""
    return ISO_DATE.sub(" ", text)


def subject_words(restatement: str, subject_names: Sequence[str] = ()) -> set[str]:
    """Words naming the subject: the given names, else the restatement's leading run of
    capitalised words ("Northwind Energy will ..."). They are on every page about the subject,
    so they say nothing about whether a sentence bears on this claim."""
    names = list(subject_names)
    if not names:
        lead = re.match(r"\s*((?:[A-Z][\w/&.-]*\s+)+)", restatement)
        names = [lead.group(1)] if lead else []
    return {term for name in names for term in key_terms(name)}


def specific_terms(restatement: str, subject_names: Sequence[str] = ()) -> list[str]:
    """The claim's key terms that say what it is about: without its stated probability, the
    subject's name, and the figures themselves (numbers other than years, units, currencies),
    which every results page shares."""
    skip = subject_words(restatement, subject_names)
    return [
        t
        for t in key_terms(remove_stated_probability(restatement))
        if t not in skip
        and not (t.isdigit() and not YEAR.fullmatch(t))
        and t not in _UNIT_WORDS
        and t not in _CURRENCIES
        and not _NAMED_UNITS.match(t)
    ]


def entities(text: str) -> list[str]:
    """Capitalised words that are not the first word of the text: names of firms, places, projects."""
    words = _WORD.findall(text)
    names = (w.removesuffix("'s") for w in words[1:] if w[:1].isupper())
    return list(dict.fromkeys(w for w in names if w.casefold() not in STOPWORDS))


def sentence_date(sentence: str) -> date | None:
    """The first date to the day a sentence names, read by the one reader of written times
    (``text.dates``): "2025-04-11", "11 April 2025", "11. April 2025", "2025年4月11日"."""
    return next((m.first for m in find_dates(sentence) if m.precision == "day"), None)


@dataclass(frozen=True)
class ClaimFigure:
    """What a claim says about a number: an operator on a threshold, or a closed range."""

    unit: str
    operator: str  # gt ge lt le eq range approx
    low: float
    high: float
    currency: bool = False  # "$90 million" is money; "8.2 million people" is not


_CURRENCY_BEFORE = re.compile(r"(\$|€|£|\b(dkk|eur|usd|gbp|sek|nok))\s*$", re.IGNORECASE)


def is_money(unit: str) -> bool:
    """A criteria unit names a currency ("DKK billion", "$ million", "EUR per MWh")."""
    return bool(re.search(r"(\$|€|£|\b(dkk|eur|usd|gbp|sek|nok)\b)", unit, re.IGNORECASE))


def matches_figure(match: re.Match[str], text: str, figure: ClaimFigure) -> bool:
    """A number in the text is in the claim's unit (and currency, for money)."""
    if normalise_unit(match.group(2)) != figure.unit:
        return False
    return not figure.currency or bool(
        _CURRENCY_BEFORE.search(text[max(0, match.start() - 6) : match.start()])
    )


def claim_figure(
    restatement: str, claim_type: ClaimType, numeric: NumericCriteria | None
) -> ClaimFigure | None:
    """The figure a claim states: the structured criteria when given, else read from the
    restatement (a range "16-18 billion", a bound "above 28 billion", "below 80 per MWh",
    or a plain figure: a target to reach for promises and predictions, a value to match
    for factual claims)."""
    restatement = remove_stated_probability(restatement)
    if numeric is not None:
        unit = criteria_unit(numeric.unit)
        return ClaimFigure(
            unit=unit,
            operator=numeric.operator,
            low=numeric.threshold,
            high=numeric.threshold,
            currency=is_money(numeric.unit),
        )
    ranged = RANGE_WITH_UNIT.search(restatement)
    if ranged:
        unit = normalise_unit(ranged.group(3))
        return ClaimFigure(
            unit=unit,
            operator="range",
            low=figure_value(ranged.group(1)),
            high=figure_value(ranged.group(2)),
            currency=bool(_CURRENCY_BEFORE.search(restatement[: ranged.start()])),
        )
    match = next(iter(figures(restatement)), None)
    if not match:
        return None
    value, unit = figure_value(match.group(1)), normalise_unit(match.group(2))
    before = restatement[: match.start()].casefold()[-40:]
    if re.search(r"(above|more than|over|exceed\w*|greater than)\s+(\w+\s+){0,2}$", before):
        operator = "gt"
    elif re.search(r"(below|less than|under|fewer than)\s+(\w+\s+){0,2}$", before):
        operator = "lt"
    elif re.search(r"at least\s+(\w+\s+){0,2}$", before):
        operator = "ge"
    elif re.search(r"at most\s+(\w+\s+){0,2}$", before):
        operator = "le"
    elif claim_type == "factual":
        operator = "approx"
    elif re.search(r"\b(cut|reduce|lower|fall|drop)\b", before):
        operator = "ge"  # "cut emissions by 98%": the cut reaches the figure
    else:
        operator = "ge"
    currency = bool(_CURRENCY_BEFORE.search(restatement[: match.start()]))
    return ClaimFigure(unit=unit, operator=operator, low=value, high=value, currency=currency)


def figure_holds(figure: ClaimFigure, observed: float) -> bool:
    """The claim's figure against an observed value, literally (no rounding)."""
    if figure.operator == "gt":
        return observed > figure.low
    if figure.operator == "ge":
        return observed >= figure.low
    if figure.operator == "lt":
        return observed < figure.low
    if figure.operator == "le":
        return observed <= figure.low
    if figure.operator == "eq":
        return observed == figure.low
    if figure.operator == "range":
        return figure.low <= observed <= figure.high
    return abs(observed - figure.low) <= FACTUAL_MATCH_RELATIVE * max(abs(figure.low), 1e-9)


_ADDED_WORDS = ("new", "add", "added", "additional", "adding")


def figure_context(restatement: str) -> set[str]:
    """Key terms around the claim's own figure ("installed 1.2 GW of new offshore wind
    capacity"): what the figure measures, to pick the matching number in a sentence."""
    text = remove_stated_probability(restatement)
    match = RANGE_WITH_UNIT.search(text) or next(iter(figures(text)), None)
    if not match:
        return set(key_terms(text))
    window = text[max(0, match.start() - 40) : match.end() + 50]
    added = {"new"} if re.search(r"\b(new|add|added|adding|additional)\b", window, re.I) else set()
    return (set(key_terms(window)) | added) - set(YEAR.findall(text))


def observed_value(
    sentence: str, figure: ClaimFigure, judge_year: int | None, context: set[str] | None = None
) -> float | None:
    """The number a sentence reports in the claim's unit, scored by its context: words it
    shares with the claim's own figure, the judge-at year just after it; the claim's own
    target ("targeted 15 GW"), guidance, and earlier figures ("up from") count against. A
    sentence that names years but not the judge-at year reports another period: no observation."""
    years = {int(y) for y in YEAR.findall(without_dates(sentence))}
    if judge_year is not None and years and judge_year not in years:
        return None
    wants_added = bool(context and context & set(_ADDED_WORDS))
    best: tuple[int, float] | None = None
    for match in figures(sentence):
        if not matches_figure(match, sentence, figure):
            continue
        value = figure_value(match.group(1))
        before = sentence[max(0, match.start() - 30) : match.start()].casefold()
        after = sentence[match.end() : match.end() + 45].casefold()
        if re.search(r"\d\s*(-|–|to)\s*$", before):
            continue  # the upper end of a range ("27-29 billion") is not an observation
        score = 0
        if judge_year is not None and str(judge_year) in after:
            score += 2
        if context:
            # what the number measures: right before it ("coal 38.4%") counts most
            score += min(4, 2 * len(context & set(key_terms(before[-15:]))))
            score += min(3, len(context & set(key_terms(after[:35]))))
        if re.search(r"\b(to|of|with|reported|reached|was|were|at)\s+(dkk|eur|usd|\$|€)?\s*$", before):
            score += 1
        added = re.search(r"\badd(ed|ing)?\s*(dkk|eur)?\s*$", before)
        if added:
            score += 2 if wants_added else -3
        elif wants_added:
            continue  # the claim counts what was added; a running total is another quantity
        if re.search(
            r"\b(targeted|target of|targets?|aimed for|guidance of|forecast of|cited)\s+(dkk|eur|usd)?\s*$",
            before,
        ):
            score -= 6  # the claim's own target or someone's expectation is not an outcome
        elif re.search(r"\b(from|up from|down from|by)\s+(dkk|eur|usd)?\s*$", before):
            score -= 3
        if "earlier" in after or "previous" in after:
            score -= 2
        if best is None or score > best[0]:
            best = (score, value)
    return best[1] if best is not None and best[0] >= 0 else None


def _contains_any(text: str, cues: Sequence[str]) -> bool:
    return any(re.search(rf"\b{re.escape(cue)}\b", text) for cue in cues)


_NEGATION_BEFORE = re.compile(r"\b(not|no|never|without)\b(\s+\w+){0,3}\s*$")


def claim_verb_done(sentence: str, claim: str) -> bool:
    """The sentence reports the claim's own action as done: a word of the claim appears in the
    sentence in the past tense ("adopts" -> "adopted", "will publish" -> "published")."""
    claim_stems = {stem(w) for w in key_terms(claim, stemmed=False) if not w.isdigit()}
    done = [w for w in key_terms(sentence, stemmed=False) if w.endswith("ed") and len(w) > 5]
    return any(stem(w) in claim_stems for w in done)


def _stems(pattern: re.Pattern[str], text: str) -> set[str]:
    """Stems of the cue words present and not negated ("was not delayed" has no delay)."""
    return {
        match.group(0)[:5]
        for match in pattern.finditer(text)
        if not _NEGATION_BEFORE.search(text[max(0, match.start() - 40) : match.start()])
    }


def _negated(pattern: re.Pattern[str], text: str) -> bool:
    return any(
        _NEGATION_BEFORE.search(text[max(0, match.start() - 40) : match.start()])
        for match in pattern.finditer(text)
    )


def cue_stance(sentence: str, restatement: str) -> str:
    """Outcome words: failure words contradict a claim that something happens, success words
    support it. A failure word the claim itself uses ("we have stopped Sunbank", "we will
    have to delay Sea Lynx") agrees with it instead, and success words then contradict a
    claim of a delay. "rose"/"fell" agree or disagree with the claim's own direction."""
    s, claim = sentence.casefold(), remove_stated_probability(restatement).casefold()
    claim_rises = _contains_any(claim, ("rise", "increase", "grow", "higher", "above"))
    claim_falls = _contains_any(claim, ("fall", "decline", "drop", "lower", "below"))
    if claim_rises != claim_falls:
        if _contains_any(s, RISE_WORDS):
            return "supports" if claim_rises else "contradicts"
        if _contains_any(s, FALL_WORDS):
            return "supports" if claim_falls else "contradicts"
    if _contains_any(claim, ("stop", "exit", "phase out", "close")) and CONTINUATION.search(s):
        return (
            "contradicts"  # "ordered to keep the coal unit in operation until 2024" against "stop using coal"
        )
    negative, positive = _stems(NEGATIVE_CUES, s), _stems(POSITIVE_CUES, s)
    if not positive and claim_verb_done(sentence, claim):
        positive = {
            "done"
        }  # "Malawi adopted ..." for "Malawi adopts ...", "was published" for "will publish"
    if not positive and _negated(NEGATIVE_CUES, s):
        positive = {"neg-neg"}  # "was not paused or delayed": an account that it went ahead
    claim_negative = _stems(NEGATIVE_CUES, claim)
    if negative and not positive:
        return "supports" if negative <= claim_negative else "contradicts"
    if positive and not negative:
        return "contradicts" if claim_negative & {"delay", "postp", "cance"} else "supports"
    return "neutral"


def statement_kind(sentence: str) -> str:
    """Whether a sentence reports an outcome or is a repeat of the claim, a forecast, a poll
    or an analyst expectation (never outcomes): the last three as the live path's rule reads
    them (``evidence_rules.never_an_outcome_reading``, on the words; the date is read there
    when the item is stored)."""
    if NEGATIVE_CUES.search(sentence.casefold()):
        return "outcome"  # "will keep burning coal until June 2024, missing its pledge": a report of a miss
    if REPEAT_MARKERS.search(sentence):
        return "repeat_of_claim"
    reading = never_an_outcome_reading(sentence, quote_date=None)
    return reading[0] if reading is not None else "outcome"


@dataclass(frozen=True)
class Reading:
    """One sentence read against a claim."""

    sentence: str
    shared: float
    stance: str
    observed: float | None
    kind: str


def other_period(sentence: str, restatement: str, judge_year: int | None) -> bool:
    """The sentence names years (besides its dateline), and none of them is the judge-at year
    or a year of the claim."""
    years = set(YEAR.findall(without_dates(sentence)))
    wanted = set(YEAR.findall(restatement)) | ({str(judge_year)} if judge_year else set())
    return bool(years) and bool(wanted) and not years & wanted


def read_sentence(
    sentence: str,
    *,
    restatement: str,
    claim_type: ClaimType,
    numeric: NumericCriteria | None,
    judge_at: date | None,
    subject_names: Sequence[str] = (),
) -> Reading:
    """Shared terms, stance, observed value and kind of one sentence for one claim."""
    terms = specific_terms(restatement, subject_names)
    sentence_terms = set(key_terms(sentence))
    shared = len([t for t in terms if t in sentence_terms]) / len(terms) if terms else 0.0
    figure = claim_figure(restatement, claim_type, numeric)
    judge_year = judge_at.year if judge_at else None
    context = figure_context(restatement)
    observed = observed_value(sentence, figure, judge_year, context) if figure else None
    if figure is not None and observed is not None:
        stance = "supports" if figure_holds(figure, observed) else "contradicts"
    elif other_period(sentence, restatement, judge_year):
        stance = "neutral"  # an account of another year says nothing about this claim
    elif figure is not None and any(matches_figure(m, sentence, figure) for m in figures(sentence)):
        stance = "neutral"  # a figure in the claim's unit that is not the observation
    else:
        stance = cue_stance(sentence, restatement)
    return Reading(
        sentence=sentence, shared=shared, stance=stance, observed=observed, kind=statement_kind(sentence)
    )


def is_checkable(reading: Reading, restatement: str) -> bool:
    """A sentence states something checkable: a figure, a year of the claim, or an outcome word."""
    years = set(YEAR.findall(restatement))
    return (
        reading.observed is not None
        or bool(years & set(YEAR.findall(reading.sentence)))
        or reading.stance != "neutral"
    )


def claim_entities(restatement: str, subject_names: Sequence[str] = ()) -> list[str]:
    """Names in the claim other than the subject's and the units: the project, place or
    market the claim is about ("Sea Lynx", "Sunbank", "Hornvig")."""
    skip = subject_words(restatement, subject_names)
    return [
        e
        for e in entities(remove_stated_probability(restatement))
        if stem(e.casefold()) not in skip
        and e.casefold() not in _UNIT_WORDS
        and e.casefold() not in _CURRENCIES
    ]


def bears_on_claim(
    reading: Reading,
    restatement: str,
    names: Sequence[str],
    page_text: str,
    figure: ClaimFigure | None = None,
) -> bool:
    """A sentence bears on the claim when it takes a side, shares enough of the claim's specific
    terms, states something checkable (a question does not; a figure claim needs a figure in its
    unit), and is about what the claim is about: it names the claim's project, place or market
    when the claim names one, else the page names the subject."""
    if (
        reading.stance == "neutral"
        or reading.shared < MIN_SHARED_TERMS
        or not is_checkable(reading, restatement)
    ):
        return False
    if reading.sentence.rstrip().endswith("?"):
        return False  # a question ("Will the pandemic delay Sea Lynx?") reports nothing
    if figure is not None and not any(
        matches_figure(m, reading.sentence, figure) for m in figures(reading.sentence)
    ):
        return False  # a claim about a figure is settled by a figure in its unit
    wanted = [e.casefold() for e in claim_entities(restatement, names)]
    if wanted:
        lowered = reading.sentence.casefold()
        return any(e in lowered for e in wanted)
    # A claim about the subject needs a page that names it; a claim about a market or the
    # world ("Global electric car sales were 14.0 million in 2023") does not.
    claim_lower, page = restatement.casefold(), page_text.casefold()
    about_subject = [name.casefold() for name in names if len(name) >= 4 and name.casefold() in claim_lower]
    return not about_subject or any(name.casefold() in page for name in names if len(name) >= 4)


@offline_step("plan_research", PlanResearchInput)
def plan_research(payload: PlanResearchInput) -> PlanResearchOutput:
    """Queries for and against from the restatement's key terms. The date the claim was made
    ("(said on 2016-06-09)") is left out: it names the claim's own source, not the outcome,
    and would rank the subject's other statements of that day above the evidence. The
    judged year is always searched for, even when the claim is long."""
    restatement = SAID_ON.sub("", payload.restatement)
    lead_words = subject_words(restatement)
    lead = " ".join(w for w in key_terms(restatement, stemmed=False) if stem(w) in lead_words)
    plain = key_terms(remove_stated_probability(restatement), stemmed=False)
    year = str(payload.judge_at.year)
    kept = [w for w in plain if stem(w) not in lead_words and w not in FORECAST_WORDS][:8]
    terms = " ".join(kept if year in kept else [*kept, year])
    base = f"{lead} {terms}".strip()
    queries_for = [base, f"{lead} {terms} {year} results annual report".strip()]
    queries_against = [f"{base} delayed cancelled postponed missed stopped"]
    return PlanResearchOutput(queries_for=queries_for, queries_against=queries_against)


@offline_step("read_evidence", ReadEvidenceInput)
def read_evidence(payload: ReadEvidenceInput) -> ReadEvidenceOutput:
    """Up to three dated sentences of the page that bear on the claim."""
    page_date = payload.page_published or sentence_date(payload.page_text)
    figure = claim_figure(payload.restatement, payload.claim_type, payload.numeric)
    readings = [
        read_sentence(
            sentence,
            restatement=payload.restatement,
            claim_type=payload.claim_type,
            numeric=payload.numeric,
            judge_at=payload.judge_at,
            subject_names=payload.subject_names,
        )
        # The pipeline's one splitter, so the reader reads the sentences the passages were cut at.
        for sentence in split_sentences(payload.page_text)
        if 20 <= len(sentence) <= 600
    ]
    chosen = sorted(
        (
            r
            for r in readings
            if bears_on_claim(r, payload.restatement, payload.subject_names, payload.page_text, figure)
        ),
        key=lambda r: -r.shared,
    )[:MAX_QUOTES_PER_PAGE]
    return ReadEvidenceOutput(
        items=[
            ReadItem(
                quote=r.sentence,
                published_date=sentence_date(r.sentence) or page_date,
                observed_value=r.observed,
                stance=r.stance,  # type: ignore[arg-type]
                kind=r.kind,  # type: ignore[arg-type]
            )
            for r in chosen
        ]
    )
