"""Private sentences remembered by fingerprint, so their copies are masked too (issue 24 §6).

Step 4 masks, in the page it read, every sentence holding a statement dropped as private
(``text.privacy.mask_private_statements``). The same sentence can come back later in a copy
of that page under another URL (a wire report syndicated by several newsrooms, read as
evidence in step 7); the keyword rule catches it only when its words say private life, and
the classifier's finding is gone by then: the statement was never stored, by the rule
itself. What is kept instead is a fingerprint of each such sentence (SHA-256 of its
normalised words, no text), and every page fetched for the subject afterwards has the
sentences with a known fingerprint masked before a quote is verified on it or anything
stores it (``web.snapshots.MaskingFetcher``).

A copy that rewords or re-splits the sentence has another fingerprint and is left to the
keyword rule: fingerprints catch copies, not paraphrases.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from reliability_core.models.documents import PageSnapshot
from reliability_core.text.normalise import normalised
from reliability_core.text.privacy import PRIVATE_REDACTION, _masked_snapshot
from reliability_core.text.quotes import verify_quote
from reliability_core.text.sentences import sentence_span, split_sentences


def sentence_fingerprint(sentence: str) -> str:
    """SHA-256 of a sentence's normalised words (case, typography and spacing folded)."""
    return hashlib.sha256(" ".join(normalised(sentence).split()).encode("utf-8")).hexdigest()


def private_sentence_fingerprints(text: str, quotes: Sequence[str]) -> set[str]:
    """The fingerprints of every sentence of ``text`` that holds one of ``quotes`` (the
    statements step 4 dropped as private), found as quotes are verified."""
    found: set[str] = set()
    for quote in quotes:
        if not quote.strip() or PRIVATE_REDACTION in quote:
            continue
        check = verify_quote(quote, text)
        if not check.verified or check.start is None or check.end is None:
            continue
        left, right = sentence_span(text, check.start, check.end)
        for line in text[left:right].split("\n"):
            if line.strip():
                found.add(sentence_fingerprint(line))
        found.add(sentence_fingerprint(text[left:right]))
    return found


def mask_fingerprinted_sentences(text: str, fingerprints: Iterable[str]) -> str:
    """``text`` with every sentence (or line) whose fingerprint is known replaced by
    ``PRIVATE_REDACTION``; line breaks stay as received."""
    known = set(fingerprints)
    if not known or not text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        if line.strip() and sentence_fingerprint(line) in known:
            out.append(PRIVATE_REDACTION)
            continue
        sentences = split_sentences(line, keep_breaks=True)
        if any(s.strip() and sentence_fingerprint(s) in known for s in sentences):
            line = "".join(
                (PRIVATE_REDACTION + (" " if s.endswith((" ", "\t")) else ""))
                if s.strip() and sentence_fingerprint(s) in known
                else s
                for s in sentences
            )
        out.append(line)
    return "\n".join(out)


def mask_known_private_sentences(snapshot: PageSnapshot, fingerprints: Iterable[str]) -> PageSnapshot:
    """A snapshot with the sentences of known fingerprints masked in its title, visible,
    main and hidden texts (``private_life_masked`` counts them)."""
    known = frozenset(fingerprints)
    if not known:
        return snapshot
    return _masked_snapshot(snapshot, lambda text: mask_fingerprinted_sentences(text, known))
