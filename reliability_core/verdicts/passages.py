"""The passages of a fetched page that bear on a claim: what the evidence reader is sent.

[#14] section 4: "the evidence reader receives only the passages of a page that bear on
the claim, chosen by a rule in code ... bounded in size, with the cut recorded on the
record (never silent), while quote verification still runs against the whole stored page
text." Most opened pages give nothing, so a page none of whose sentences shares the claim's
key terms or figures is not sent at all (a recorded skip); the others are sent as windows
around the sentences that do, plus the page's lead (its dateline and who it is about).
The rule is deliberately looser than any reader: it decides what a reader may look at,
never what counts as evidence (code still verifies every quote word for word).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from reliability_core.constants import (
    PASSAGE_LEAD_SENTENCES,
    PASSAGE_MAX_CHARS,
    PASSAGE_MIN_SHARED_TERMS,
    PASSAGE_WINDOW_SENTENCES,
)
from reliability_core.text.sentences import split_sentences
from reliability_core.text.stems import stem

# A gap between two passages, so the reader never takes them for one sentence run.
PASSAGE_GAP = "\n[...]\n"
# Each sentence is budgeted with the widest separator it may get, so the bound holds exactly.
_SEP = len(PASSAGE_GAP)

_WORD = re.compile(r"[^\W_]+(?:[.,'][^\W_]+)*", re.UNICODE)
# Function words carry nothing about what a claim is about.
_STOPWORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "will",
        "would",
        "shall",
        "should",
        "can",
        "could",
        "may",
        "might",
        "its",
        "it",
        "this",
        "that",
        "these",
        "those",
        "than",
        "then",
        "there",
        "their",
        "they",
        "he",
        "she",
        "his",
        "her",
        "our",
        "we",
        "you",
        "not",
        "no",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "said",
        "says",
        "per",
        "into",
        "over",
        "under",
        "about",
        "after",
        "before",
        "by",
        "within",
        "more",
        "less",
        "least",
        "most",
    ]
)


class PagePassages(BaseModel):
    """What the reader is sent from one page, and how much of the page that is."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str  # the chosen sentences in page order, gaps marked with PASSAGE_GAP
    matched_sentences: int  # sentences sharing enough of the claim's terms
    page_chars: int
    sent_chars: int

    @property
    def bears_on_claim(self) -> bool:
        return self.matched_sentences > 0

    def note(self, url: str) -> str:
        """The cut, as recorded on the evidence record."""
        return (
            f"{url}: read {self.sent_chars} of {self.page_chars} characters, the passages around "
            f"{self.matched_sentences} sentences sharing the claim's terms (quotes verified against the whole page)"
        )


def _terms(text: str) -> set[str]:
    """Content words and figures, lower-cased and stemmed so "installed" meets "install"."""
    out: set[str] = set()
    for raw in _WORD.findall(text):
        word = raw.casefold().replace(",", "").removesuffix("'s")
        if word in _STOPWORDS or (len(word) < 3 and not word[:1].isdigit()):
            continue
        out.add(stem(word))
    return out


def passages_for_claim(
    page_text: str,
    restatement: str,
    subject_names: Sequence[str] = (),
    *,
    max_chars: int = PASSAGE_MAX_CHARS,
) -> PagePassages:
    """[#14] section 4: the sentences of the page sharing at least PASSAGE_MIN_SHARED_TERMS of
    the claim's key terms (its words and figures other than the subject's own name, which
    every page about the subject shares), each with PASSAGE_WINDOW_SENTENCES neighbours either
    side, plus the page's first PASSAGE_LEAD_SENTENCES sentences; best-scoring first until
    ``max_chars``, then put back in page order."""
    sentences = split_sentences(page_text)
    subject = {t for name in subject_names for t in _terms(name)}
    claim_terms = _terms(restatement) - subject
    scores: list[float] = []
    for sentence in sentences:
        shared = len(claim_terms & _terms(sentence)) / len(claim_terms) if claim_terms else 0.0
        scores.append(shared)
    matched = [i for i, score in enumerate(scores) if score >= PASSAGE_MIN_SHARED_TERMS]
    if not matched:
        return PagePassages(text="", matched_sentences=0, page_chars=len(page_text), sent_chars=0)
    chosen: set[int] = set(range(min(PASSAGE_LEAD_SENTENCES, len(sentences))))
    used = sum(len(sentences[i]) + _SEP for i in chosen)
    for i in sorted(matched, key=lambda i: (-scores[i], i)):
        window = [
            j
            for j in range(i - PASSAGE_WINDOW_SENTENCES, i + PASSAGE_WINDOW_SENTENCES + 1)
            if 0 <= j < len(sentences) and j not in chosen
        ]
        extra = sum(len(sentences[j]) + _SEP for j in window)
        if used + extra > max_chars:
            if i in chosen or used + len(sentences[i]) + _SEP > max_chars:
                continue
            window = [i]  # the sentence itself still fits, without its neighbours
            extra = len(sentences[i]) + _SEP
        chosen.update(window)
        used += extra
    parts: list[str] = []
    previous = -2
    for i in sorted(chosen):
        if parts and i != previous + 1:
            parts.append(PASSAGE_GAP)
        elif parts:
            parts.append(" ")
        parts.append(sentences[i])
        previous = i
    text = "".join(parts)
    return PagePassages(
        text=text,
        matched_sentences=sum(1 for i in matched if i in chosen),
        page_chars=len(page_text),
        sent_chars=len(text),
    )
