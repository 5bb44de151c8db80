"""Routine, checkable statements added to every document in which a subject speaks.

A quick report keeps only 8 documents, chosen by a seeded rule, so every document
must carry enough checkable claims of each type for a score ([M] step 9 needs at
least 5 checked claims per type). Each subject's ``enrichment`` gives, for a document
dated D, a few statements about figures of a yearly series: a past figure (factual),
expectations for the current or next year (predictions, one with an exact stated
probability) and a target with a date (promise). Every deadline has passed by the
demo's "now"; every figure is stated on dated evidence pages from at least two
independent publishers (one of them a wire service or an official record).

Labels follow the method's numeric bands (``numeric_verdict``): a bound that holds
is true; a miss is graded by how far the figure falls short of the bound.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from corpus_world.model import Ask, Block, Doc, Narr, Own, Said, SaidColon, St, Told

ROUTINE_NOTE = (
    "Routine figure added so that any 8-document sample can be scored (tools/corpus_world/enrich.py)."
)
# A neutral paragraph kept between a private-life remark and the appended figures, so a
# search snippet (about 32 words around the words searched for) that quotes the figures
# does not also quote the private remark.
SEPARATOR = (
    "The rest of the discussion was about figures, which the editors have checked "
    "against the published accounts and which are set out below in the order in which they came up."
)
LAST_YEAR = 2025  # the last full year before the demo's "now" (2026-11-30)


def numeric_verdict(actual: float, bound: float) -> str:
    """Verdict of "more than / at least BOUND" given the recorded figure: true when it
    holds, else graded by the shortfall as a share of the bound (5% / 15% / 35%), as in
    the criteria the offline rules write."""
    if actual >= bound:
        return "true"
    miss = (bound - actual) / bound
    if miss <= 0.05:
        return "mostly_true"
    if miss <= 0.15:
        return "mixed"
    if miss <= 0.35:
        return "mostly_false"
    return "false"


def target_year(published: str) -> int:
    """The year a document's expectations are about: the current year in its first half,
    else the next one; never later than the last full year (so the deadline has passed)."""
    year, month = int(published[:4]), int(published[5:7])
    return min(year if month <= 6 else year + 1, LAST_YEAR)


def bound_for(actual: float, miss: bool, decimals: int = 1) -> float:
    """A bound the figure clears (90% of it), or one it misses by far (170% of it)."""
    value = actual * (1.7 if miss else 0.9)
    return round(value, decimals)


def fmt(value: float, decimals: int = 1) -> str:
    return f"{value:.{decimals}f}"


def _subject_name(doc: Doc, aliases: tuple[str, ...]) -> tuple[str, str] | None:
    """The name (and role) under which the subject speaks in a news report or interview:
    the attribution of the page's first statement by the subject (a registry alias, or
    the form the page uses, "Northwind chief executive Freja Lund")."""
    for block in doc.blocks:
        if isinstance(block, Said) and block.st.speaker is None:
            return block.name, block.role
        if isinstance(block, (SaidColon, Told)) and block.st.speaker is None:
            return block.name, ""
        if isinstance(block, Ask) and (block.name in aliases or all(st.speaker is None for st in block.sts)):
            return block.name, ""
    return None


def _existing_texts(doc: Doc) -> set[str]:
    texts: set[str] = set()
    for block in doc.blocks:
        if isinstance(block, (Said, SaidColon, Told)):
            texts.add(block.st.text)
        elif isinstance(block, (Own, Ask)):
            texts.update(st.text for st in block.sts)
    return texts


def attach(doc: Doc, sts: tuple[St, ...], aliases: tuple[str, ...], question: str) -> Doc:
    """Append ``sts`` in the document's own form: first person in the subject's own
    documents, an interview answer, or quoted with attribution in a news report."""
    seen = _existing_texts(doc)
    sts = tuple(replace(st, note=st.note or ROUTINE_NOTE) for st in sts if st.text not in seen)
    if not sts:
        return doc
    blocks: tuple[Block, ...]
    if doc.kind == "subject_own":
        blocks = (Own(sts),)
    else:
        found = _subject_name(doc, aliases)
        if found is None:
            return doc
        name, role = found
        if doc.kind == "interview":
            blocks = (Ask(question, name, sts),)
        else:
            blocks = tuple(Said(st, name, role) for st in sts)
    if _has_private_life(doc):
        blocks = (Narr(SEPARATOR), *blocks)
    return replace(doc, blocks=doc.blocks + blocks)


def _has_private_life(doc: Doc) -> bool:
    sts = [b.st for b in doc.blocks if isinstance(b, (Said, SaidColon, Told))]
    sts += [st for b in doc.blocks if isinstance(b, (Own, Ask)) for st in b.sts]
    return any(st.drop == "private_life" for st in sts)


def enrich(
    docs: list[Doc],
    statements_for: Callable[[Doc, int], tuple[St, ...]],
    aliases: tuple[str, ...],
    question: str,
) -> list[Doc]:
    """Every speaking document with its routine statements appended (the n-th document
    gets ``statements_for(doc, n)``, so a few bounds are deliberately missed)."""
    out = []
    n = 0
    for doc in docs:
        if doc.speaks and doc.published:
            out.append(attach(doc, statements_for(doc, n), aliases, question))
            n += 1
        else:
            out.append(doc)
    return out
