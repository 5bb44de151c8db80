"""The privacy mask ([M] step 4: "Statements about anyone's private life, family,
health, home or location are dropped before anything is stored").

Text the pipeline stores but does not store as statements (page snapshots, search
snippets, cached model answers) passes through ``mask_private_life`` before it is
written; the statements themselves are dropped in ``claims.speaker``. Here, below
every phase, because the web and provider layers mask what they store.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reliability_core.models.documents import PageSnapshot, SearchResultSet
from reliability_core.text.quotes import verify_quote
from reliability_core.text.sentences import sentence_span, split_sentences

_PRIVATE_NOUNS = (
    r"wife|husband|spouse|partner|children|child|kids|son|sons|daughter|daughters|family|mother|father|"
    r"parents|brother|sister|health|illness|diagnosis|home|house|flat|apartment|holidays?|vacations?|"
    r"divorce|marriage|wedding|girlfriend|boyfriend|grandchildren|cancer|treatment|chemotherapy|therapy|"
    r"burnout|depression|pregnancy|weekends|spare\s+time|free\s+time|cottage|summer\s+house|"
    r"doctor|GP|physician|surgeon|heart|medication|houseboat|neighbou?rs?"
)


_PRIVATE_LIFE = re.compile(
    rf"\b(?:my|his|her|their)\s+(?:[a-z']+\s+)?(?:{_PRIVATE_NOUNS})\b"
    r"|\bexpecting\s+(?:a|my|our|her|his|their)\s+(?:\w+\s+)?(?:baby|child)\b"
    r"|\bour\s+(?:kids|children|holiday\s+home|summer\s+house|cottage|home\s+in)\b"
    r"|\bour\s+family\s+(?!of\b|business\b|company\b|firm\b|owned\b|foundation\b)\w+"
    r"|\bdiagnos(?:is|ed)\b|\billness\b|\bsurgery\b|\bhospitali[sz]ed\b|\bpregnan\w*\b|\bdivorc\w*\b"
    r"|\bholidays?\b|\bvacation(?:s|ed|ing)?\b|\bon\s+sick\s+leave\b"
    r"|\bwhere\s+(?:I|we|he|she|they)\s+lives?\b"
    r"|\b(?:I|we|he|she|they)\s+(?:now\s+|still\s+)?live[sd]?\s+(?:in|on|at|near|outside)\b"
    r"(?!\s+(?:an?|the)\s+(?:\w+\s+)?(?:world|age|era|time|period|moment|economy)\b|\s+(?:\w+\s+)?times\b)"
    r"|\bheart\s+(?:attack|scare|condition|surgery)\b|\bin\s+hospital\b|\bmedical\s+leave\b"
    r"|\bmoved\s+house\b",
    re.IGNORECASE,
)


PRIVATE_REDACTION = "[sentence about private life withheld]"


def mentions_private_life(text: str) -> bool:
    """Code-side backstop for [M] "Statements about anyone's private life, family,
    health, home or location are dropped before anything is stored".

    Matches personal forms only ("my wife", "his health", "where she lives",
    "diagnosed", "holiday") so that an organisation's "health programmes" or
    "home market" are not dropped; the classifier's flag covers the rest. Text
    holding the mask (``PRIVATE_REDACTION``) is about private life too: a
    statement that needs a masked sentence is dropped as such."""
    return PRIVATE_REDACTION in text or bool(_PRIVATE_LIFE.search(text))


def mask_private_life(text: str) -> str:
    """[M] "Statements about anyone's private life, family, health, home or location
    are dropped before anything is stored", applied to text we store but do not
    store as statements (page snapshots, search snippets, cached model answers):
    each sentence the privacy backstop matches is replaced by ``PRIVATE_REDACTION``;
    everything else, line breaks included, is kept exactly as received, so quotes
    are still verified word for word against what remains."""
    # The keyword rule alone decides here, so masking masked text changes nothing.
    if not _PRIVATE_LIFE.search(text):
        return text
    lines = text.split("\n")
    for n, line in enumerate(lines):
        if not _PRIVATE_LIFE.search(line):
            continue
        parts = split_sentences(line, keep_breaks=True)
        # Even positions are sentences, odd ones the breaks between them.
        lines[n] = "".join(
            PRIVATE_REDACTION if i % 2 == 0 and _PRIVATE_LIFE.search(part) else part
            for i, part in enumerate(parts)
        )
    return "\n".join(lines)


def mask_page_snapshot(snapshot: PageSnapshot) -> PageSnapshot:
    """A page snapshot as it may be stored: title, visible text and main text with
    every private-life sentence masked (``mask_private_life``). The SHA-256 and byte
    count of the body as received stay on the record, so what was fetched is still
    provable; ``private_life_masked`` counts the masked sentences (never their text)."""
    title, text, main = (mask_private_life(t) for t in (snapshot.title, snapshot.text, snapshot.main_text))
    hidden = [h.model_copy(update={"text": mask_private_life(h.text)}) for h in snapshot.hidden_texts]
    if (title, text, main, hidden) == (snapshot.title, snapshot.text, snapshot.main_text, snapshot.hidden_texts):
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
    title, text, main = (mask_sentences_holding(t, quotes) for t in (snapshot.title, snapshot.text, snapshot.main_text))
    hidden = [h.model_copy(update={"text": mask_sentences_holding(h.text, quotes)}) for h in snapshot.hidden_texts]
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


def mask_private_in_results(result_sets: Sequence[SearchResultSet], quotes: Sequence[str]) -> list[SearchResultSet]:
    """Stored search results with every sentence holding one of ``quotes`` (statements
    found private after the results were stored) masked in their titles and snippets."""
    if not quotes:
        return list(result_sets)
    masked = []
    for result_set in result_sets:
        results = [
            r.model_copy(
                update={"title": mask_sentences_holding(r.title, quotes), "snippet": mask_sentences_holding(r.snippet, quotes)}
            )
            for r in result_set.results
        ]
        masked.append(result_set if results == result_set.results else result_set.model_copy(update={"results": results}))
    return masked
