"""Stated probabilities ([M] step 4: "a bound such as "more than 10%" is recorded as a
bound"; [#15] rule 6: "A stated probability is one the words state").

The quote's words decide whether a probability was stated, and whether it is exact or a
bound; the model's value stands only when the quote writes its figure. The criteria step
and the restatement check also blank these phrases out (``remove_stated_probability``), so
that "more than 10% likely" is never read as the claim's own comparison.

The words are data, in the lexicon area ``probability`` (``text/lexicon/probability/``), in
the twenty most used languages of the web plus the Nordic ones: the probability nouns
("probability", "Wahrscheinlichkeit", "chances", "вероятность", "確率", "可能性") and
adjectives ("likely", "sandsynligt"), the words for per cent, the short words that may
stand between them and the amount ("de" in "70 % de chances", "の" in "70%の確率", "von" in
"Wahrscheinlichkeit von 70 %"), and the odds forms ("one in three", "une chance sur trois",
"uno de cada tres", "один из трёх", "三分の一", "üçte bir"). A bound is the comparison area's
reading of the amount's figure ("mehr als 10 % wahrscheinlich", "au moins 30 % de chances").
A probability word alone ("likely", "wahrscheinlich") is no probability, and a percentage
beside one is stated only when nothing but those short words stands between them ("the 70%
stake is likely to be sold" states none).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Final

from reliability_core.claims.comparisons import bound_phrases
from reliability_core.models.claims import ProbabilityKind
from reliability_core.text.compiled_patterns import compile_patterns
from reliability_core.text.lexicon import (
    AreaLexicon,
    area_lexicon,
    compiled_store,
    entry_pattern,
    normalise_for_lexicon,
)
from reliability_core.text.numbers import value_written_in

_SP: Final = "[\\s\u00a0\u202f\u200c\u200d]"
_FIGURE: Final = r"(?<![\d.,])\d+(?:[.,\u066b]\d+)?(?![\d])"
_PERCENT_SIGN: Final = "[%\u066a\uff05]"
_NUMBER_CONCEPTS: Final[dict[str, int]] = {
    "num_1": 1, "num_2": 2, "num_3": 3, "num_4": 4, "num_5": 5, "num_6": 6, "num_7": 7, "num_8": 8,
    "num_9": 9, "num_10": 10, "num_100": 100, "num_1000": 1000,
}  # fmt: skip


@dataclass(frozen=True)
class _Amount:
    """A probability-shaped amount in the text: its value as a fraction, its whole span and
    the span of the figure a comparison phrase would bind to."""

    value: float
    start: int
    end: int
    figure_start: int
    figure_end: int
    noun_inside: bool = False  # "une chance sur trois": the probability word is part of the form


@dataclass(frozen=True)
class _Stated:
    value: float
    kind: ProbabilityKind
    start: int
    end: int


def _lexicon() -> AreaLexicon:
    return area_lexicon("probability")


def _alternation(concept: str, *, open_end: bool = False) -> str:
    entries = {e for words in _lexicon().entries.get(concept, {}).values() for e in words}
    patterns = []
    for entry in entries:
        pattern = entry_pattern(entry)
        if open_end and pattern.endswith(r"(?!\w)"):
            pattern = pattern[: -len(r"(?!\w)")]  # "üç" in "üçte bir": the suffix is the link
        patterns.append(pattern)
    # Longest first; ties in the patterns' text order, so every process builds the same
    # pattern (and finds its compiled program on disk) whatever its string hashing.
    return "|".join(sorted(patterns, key=lambda p: (-len(p), p))) or r"(?!)"


@dataclass(frozen=True)
class _Patterns:
    percent: re.Pattern[str]
    tenths: re.Pattern[str]
    odds: re.Pattern[str]
    odds_reversed: re.Pattern[str]
    after: re.Pattern[str]  # amount, then (short words), then the probability word
    before: re.Pattern[str]  # probability noun, then (short words), up to the amount
    number_words: tuple[tuple[re.Pattern[str], int], ...]
    # A probability noun, adjective or lead word, with no boundary asked after it: every
    # stated probability has one (``after``, ``before`` or an odds form's noun), and a match
    # of those, even with ``before``'s text cut at the amount, is a match of this in the
    # whole text; so a text without one states none, and is not scanned for amounts.
    any_probability_word: re.Pattern[str]


@functools.cache
def _compiled(digest: str) -> _Patterns:
    del digest  # the cache key: a changed lexicon compiles anew
    noun, adj = _alternation("prob_noun"), _alternation("prob_adj")
    words = "|".join(_alternation(c) for c in _NUMBER_CONCEPTS)
    words_open = "|".join(_alternation(c, open_end=True) for c in _NUMBER_CONCEPTS)
    number = rf"(?:{_FIGURE}|{words})"
    gap = rf"(?:{_SP}|-)+"
    percent_after = _alternation("percent_after")
    percent_before = _alternation("percent_before")
    link_an, link_na = _alternation("link_amount_noun"), _alternation("link_noun_amount")
    lead = _alternation("prob_lead")
    texts = {
        "percent": rf"(?P<f1>{_FIGURE}){_SP}*(?:-{_SP}*)?(?:{_PERCENT_SIGN}|{percent_after})"
        rf"|(?:{_PERCENT_SIGN}|(?:{percent_before})){_SP}*(?P<f2>{_FIGURE})",
        "tenths": rf"(?P<f>{_FIGURE}|{words_open}){_SP}*(?:{_alternation('tenths_after')})",
        "odds": rf"(?P<a>{number})(?:{gap}(?P<noun>{noun}))?{gap}(?:{_alternation('odds_link')}){gap}(?P<b>{number})",
        "odds_reversed": rf"(?P<b>{_FIGURE}|{words_open}){_SP}*(?:{_alternation('odds_link_reversed')}){_SP}*(?P<a>{number})",
        "after": rf"(?:{_SP}|-|{link_an})*(?:{noun}|{adj})",
        "before": rf"(?:{noun}|{lead})(?:{_SP}|[,:\-\u2014]|{link_na})*$",
        "any_probability_word": "|".join(
            _alternation(c, open_end=True) for c in ("prob_noun", "prob_adj", "prob_lead")
        ),
    }
    values: dict[str, int] = {}
    for concept, value in _NUMBER_CONCEPTS.items():
        for words_of_lang in _lexicon().entries.get(concept, {}).values():
            for entry in words_of_lang:
                name = f"number_word:{len(values)}"
                texts[name], values[name] = entry_pattern(entry), value
    # Compiling these took about a tenth of a second in every process: kept on disk beside
    # the lexicon, checked by hash (text.compiled_patterns).
    compiled = compile_patterns(texts, re.IGNORECASE, compiled_store("probability.stated"))
    return _Patterns(
        percent=compiled["percent"],
        tenths=compiled["tenths"],
        odds=compiled["odds"],
        odds_reversed=compiled["odds_reversed"],
        after=compiled["after"],
        before=compiled["before"],
        number_words=tuple((compiled[name], value) for name, value in values.items()),
        any_probability_word=compiled["any_probability_word"],
    )


def _patterns() -> _Patterns:
    return _compiled(_lexicon().digest)


def _number(written: str) -> float | None:
    """A figure in digits (any script's: "۷۰") or a number word of the lexicon ("trois", "三")."""
    compact = written.strip()
    if re.fullmatch(r"\d+(?:[.,\u066b]\d+)?", compact):
        return float("".join(str(int(ch)) if ch.isdigit() else "." for ch in compact))
    for pattern, value in _patterns().number_words:
        if pattern.fullmatch(compact):
            return float(value)
    return None


def _amounts(text: str) -> list[_Amount]:
    pats = _patterns()
    found: list[_Amount] = []
    for m in pats.percent.finditer(text):
        group = "f1" if m.group("f1") is not None else "f2"
        value = _number(m.group(group))
        if value is not None:
            found.append(_Amount(value / 100.0, m.start(), m.end(), m.start(group), m.end(group)))
    for m in pats.tenths.finditer(text):
        value = _number(m.group("f"))
        if value is not None and value <= 10:
            found.append(_Amount(value / 10.0, m.start(), m.end(), m.start("f"), m.end("f")))
    # A figure written as a percentage is that percentage, never the "whole" of an odds form:
    # "eine Wahrscheinlichkeit von 70 Prozent" is 70 %, not one in 70.
    percent_figures = {(a.figure_start, a.figure_end) for a in found}
    for pattern in (pats.odds, pats.odds_reversed):
        for m in pattern.finditer(text):
            if (m.start("b"), m.end("b")) in percent_figures or (m.start("a"), m.end("a")) in percent_figures:
                continue
            part, whole = _number(m.group("a")), _number(m.group("b"))
            if part is not None and whole and 0 < part <= whole:
                noun = "noun" in pattern.groupindex and m.group("noun") is not None
                found.append(_Amount(part / whole, m.start(), m.end(), m.start(), m.end(), noun_inside=noun))
    # An amount inside a longer one is part of it ("yüzde 70" read as a percentage, not as odds).
    found.sort(key=lambda a: (a.start, -(a.end - a.start)))
    kept: list[_Amount] = []
    for amount in found:
        if not any(k.start <= amount.start and amount.end <= k.end for k in kept):
            kept.append(amount)
    return kept


def _kind(text: str, amount: _Amount) -> tuple[ProbabilityKind, int, int]:
    """Exact, or a bound when a comparison phrase is bound to the amount's figure; with the
    span of the phrases, which belong to the stated probability."""
    phrases = bound_phrases(text, amount.figure_start, amount.figure_end)
    start = min([amount.start, *(p.start for p in phrases if p.before)])
    end = max([amount.end, *(p.end for p in phrases if not p.before)])
    operators = {p.operator for p in phrases if not p.reach}
    if operators and operators <= {"gt", "ge"}:
        return "lower_bound", start, end
    if operators and operators <= {"lt", "le"}:
        return "upper_bound", start, end
    return "exact", start, end


def _stated(text: str) -> tuple[_Stated, ...]:
    # A pure function of the text and the lexicon areas it reads, and a costly one (the
    # patterns try every number word of every language at every position: ~2 ms a sentence),
    # while the evidence step reads the same page sentences once per claim (a covered demo
    # subject: ~11,000 calls, ~220 distinct sentences); so remembered, keyed by the areas'
    # digests too, so a changed lexicon is read afresh.
    digests = tuple(area_lexicon(area).digest for area in ("probability", "comparison", "numbers"))
    return _stated_uncached(text, digests)


@functools.lru_cache(maxsize=8192)
def _stated_uncached(text: str, digests: tuple[str, ...]) -> tuple[_Stated, ...]:
    del digests  # part of the cache key only
    normal = normalise_for_lexicon(text)
    if len(normal) == len(text):
        text = normal
    pats = _patterns()
    if pats.any_probability_word.search(text) is None:
        return ()
    stated: list[_Stated] = []
    for amount in _amounts(text):
        if not 0.0 <= amount.value <= 1.0:
            continue
        kind, start, end = _kind(text, amount)
        after = pats.after.match(text, amount.end)
        before = pats.before.search(text, 0, start)
        if after:
            end = max(end, after.end())
        elif before:
            start = before.start()
        elif not amount.noun_inside:
            continue
        stated.append(_Stated(amount.value, kind, start, end))
    return tuple(stated)


def parse_stated_probability(text: str) -> tuple[float, ProbabilityKind] | None:
    """A probability stated in the words, as a fraction, the first one the text states:
    "70% likely", "a 70% chance", "70 % sandsynligt", "70 % de chances", "una probabilidad
    del 70 %", "с вероятностью 70%", "70%の確率", "%70 ihtimalle", "احتمال ۷۰ درصد",
    "one in three chance", "une chance sur trois", "三分の一の確率" are exact; "more than 10%
    likely", "mehr als 10 % wahrscheinlich", "au moins 30 % de chances" are lower bounds; "less
    than a 20% chance" an upper bound. [M] step 4: "a bound such as "more than 10%" is recorded
    as a bound"; [M] Brier: "Bounds ... are left out"."""
    stated = _stated(text)
    return (stated[0].value, stated[0].kind) if stated else None


def remove_stated_probability(text: str) -> str:
    """The text with every stated-probability phrase (its bound comparison phrase included)
    blanked out with spaces of the same length, so that "more than 10% likely" is not read
    as a numeric comparison of the claim itself and every other figure keeps its place."""
    for item in _stated(text):
        text = text[: item.start] + " " * (item.end - item.start) + text[item.end :]
    return text


def record_stated_probability(
    model_value: float | None, model_kind: ProbabilityKind | None, quote: str
) -> tuple[float | None, ProbabilityKind | None]:
    """[#15] rule 6 "A stated probability is one the words state ("70% likely", "a one-in-three
    chance"); "likely" or "expected" is no probability; bounds stay bounds." The literal words
    decide: when the quote states a probability, its value and kind (exact or bound) are taken
    from the words; otherwise the model's value is kept only if it is a valid fraction whose
    figure the quote writes out ("70 out of 100"; a bound the model reports stays a bound). A
    probability inferred from hedged words ("likely" read as 70%) is not stated and is not
    recorded, so it never enters the Brier score. No probability means (None, None)."""
    parsed = parse_stated_probability(quote)
    if parsed is not None:
        return parsed
    if model_value is None:
        return None, None
    value = model_value / 100.0 if 1.0 < model_value <= 100.0 else model_value
    if not 0.0 <= value <= 1.0:
        return None, None
    # A probability the words do not hold is the model's inference ("likely" read
    # as 70%), not a stated one: only a figure that appears in the quote stands, as a
    # percentage ("70 out of 100", "70%") or a fraction ("0.7"), read by the one reader
    # of written numbers.
    if not value_written_in(value * 100.0, quote, unit="%"):
        return None, None
    return value, model_kind or "exact"
