"""The comparison a claim's words make ([R] "How it reads a claim": "'More than',
'above', 'exceeds' are strict; 'at least', 'reaches', 'or more' include the number
itself").

Reading the phrases only: the criteria step applies them (``criteria.enforce_literal_operator``)
and the restatement check compares them (``restatement.restatement_unanchored``), so
both read the same phrases and neither imports the other.

The phrases are data, in the lexicon area ``comparison`` (``text/lexicon/comparison/``): for
each operator the words a language writes before the figure ("mehr als 5", "超过5", "en az
5") and after it ("5 or more", "5以上", "5'ten fazla", "5 ve üzeri"), in the twenty most used
languages of the web plus the Nordic ones, and the symbols (``>``, ``≥``, ``<=``...). A phrase
counts only when it is *bound* to a figure: nothing but articles, a currency or a "mark of"
word stands between a phrase before the figure and the figure, and nothing but the unit or
scale words (at most three) between the figure and a phrase after it. So "over the next five
years we build 3 GW" has no comparison, and "more than 5 years ago" binds ``gt`` to 5, not to
the claim's threshold when that is another figure.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import Final

from reliability_core.models.claims import CriteriaOperator
from reliability_core.text.compiled_patterns import compile_patterns
from reliability_core.text.lexicon import (
    AreaLexicon,
    area_lexicon,
    compiled_store,
    entry_pattern,
    normalise_for_lexicon,
)
from reliability_core.text.numbers import parse_numbers

_OPERATORS: Final[tuple[CriteriaOperator, ...]] = ("gt", "ge", "lt", "le", "eq")
# "reaches 5" includes 5 ([R]), but a reach verb says less than any other phrase bound to the
# same figure: "erreicht mehr als 5", "达到5以上", "reach at least 5" take the other phrase's
# operator. So it is its own concept, read as ``ge`` only when it stands alone.
_REACH: Final = "reach"
_KINDS: Final[tuple[str, ...]] = (*_OPERATORS, _REACH)

# How far either side of a figure a bound phrase can start or end (characters).
_WINDOW: Final = 96
_SP: Final = "\\s\u00a0\u202f\u200c\u200d"
# Between a phrase written before the figure and the figure: spaces, a comma or colon, a
# dash, a currency sign or code ("more than DKK 5 billion", "lebih dari Rp 5 triliun"), a
# percent sign written first (Turkish "en az %5"), and the area's filler words (articles,
# "the mark of"), removed beforehand.
_BEFORE_GAP: Final = re.compile(
    rf"(?:[{_SP},:\-\u2013\u05be$€£¥₩₹₺₽₫₪₴%]|(?<![^\W\d_])[A-Z]{{2,3}}\$?(?![^\W\d_])|kr\.?|Rs\.?|Rp\.?)*"
)
# Between the figure and a phrase written after it: its unit and scale words ("5 GW or more",
# "5 Mrd. Euro und mehr", "5億円を超える", "5억 달러를 넘는"), percent and suffix marks ("5'ten
# fazla"), never another figure or a clause break.
_AFTER_GAP: Final = re.compile(rf"(?:[{_SP}%‰'\u2019\-\u2013.$€£¥₩₹₺₽₫₪₴]|[^\W\d_]+)*")
_AFTER_WORDS: Final = 3
_AFTER_WORD_LENGTH: Final = 20
_AFTER_CJK_LENGTH: Final = 4
# A phrase after the figure that leads into another figure belongs to that one ("5 GW plus 3 GW").
_FIGURE_AHEAD: Final = re.compile(rf"[{_SP}]*(?:[$€£¥%]|[A-Z]{{3}})?[{_SP}]*\d")
_DIGITS: Final = re.compile(r"\d+(?:[.,'\u2019\u00a0\u202f\u066b\u066c]\d+)*")
_YEAR: Final = re.compile(r"(?:19|20)\d\d")


@dataclass(frozen=True)
class BoundPhrase:
    """A comparison phrase bound to a figure: its operator (a reach verb as ``ge``), where it
    stands, and whether it stands before or after the figure."""

    operator: CriteriaOperator
    start: int
    end: int
    before: bool
    reach: bool = False


@dataclass(frozen=True)
class _Hit:
    kind: str
    start: int
    end: int
    specificity: int  # letters of the entry that matched: "not more than" beats "more than"


def _literal_length(entry: str) -> int:
    return len(entry.replace("*", "")) if not entry.startswith("re:") else 1


@functools.cache
def _compiled(digest: str) -> dict[str, tuple[tuple[re.Pattern[str], int], ...]]:
    """Every entry of every concept compiled on its own (so overlapping phrases of different
    operators are all seen, and the longer one decides), once per lexicon version."""
    lexicon = _lexicon()
    texts: dict[str, str] = {}
    lengths: dict[str, list[tuple[str, int]]] = {}
    for concept, by_lang in lexicon.entries.items():
        for e in sorted({e for words in by_lang.values() for e in words}):
            name = f"{concept}:{len(texts)}"
            texts[name] = entry_pattern(e)
            lengths.setdefault(concept, []).append((name, _literal_length(e)))
    # Some two thousand patterns: compiling them cost about a tenth of a second in every
    # process, so they are kept on disk beside the lexicon, checked by hash.
    compiled = compile_patterns(texts, re.IGNORECASE, compiled_store("comparison.entries"))
    return {
        concept: tuple((compiled[name], length) for name, length in lengths.get(concept, []))
        for concept in lexicon.entries
    }


def _lexicon() -> AreaLexicon:
    return area_lexicon("comparison")


def _patterns() -> dict[str, tuple[tuple[re.Pattern[str], int], ...]]:
    return _compiled(_lexicon().digest)


@functools.cache
def _alternation(concept: str, digest: str) -> re.Pattern[str]:
    """A concept's entries as one alternation (filler and join words are only stripped)."""
    entries = {e for words in _lexicon().entries.get(concept, {}).values() for e in words}
    patterns = sorted((entry_pattern(e) for e in entries), key=len, reverse=True)
    return re.compile("|".join(patterns) or r"(?!)", re.IGNORECASE)


def _strip(concept: str, text: str) -> str:
    return _alternation(concept, _lexicon().digest).sub(" ", text)


def _may_occur(concept: str, text: str, start: int, end: int) -> bool:
    """Does any entry of ``concept`` match somewhere in ``text[start:end]``? The lexicon's
    alternation of the concept matches at a position exactly when one of its entries does,
    so with no match there none of the entries, each scanned on its own below, can match:
    one search instead of one per entry (hundreds per concept; issue 29)."""
    lexicon = _lexicon()
    return concept in lexicon.entries and lexicon.pattern(concept).search(text, start, end) is not None


def _hits(text: str, side: str, lo: int, hi: int) -> list[_Hit]:
    """The phrases of one side ("before"/"after") in ``text[lo:hi]``: overlapping matches
    resolved to the longest, then the most specific entry ("no more than" over "more than",
    "を超えない" over "を超え"). Before the figure the text ends where the figure starts (a
    stem such as Hebrew "מ*" stops there); after it, the text starts where the figure ends
    (so "5이상" has its word boundary)."""
    patterns = _patterns()
    window, offset = (text, 0) if side == "before" else (text[lo:hi], lo)
    start, end = (lo, hi) if side == "before" else (0, len(window))
    found: list[_Hit] = []
    for kind in _KINDS:
        if not _may_occur(f"{kind}_{side}", window, start, end):
            continue
        for pattern, specificity in patterns.get(f"{kind}_{side}", ()):
            for m in pattern.finditer(window, start, end):
                if m.end() > m.start():
                    found.append(_Hit(kind, m.start() + offset, m.end() + offset, specificity))
    found.sort(key=lambda h: (h.end - h.start, h.specificity), reverse=True)
    chosen: list[_Hit] = []
    for hit in found:
        if all(hit.end <= c.start or c.end <= hit.start for c in chosen):
            chosen.append(hit)
    return chosen


def _before_gap_ok(gap: str) -> bool:
    return _BEFORE_GAP.fullmatch(_strip("filler", gap)) is not None


def _is_cjk(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith(("CJK", "HIRAGANA", "KATAKANA", "HANGUL"))


def _after_gap_ok(gap: str) -> bool:
    if _AFTER_GAP.fullmatch(gap) is None:
        return False
    words = re.findall(r"[^\W\d_]+", gap)
    if len(words) > _AFTER_WORDS:
        return False
    for word in words:
        limit = _AFTER_CJK_LENGTH if any(_is_cjk(ch) for ch in word) else _AFTER_WORD_LENGTH
        if len(word) > limit:
            return False
    return True


def _chain_gap_ok(gap: str) -> bool:
    """Two phrases on one side of a figure bind together when only a conjunction, a comma or
    a filler word separates them ("at least, and at most, 5"; "reach more than 5")."""
    rest = _strip("filler", _strip("join", gap))
    return re.fullmatch(rf"[{_SP},;()\-\u2013]*", rest) is not None


def bound_phrases(text: str, figure_start: int, figure_end: int) -> list[BoundPhrase]:
    """The comparison phrases bound to the figure at ``text[figure_start:figure_end]``,
    nearest first, with their spans (``operators_bound_to_figure`` gives the operators)."""
    normal = normalise_for_lexicon(text)
    if len(normal) == len(text):
        text = normal
    lo = max(0, figure_start - _WINDOW)
    before = sorted(_hits(text, "before", lo, figure_start), key=lambda h: h.end, reverse=True)
    after = sorted(_hits(text, "after", figure_end, figure_end + _WINDOW), key=lambda h: h.start)
    bound: list[tuple[int, BoundPhrase]] = []
    edge = figure_start
    first = True
    for hit in before:
        gap = text[hit.end : edge]
        if not (_before_gap_ok(gap) if first else _chain_gap_ok(gap)):
            if first:
                continue
            break
        bound.append((figure_start - hit.end, _phrase(hit, before=True)))
        edge, first = hit.start, False
    edge, first = figure_end, True
    for hit in after:
        gap = text[edge : hit.start]
        if _FIGURE_AHEAD.match(text, hit.end):
            continue
        if not (_after_gap_ok(gap) if first else _chain_gap_ok(gap)):
            if first:
                continue
            break
        bound.append((hit.start - figure_end, _phrase(hit, before=False)))
        edge, first = hit.end, False
    bound.sort(key=lambda pair: pair[0])
    phrases = [phrase for _, phrase in bound]
    if any(not p.reach for p in phrases):
        phrases = [p for p in phrases if not p.reach]
    return phrases


def _phrase(hit: _Hit, *, before: bool) -> BoundPhrase:
    reach = hit.kind == _REACH
    operator: CriteriaOperator = "ge" if reach else hit.kind  # type: ignore[assignment]
    return BoundPhrase(operator, hit.start, hit.end, before, reach)


def operators_bound_to_figure(text: str, figure_start: int, figure_end: int) -> list[CriteriaOperator]:
    """[R] "'More than', 'above', 'exceeds' are strict; 'at least', 'reaches', 'or more'
    include the number itself": the operators the words bind to the figure at
    ``text[figure_start:figure_end]``, nearest first, each once. A phrase before the figure
    ("mehr als 5", "plus de 5", "超过5", "en az 5", "≥5"), after it ("5 or more", "5 und mehr",
    "5以上", "5未満", "5'ten fazla", "5 ve üzeri") or both ("more than 5 or fewer": two
    operators, which the criteria step refuses). Negations are phrases of their own and win
    over the phrase they contain ("no more than" is ``le``, "不超过" is ``le``, "pas moins de" is
    ``ge``). A reach verb ("reaches", "erreicht", "达到") is ``ge`` unless another phrase is
    bound too ("reach more than 5" is ``gt``). Approximations ("nearly", "about", "rund",
    "environ", "约") are no operator: they say the figure is not exact, not which side of it
    the claim is on, so the criteria writer's operator stands."""
    return list(dict.fromkeys(p.operator for p in bound_phrases(text, figure_start, figure_end)))


def figure_spans(text: str) -> list[tuple[int, int]]:
    """Where the figures of ``text`` stand: the numbers the one reader of written numbers
    finds (digits and number words) and any run of digits it does not cover (other scripts'
    digits, "۷۰"), in order."""
    spans = [(n.start, n.end) for n in parse_numbers(text)]
    for m in _DIGITS.finditer(text):
        if not any(s < m.end() and m.start() < e for s, e in spans):
            spans.append((m.start(), m.end()))
    return sorted(spans)


def _is_year(text: str, span: tuple[int, int]) -> bool:
    return _YEAR.fullmatch(text[span[0] : span[1]].strip()) is not None


def _comparisons(text: str) -> list[tuple[int, CriteriaOperator, bool]]:
    seen: dict[tuple[int, int], tuple[int, CriteriaOperator, bool]] = {}
    for span in figure_spans(text):
        year = _is_year(text, span)
        for phrase in bound_phrases(text, *span):
            seen.setdefault((phrase.start, phrase.end), (phrase.start, phrase.operator, year))
    return sorted(seen.values(), key=lambda item: item[0])


def explicit_comparisons(text: str) -> list[CriteriaOperator]:
    """Every comparison phrase in ``text`` that is bound to a figure, in order of appearance
    (``operators_bound_to_figure`` says what binds)."""
    return [operator for _, operator, _ in _comparisons(text)]


def parse_comparison(text: str) -> CriteriaOperator:
    """[R] "'More than', 'above', 'exceeds' are strict; 'at least', 'reaches',
    'or more' include the number itself. A tie on 'more than' is a no. Nothing
    is rounded." The first comparison phrase bound to a figure decides (``gt``, ``ge``,
    ``lt``, ``le``, ``eq``), a figure that is not a year first ("до 2025 года ... превысит
    5 млрд" is ``gt``); a figure stated without one ("we installed 1.2 GW") is read literally
    as ``eq``."""
    found = _comparisons(text)
    for _, operator, year in found:
        if not year:
            return operator
    return found[0][1] if found else "eq"
