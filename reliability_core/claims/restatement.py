"""The restatement anchored to the quote ([#15] rule 4: "The restatement is anchored to
the quote. Every number, date, named entity and comparison in the restatement appears in
the verified quote or its sentence").

A restatement that fails is kept and counted but not sampled (``Claim.restatement_verified``,
``sampling.sampling_eligibility``): what is missing is recorded, never silently fixed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reliability_core.claims.comparisons import explicit_comparisons
from reliability_core.claims.speaker import NOT_A_NAME
from reliability_core.claims.stated_probability import remove_stated_probability
from reliability_core.text.dates import find_dates, month_number
from reliability_core.text.numbers import parse_numbers, same_number_written

# A word in any script: letters, joined by an apostrophe or hyphen ("l'usine", "Saint-Nazaire").
_WORD = re.compile(r"[^\W\d_]+(?:['’&-][^\W\d_]+)*")
# A word that may be a name: begins with a letter, may hold digits ("A320", "Énergie", "Газпром").
_NAME_WORD = re.compile(r"(?<!\w)[^\W\d_][\w'’&-]*")
# Scripts written without spaces between words: a run of them is read as character pairs,
# because a whole run is a clause, not a word ("2027年までに工場を開設" shares pairs with the quote).
_UNSPACED = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f\u0e80-\u0eff\u1000-\u109f]+"
)
# English words too common to carry a topic; in other languages the restatement (asked in the
# quote's language) shares its function words with the quote, which only loosens the check.
_COMMON_WORDS = frozenset(
    ["that", "this", "with", "will", "would", "have", "been", "from", "they", "their", "there", "were", "what", "when", "which", "while", "about", "into", "over", "under", "more", "less", "than", "also", "said", "says", "some", "such", "only", "other", "very", "much", "many", "most", "make", "made", "does", "done", "each", "every", "could", "should", "shall", "might", "must", "been", "being", "both", "before", "after", "until", "since", "during", "within", "without", "through", "between", "again", "further", "once", "here", "then", "them", "these", "those", "year", "years", "claim", "claims", "stated", "states", "state", "according", "company", "companies", "organisation"]
)


def restatement_unanchored(
    restatement: str, quote: str, sentence: str = "", subject_names: Sequence[str] = ()
) -> list[str]:
    """[#15] rule 4 "The restatement is anchored to the quote. Every number, date, named entity
    and comparison in the restatement appears in the verified quote or its sentence": what in
    the restatement does not. Numbers compare by value in any common written form ("1.2
    billion" is "1,200 million"; "3,000" is not "300"); dates by the day or month they name;
    named entities are capitalised words other than the subject's names and the first word;
    comparisons are the reading rules' phrases ("more than", "at least"). A restatement whose
    content words are mostly absent from the quote is about another topic. Empty: anchored."""
    anchor = f"{quote} {sentence}"
    anchor_folded = anchor.casefold()
    names_folded = " ".join(subject_names).casefold()
    # The restatement names the subject by design ("no pronouns"): its names are not new entities.
    for name in sorted((n for n in subject_names if n.strip()), key=len, reverse=True):
        restatement = re.sub(rf"{re.escape(name)}(?:['’]s)?", " ", restatement, flags=re.IGNORECASE)
    missing: list[str] = []
    anchor_numbers = parse_numbers(anchor)
    for number in parse_numbers(restatement):
        if not same_number_written(number, anchor_numbers):
            missing.append(f"number {restatement[number.start : number.end]!r}")
    # A date is anchored when the quote names the same day or month, in whatever language
    # or form ("1. juni 2027" anchors "1 June 2027"): text.dates reads both.
    anchor_dates = {(m.first, m.last) for m in find_dates(anchor) if m.precision in ("day", "month")}
    for mention in find_dates(restatement):
        if mention.precision in ("day", "month") and (mention.first, mention.last) not in anchor_dates:
            missing.append(f"date {restatement[mention.start : mention.end]!r}")
    restatement = " ".join(restatement.split())
    for match in _NAME_WORD.finditer(restatement):
        word = match.group(0)
        if not word[0].isupper():  # a named entity is capitalised, in every cased script
            continue
        folded = word.casefold()
        # The first word is capitalised as a sentence opening; months are dates (checked above).
        if match.start() == 0 or month_number(word) is not None or word in NOT_A_NAME:
            continue
        if folded in anchor_folded or folded in names_folded:
            continue
        missing.append(f"named entity {word!r}")
    anchor_operators = set(explicit_comparisons(remove_stated_probability(anchor)))
    for operator in dict.fromkeys(explicit_comparisons(remove_stated_probability(restatement))):
        if operator not in anchor_operators:
            missing.append(f"comparison {operator!r}")
    content = [w for w in _content_units(restatement) if w not in _COMMON_WORDS and w not in names_folded]
    if content:
        stems = {w[:5] for w in _content_units(anchor)}
        found = sum(1 for w in content if w[:5] in stems)
        if found * 2 < len(content):
            missing.append(f"topic: {len(content) - found} of {len(content)} content words not in the quote")
    return missing


def _content_units(text: str) -> list[str]:
    """The words of ``text`` that can carry its topic, casefolded: words of four letters or
    more in scripts written with spaces (compared by their first five letters, a crude stem
    that holds across inflection in most of them), and character pairs of scripts written
    without spaces (Chinese, Japanese, Thai, Lao, Burmese)."""
    units: list[str] = []
    for word in _WORD.findall(text.casefold()):
        runs = _UNSPACED.findall(word)
        if not runs:
            if len(word) >= 4:
                units.append(word)
            continue
        for run in runs:
            units.extend(run[i : i + 2] for i in range(len(run) - 1))
        rest = _UNSPACED.sub(" ", word).split()
        units.extend(r for r in rest if len(r) >= 4)
    return units
