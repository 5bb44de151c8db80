"""Copies and repeats: a claim is never checked against itself, and the same
story copied on several sites counts once ([M] step 7, [R] "Sources it accepts").

Texts are compared as sets of word shingles. MinHash (datasketch, fixed seed)
finds candidate copies among many pages; the decision itself is the exact
shingle Jaccard (or containment) against ``NEAR_DUPLICATE_JACCARD``, so it does
not depend on the sketch's sampling error.

"Counts once" is decided here and nowhere else: ``group_same_story`` says which
pages are one story, ``copies_in_keeping_order`` which copy of it counts, and
``mark_same_story`` excludes the others' items. The research step reads a story's
copies in that order, so it reads only the copy that will count.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from reliability_core.constants import NEAR_DUPLICATE_JACCARD, REPEAT_SHARED_CONTENT_WORDS, SHINGLE_WORDS
from reliability_core.models.base import SourceClass
from reliability_core.models.verdicts import EvidenceItem
from reliability_core.verdicts.outcome_wording import (
    is_reported_speech,
    reports_delay_or_cancellation,
    speaks_of_future_or_intention,
)

if TYPE_CHECKING:
    # Imported where first used: datasketch imports scipy.integrate (~0.6 s of a process),
    # which a run needs only once it compares evidence pages (issue 29).
    from datasketch import MinHash

_WORD = re.compile(r"\w+", re.UNICODE)
_MINHASH_PERMUTATIONS = 128
_MINHASH_SEED = 7  # fixed: the same pages always group the same way
# The LSH threshold sits below the decision threshold so no true copy is missed.
_LSH_THRESHOLD = max(0.1, NEAR_DUPLICATE_JACCARD - 0.3)
# Which copy of a story counts: the most authoritative publisher's; any other class after these.
_KEEPING_RANK: dict[SourceClass | None, int] = {
    "official_record": 0,
    "wire_service": 1,
    "established_newsroom": 2,
    "subject_ordinary_statement": 3,
}
_OTHER_CLASS_RANK = 9


def words_of(text: str) -> list[str]:
    """Lower-case word tokens after Unicode normalisation (quotes, dashes and spacing drop out)."""
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def shingles(text: str, size: int = SHINGLE_WORDS) -> set[str]:
    """Overlapping runs of ``size`` words; a text shorter than that is one shingle."""
    tokens = words_of(text)
    if not tokens:
        return set()
    if len(tokens) <= size:
        return {" ".join(tokens)}
    return {" ".join(tokens[i : i + size]) for i in range(len(tokens) - size + 1)}


def jaccard(a: set[str], b: set[str]) -> float:
    """|A ∩ B| / |A ∪ B|; 0 for two empty sets."""
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def containment(part: set[str], whole: set[str]) -> float:
    """Share of ``part``'s shingles that also occur in ``whole``."""
    return len(part & whole) / len(part) if part else 0.0


def is_copy_of(page_text: str, own_source_text: str) -> bool:
    """[M] step 7: "Evidence from the claim's own source document is never used, including
    copies of it at other addresses". A page is a copy when its shingles overlap the own
    source's by at least ``NEAR_DUPLICATE_JACCARD`` (Jaccard), or when it contains that share
    of the own source inside a different frame (navigation, ads, a syndication note)."""
    page, own = shingles(page_text), shingles(own_source_text)
    if not page or not own:
        return False
    return jaccard(page, own) >= NEAR_DUPLICATE_JACCARD or containment(own, page) >= NEAR_DUPLICATE_JACCARD


def repeats_claim(
    evidence_quote: str, claim_texts: Sequence[str], *, speaker_names: Sequence[str] = ()
) -> bool:
    """[M] step 7: "reports that only repeat the claim" are not evidence: "a claim cannot be
    checked against itself". An evidence quote repeats the claim when most of it is the
    claim's own words (its shingles are contained in the claim quote or restatement at
    ``NEAR_DUPLICATE_JACCARD`` or more, or it quotes the claim whole), or when it attributes
    the claim to its speaker (``attributes_claim_to_speaker``: "Northwind said it will ...",
    "Northwind sagde, at selskabet vil ...", "a déclaré qu'il atteindra ...")."""
    quote_sh = shingles(evidence_quote, size=3)
    quote_norm = " ".join(words_of(evidence_quote))
    for text in claim_texts:
        if not text.strip():
            continue
        text_norm = " ".join(words_of(text))
        if text_norm and len(text_norm) >= 20 and text_norm in quote_norm:
            return True
        if containment(quote_sh, shingles(text, size=3)) >= NEAR_DUPLICATE_JACCARD:
            return True
    return attributes_claim_to_speaker(evidence_quote, claim_texts, speaker_names)


# Shorter words (articles, pronouns, "will") say nothing about what a quote is about.
_CONTENT_WORD_CHARS = 4


def attributes_claim_to_speaker(
    evidence_quote: str, claim_texts: Sequence[str], speaker_names: Sequence[str]
) -> bool:
    """Reported speech of the claim: the quote reports what somebody said, told, announced or
    pledged (``outcome_wording.is_reported_speech``) in the future tense or as a plan
    (``speaks_of_future_or_intention``), reports no delay, miss or cancellation, and is the
    claim's: it names the claim's speaker (any of ``speaker_names``, or the first word of one,
    "Northwind" for "Northwind Energy A/S"), or shares at least half of the claim's content
    words. Such a report says only that the claim was made."""
    if not (is_reported_speech(evidence_quote) and speaks_of_future_or_intention(evidence_quote)):
        return False
    if reports_delay_or_cancellation(evidence_quote):
        return False
    quote_words = set(words_of(evidence_quote))
    for name in speaker_names:
        name_words = [w for w in words_of(name) if len(w) >= _CONTENT_WORD_CHARS]
        if name_words and (name_words[0] in quote_words or all(w in quote_words for w in name_words)):
            return True
    for text in claim_texts:
        content = {w for w in words_of(text) if len(w) >= _CONTENT_WORD_CHARS and not w.isdigit()}
        if content and len(content & quote_words) / len(content) >= REPEAT_SHARED_CONTENT_WORDS:
            return True
    return False


@lru_cache(maxsize=2048)
def _text_sketch(text: str) -> tuple[frozenset[str], MinHash | None]:
    """Shingles and MinHash of a page text, once per text: a subject's evidence
    pages recur across its claims (only read afterwards, never updated)."""
    shingle_set = shingles(text)
    return frozenset(shingle_set), (_minhash(shingle_set) if shingle_set else None)


def _minhash(shingle_set: set[str]) -> MinHash:
    from datasketch import MinHash

    sketch = MinHash(num_perm=_MINHASH_PERMUTATIONS, seed=_MINHASH_SEED)
    for item in sorted(shingle_set):
        sketch.update(item.encode("utf-8"))
    return sketch


@cache
def lsh_bands_and_rows(threshold: float, num_perm: int = _MINHASH_PERMUTATIONS) -> tuple[int, int]:
    """The LSH index's (bands, rows): what ``MinHashLSH`` would choose for ``threshold`` with
    its default equal weights, chosen once per process. datasketch finds them by numerical
    integration (thousands of ``scipy.integrate.quad`` calls) on every index it builds, and
    ``group_same_story`` builds one per claim: the answer depends only on these two numbers."""
    from datasketch import MinHashLSH

    chosen = MinHashLSH(threshold=threshold, num_perm=num_perm)
    return chosen.b, chosen.r


def group_same_story(texts: Mapping[str, str]) -> list[list[str]]:
    """[R] "The same story copied on several sites counts once." Groups keys whose texts are
    near-duplicates (exact shingle Jaccard or containment >= ``NEAR_DUPLICATE_JACCARD``); MinHash
    LSH proposes the candidate pairs. Groups keep the input order; singletons are groups too."""
    from datasketch import MinHashLSH

    keys = list(texts)
    sketched = {key: _text_sketch(texts[key]) for key in keys}
    sets = {key: set(sketched[key][0]) for key in keys}
    lsh = MinHashLSH(
        threshold=_LSH_THRESHOLD, num_perm=_MINHASH_PERMUTATIONS, params=lsh_bands_and_rows(_LSH_THRESHOLD)
    )
    sketches: dict[str, MinHash] = {}
    for key in keys:
        sketch = sketched[key][1]
        if sketch is not None:
            sketches[key] = sketch
            lsh.insert(key, sketch)
    parent = {key: key for key in keys}

    def find(key: str) -> str:
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    order = {key: i for i, key in enumerate(keys)}
    for key in keys:
        if key not in sketches:
            continue
        for other in lsh.query(sketches[key]):
            if other == key or not _near_duplicate(sets[key], sets[other]):
                continue
            a, b = find(key), find(other)
            if a != b:
                first, second = sorted((a, b), key=order.__getitem__)
                parent[second] = first
    groups: dict[str, list[str]] = {}
    for key in keys:
        groups.setdefault(find(key), []).append(key)
    return sorted(groups.values(), key=lambda group: order[group[0]])


def _near_duplicate(a: set[str], b: set[str]) -> bool:
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    return jaccard(a, b) >= NEAR_DUPLICATE_JACCARD or containment(small, large) >= NEAR_DUPLICATE_JACCARD


def copies_in_keeping_order(story: Sequence[str], source_class: Mapping[str, SourceClass | None]) -> list[str]:
    """[R] "The same story copied on several sites counts once": which copy counts. The
    copies of one story (keys in the order they were found, as ``group_same_story`` gives
    them), the one that counts first: the most authoritative publisher's (an official
    record, a wire service, an established newsroom, the subject's own statement, then any
    other class), and among equals the first found. ``mark_same_story`` keeps the first of
    them; the research step reads them in this order and stops at the first that gives
    admitted evidence, so it never pays to read a copy whose items would be excluded."""
    position = {key: index for index, key in enumerate(story)}
    return sorted(story, key=lambda key: (_KEEPING_RANK.get(source_class.get(key), _OTHER_CLASS_RANK), position[key]))


def mark_same_story(items: Sequence[EvidenceItem], texts: dict[str, str]) -> list[EvidenceItem]:
    """[R] "The same story copied on several sites counts once." Pages (by snapshot id) whose
    texts are near-duplicates form one story; the most authoritative page keeps its items,
    the others' items are excluded with ``same_story_as`` naming the kept page."""
    admitted_pages = {item.snapshot_id for item in items if not item.excluded}
    ordered = [sid for sid in dict.fromkeys(item.snapshot_id for item in items) if sid in admitted_pages]
    class_of: dict[str, SourceClass | None] = {
        item.snapshot_id: item.source_class for item in items if item.snapshot_id in admitted_pages
    }
    groups = group_same_story({sid: texts.get(sid, "") for sid in ordered})
    keeper_of: dict[str, str] = {}
    for group in groups:
        keeper = copies_in_keeping_order(group, class_of)[0]
        for sid in group:
            if sid != keeper:
                keeper_of[sid] = keeper
    out: list[EvidenceItem] = []
    for item in items:
        kept_page = keeper_of.get(item.snapshot_id)
        if kept_page is not None and not item.excluded:
            item = item.model_copy(
                update={
                    "excluded": True,
                    "exclusion_reason": f"same story as page {kept_page}: counts once",
                    "same_story_as": kept_page,
                }
            )
        out.append(item)
    return out
