"""Stated probabilities ([M] step 4: "a bound such as "more than 10%" is recorded as a
bound"; [#15] rule 6: "A stated probability is one the words state").

The quote's words decide whether a probability was stated, and whether it is exact or a
bound; the model's value stands only when the quote writes its figure. The criteria step
and the restatement check also blank these phrases out (``remove_stated_probability``), so
that "more than 10% likely" is never read as the claim's own comparison.
"""

from __future__ import annotations

import re

from reliability_core.models.claims import ProbabilityKind
from reliability_core.text.numbers import value_written_in

_NUM = r"(\d{1,3}(?:\.\d+)?)\s*(?:%|per\s*cent|percent)"
_PROB_WORD = r"(?:likely|likelihood|chance|probability|probable|odds)"
_LOWER = r"(?:more\s+than|over|above|greater\s+than|at\s+least|no\s+less\s+than|better\s+than)"
_UPPER = r"(?:less\s+than|under|below|at\s+most|no\s+more\s+than|fewer\s+than)"
_PROB_BOUND_LOWER = re.compile(
    rf"\b{_LOWER}\s+(?:a\s+)?{_NUM}\s+(?:\w+\s+){{0,2}}?{_PROB_WORD}", re.IGNORECASE
)
_PROB_BOUND_UPPER = re.compile(
    rf"\b{_UPPER}\s+(?:a\s+)?{_NUM}\s+(?:\w+\s+){{0,2}}?{_PROB_WORD}", re.IGNORECASE
)
_PROB_EXACT = re.compile(rf"(?<![\w.]){_NUM}\s+(?:\w+\s+){{0,2}}?{_PROB_WORD}", re.IGNORECASE)
_PROB_EXACT_OF = re.compile(
    rf"\b(?:{_PROB_WORD}\s+(?:of|is|at)|put\s+(?:it|the\s+odds|the\s+chances?)\s+at)\s+(?:about\s+)?{_NUM}",
    re.IGNORECASE,
)


_ODDS_NUMBER = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|hundred|a\s+hundred|thousand)"
_PROB_ODDS = re.compile(
    rf"\b(?:a\s+|an\s+)?{_ODDS_NUMBER}[\s-]+(?:in|out[\s-]+of)[\s-]+{_ODDS_NUMBER}\s+"
    rf"(?:\w+\s+)?{_PROB_WORD}",
    re.IGNORECASE,
)
_ODDS_WORDS: dict[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "hundred": 100, "a hundred": 100, "thousand": 1000,
}  # fmt: skip


def _odds_value(word: str) -> int:
    folded = re.sub(r"\s+", " ", word.casefold())
    return int(folded) if folded.isdigit() else _ODDS_WORDS[folded]


def parse_stated_probability(text: str) -> tuple[float, ProbabilityKind] | None:
    """A probability stated in the words ("70% likely", "a 70% chance": exact;
    "more than 10% likely", "at least 30% chance": lower bound; "less than 20%
    chance": upper bound), as a fraction. [M] step 4: "a bound such as "more than
    10%" is recorded as a bound"; [M] Brier: "Bounds ... are left out"."""
    for pattern, kind in (
        (_PROB_BOUND_LOWER, "lower_bound"),
        (_PROB_BOUND_UPPER, "upper_bound"),
        (_PROB_EXACT, "exact"),
        (_PROB_EXACT_OF, "exact"),
    ):
        match = pattern.search(text)
        if match:
            value = float(match.group(1)) / 100.0
            if 0.0 <= value <= 1.0:
                kind_literal: ProbabilityKind = kind  # type: ignore[assignment]
                return value, kind_literal
    odds = _PROB_ODDS.search(text)
    if odds:
        part, whole = _odds_value(odds.group(1)), _odds_value(odds.group(2))
        if whole > 0 and part <= whole:
            return part / whole, "exact"
    return None


def remove_stated_probability(text: str) -> str:
    """The text with any stated-probability phrase blanked out, so that "more than
    10% likely" is not read as a numeric comparison of the claim itself."""
    for pattern in (_PROB_BOUND_LOWER, _PROB_BOUND_UPPER, _PROB_EXACT, _PROB_EXACT_OF, _PROB_ODDS):
        text = pattern.sub(" ", text)
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
