"""Text features of the steering screen: the same code builds the training matrix
(``tools/train_steering_screen.py``) and scores text at run time, so the two cannot drift.

Character n-grams (1 to 5, across word boundaries), word unigrams and bigrams, and concept
features (``concepts``: one per concept of the lexicon a unit's words express, one per pair
of concepts present in a window) of a normalised text, hashed into a fixed number of buckets with CRC-32, weighted by sublinear term frequency times inverse document
frequency and scaled to unit length (the classic TF-IDF of a linear text classifier).
Character n-grams work in every script without a tokenizer, and survive misspellings
("ignroe the instructions") and inflection better than word lists; the words add which
words go together ("previous instructions", "system prompt"). Words are split by script:
Han, kana and Thai, written without spaces, give one token per character.

A text is read as a sequence of units (sentences, over-long ones cut into pieces) joined
by single spaces. Each unit is hashed once; the counts of any run of units (a window) are
the sum of the units' counts plus the few n-grams that straddle each join, so scoring every
window of a long page costs little more than hashing the page once, and a window's features
equal those of its text featurised whole.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from reliability_core.verdicts.steering_screen.concepts import ConceptLexicon, concept_pairs

FEATURE_BITS = 18  # 262,144 buckets: few collisions for ~1,000,000 distinct training n-grams
NGRAM_SIZES: tuple[int, ...] = (1, 2, 3, 4, 5)
_MASK = (1 << FEATURE_BITS) - 1
_LONGEST = max(NGRAM_SIZES)

# Zero-width and joiner characters hide nothing from a model but split words for a rule or
# a reader ("ig\u200bnore"): they are dropped before featurising, and reported separately.
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u200e\u200f\u2060-\u2064\ufeff\u00ad\u180e]")
# Unicode tag characters (U+E0020-U+E007E) spell ASCII invisibly: read them as the ASCII
# they encode, so the hidden instruction is featurised, not skipped.
_TAG_RUN = re.compile("[\U000e0020-\U000e007e]+")
_SPACE = re.compile(r"\s+")
# One token per Han, kana or Thai character; otherwise a run of word characters.
_SPACELESS = "\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD = re.compile(f"[{_SPACELESS}]|[^\\W{_SPACELESS}]+")
# Sentence ends in the scripts screened: Latin/Cyrillic/Greek punctuation followed by space,
# CJK full stops with or without space, Devanagari danda, Arabic question mark, line breaks.
# Not the pipeline's splitter (``text.sentences``) on purpose: the units are part of the
# trained artefact (its weights and threshold were fitted, and its figures measured, on units
# cut by this rule, in every script screened), so they change only with a retrained screen.
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|(?<=[。！？；।؟])\s*|\n+")

UNIT_MAX_CHARS = 300  # a longer sentence (or an unpunctuated page) is cut into pieces
WINDOW_MAX_CHARS = 600
WINDOW_MAX_UNITS = 4
# A unit this short ("System:", "Verdict:", a heading or a label) is not scored on its own
# when the text has more: it says too little to be an instruction, and a window of one or
# two words has so few features that its score is unstable (a heading like "System:"
# scored as high as an attack). It is still scored with the units around it.
UNIT_MIN_CHARS_ALONE = 16

Sparse = tuple[NDArray[np.int64], NDArray[np.float64]]  # bucket indices, counts


def reveal_tag_characters(text: str) -> str:
    """Tag characters read as the ASCII letters they encode."""
    return _TAG_RUN.sub(lambda m: "".join(chr(ord(c) - 0xE0000) for c in m.group(0)), text)


def normalise(text: str) -> str:
    """What the classifier reads: tag characters revealed, zero-width characters dropped,
    compatibility forms folded (full-width letters, ligatures), case folded, whitespace
    collapsed."""
    text = _ZERO_WIDTH.sub("", reveal_tag_characters(text))
    text = unicodedata.normalize("NFKC", text).casefold()
    return _SPACE.sub(" ", text).strip()


def _hash(gram: str) -> int:
    return zlib.crc32(gram.encode("utf-8")) & _MASK


def words(text: str) -> list[str]:
    """Word tokens of a normalised text, script-aware: runs of letters and digits, except
    that Han, kana and Thai (written without spaces between words) give one token per
    character, so a word bigram there is a character bigram. Hangul is spaced by word."""
    return _WORD.findall(text)


def _word_grams(tokens: Sequence[str]) -> list[str]:
    grams = [f"\x01{t}" for t in tokens]
    grams.extend(f"\x02{a} {b}" for a, b in itertools.pairwise(tokens))
    return grams


def hashed_ngrams(text: str) -> Counter[int]:
    """Bucket -> count of the character n-grams of an already normalised text, padded
    with one space on each side, and of its word unigrams and bigrams (marked so a word
    does not share a bucket with the same characters as a character n-gram)."""
    padded = f" {text} "
    counts: Counter[int] = Counter()
    for n in NGRAM_SIZES:
        counts.update(_hash(padded[i : i + n]) for i in range(len(padded) - n + 1))
    counts.update(_hash(g) for g in _word_grams(words(text)))
    return counts


def _sparse(counts: Counter[int]) -> Sparse:
    return (
        np.fromiter(counts.keys(), dtype=np.int64, count=len(counts)),
        np.fromiter(counts.values(), dtype=np.float64, count=len(counts)),
    )


_SPACE_BUCKET = _hash(" ")


def _join_ngrams(left: str, right: str) -> Counter[int]:
    """N-grams of ``left + " " + right`` that reach into both sides (the padding space of
    each unit is shared at the join, so it is counted once, not twice)."""
    a, b = left[-(_LONGEST - 1) :], right[: _LONGEST - 1]
    joint = f"{a} {b}"
    counts: Counter[int] = Counter({_SPACE_BUCKET: -1})
    for n in NGRAM_SIZES:
        for i in range(len(joint) - n + 1):
            if i < len(a) and i + n > len(a) + 1:
                counts[_hash(joint[i : i + n])] += 1
    # the one word bigram across the join (a space always separates the two units)
    last, first = words(left)[-1:], words(right)[:1]
    if last and first:
        counts[_hash(f"\x02{last[0]} {first[0]}")] += 1
    return counts


@dataclass(frozen=True)
class Window:
    """A stretch of the original text that is scored on its own: ``text[start:end]``."""

    start: int
    end: int


def unit_spans(text: str) -> list[Window]:
    """Sentences of ``text`` as spans of the original string, over-long ones in pieces."""
    spans: list[Window] = []
    start = 0
    for match in [*_SENTENCE_END.finditer(text), None]:
        end = match.start() if match is not None else len(text)
        if end > start and text[start:end].strip():
            spans.extend(Window(s, min(end, s + UNIT_MAX_CHARS)) for s in range(start, end, UNIT_MAX_CHARS))
        if match is not None:
            start = match.end()
    return spans


def concept_counts(text: str, lexicon: ConceptLexicon | None) -> Counter[str]:
    """Concept -> matches in an already normalised text (none without a lexicon)."""
    return lexicon.matches(words(text)) if lexicon is not None else Counter()


def _concept_bucket(concept: str) -> int:
    return _hash(f"\x03{concept}")


def _with_concepts(counts: Counter[int], found: Counter[str]) -> Counter[int]:
    """``counts`` with one bucket per concept found added, in place (a ``+`` of two Counters
    copies both, once per sentence of every page screened)."""
    for concept, n in found.items():
        counts[_concept_bucket(concept)] += n
    return counts


def _pair_bucket(pair: str) -> int:
    return _hash(f"\x04{pair}")


class UnitFeatures:
    """The units of one text, each normalised and hashed once, and the counts of any run.
    ``lexicon``: the concept lexicon the artefact was trained with (None: no concept
    features, as an artefact trained without them)."""

    def __init__(self, text: str, lexicon: ConceptLexicon | None = None) -> None:
        self.spans = unit_spans(text)
        self.normalised = [normalise(text[w.start : w.end]) for w in self.spans]
        keep = [i for i, s in enumerate(self.normalised) if s]
        self.spans = [self.spans[i] for i in keep]
        self.normalised = [self.normalised[i] for i in keep]
        self._concepts = [concept_counts(s, lexicon) for s in self.normalised]
        self._units = [
            _sparse(_with_concepts(hashed_ngrams(s), found))
            for s, found in zip(self.normalised, self._concepts, strict=True)
        ]
        self._joins = [
            _sparse(_join_ngrams(a, b)) for a, b in zip(self.normalised, self.normalised[1:], strict=False)
        ]

    def run(self, first: int, last: int) -> Sparse:
        """Summed counts of units ``first..last`` (inclusive): equal to hashing their
        normalised texts joined by spaces (concepts are found within a unit)."""
        parts = self._units[first : last + 1] + self._joins[first:last]
        # Concept pairs are of the window, not summed over its units: two concepts in two
        # neighbouring sentences are a pair, as in one.
        pairs = concept_pairs(c for found in self._concepts[first : last + 1] for c in found)
        if pairs:
            parts = [*parts, _sparse(Counter(_pair_bucket(p) for p in pairs))]
        index = np.concatenate([p[0] for p in parts])
        counts = np.concatenate([p[1] for p in parts])
        unique, inverse = np.unique(index, return_inverse=True)
        summed = np.bincount(inverse, weights=counts).astype(np.float64)
        present = summed > 0
        return unique[present].astype(np.int64), summed[present]

    def whole(self) -> Sparse:
        if not self._units:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        return self.run(0, len(self._units) - 1)

    def windows(self) -> list[tuple[Window, int, int]]:
        """Every run of one to ``WINDOW_MAX_UNITS`` consecutive units that fits in
        ``WINDOW_MAX_CHARS``: an instruction spread over a few sentences, or led in by a
        harmless one, is one window among many, not diluted by the whole page."""
        out: list[tuple[Window, int, int]] = []
        for i, first in enumerate(self.spans):
            if len(self.spans) == 1 or len(self.normalised[i]) >= UNIT_MIN_CHARS_ALONE:
                out.append((first, i, i))
            for j in range(i + 1, min(i + WINDOW_MAX_UNITS, len(self.spans))):
                if self.spans[j].end - first.start > WINDOW_MAX_CHARS:
                    break
                out.append((Window(first.start, self.spans[j].end), i, j))
        return out


def text_counts(text: str, lexicon: ConceptLexicon | None = None) -> Sparse:
    """The counts of a whole text (its units joined)."""
    return UnitFeatures(text, lexicon).whole()


def window_texts(text: str) -> list[str]:
    """The texts of the windows the screen scores (for training on clean documents)."""
    return [text[w.start : w.end] for w, _, _ in UnitFeatures(text).windows()]


def tfidf(counts: Sparse, idf: NDArray[np.float32]) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
    """Unit-length sublinear TF-IDF of counts."""
    index, values = counts
    if index.size == 0:
        return index, np.zeros(0, dtype=np.float32)
    weighted = ((1.0 + np.log(values)) * idf[index]).astype(np.float32)
    norm = float(np.sqrt(np.dot(weighted, weighted))) or 1.0
    return index, weighted / norm


def tfidf_rows(
    texts: Sequence[str], idf: NDArray[np.float32], lexicon: ConceptLexicon | None = None
) -> list[tuple[NDArray[np.int64], NDArray[np.float32]]]:
    """Each text as (bucket indices, unit-length TF-IDF values)."""
    return [tfidf(text_counts(text, lexicon), idf) for text in texts]
