"""Step 3 of the method: select documents by rule.

"Select documents by rule. No model chooses. Years are taken in a spread order
(newest, oldest, then the middle of the largest gap), with a seeded random
choice within each year. Some slots are reserved for forward-looking documents
(plans, reviews of plans, forecasts), so that promises and predictions reach
the sample. A quick report keeps 8 documents, 3 of them forward-looking. A
document counts only if it contains statements by the subject."

The functions here are pure: the same candidates, seed and statement checks
always give the same sample, on any machine.

How the pieces fit:

1. ``derive_seed(subject_id, method_version)`` gives the seed.
2. ``rank_documents(candidates, seed)`` gives the FULL ordered ranking. Its first
   ``total`` entries are the initial sample; the rest is the order in which
   replacements are drawn.
3. The pipeline extracts statements from the documents that
   ``next_documents_to_check(ranking, checked)`` names, until it names none.
4. ``finalise_sample(ranking, checked)`` gives the final sample, with every
   replacement recorded.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from reliability_core.constants import QUICK_REPORT_DOCUMENTS, QUICK_REPORT_FORWARD_LOOKING
from reliability_core.models import CandidateDocument, DocumentSelection

_UNKNOWN_YEAR = "year unknown"


def derive_seed(subject_id: str, method_version: str) -> int:
    """ "The seed is derived from the subject and the method version, so the same
    inputs give the same sample."

    The first 8 bytes of SHA-256 over ``subject_id`` and ``method_version``
    (separated by a newline), read as a big-endian integer with the top bit
    cleared, so the seed fits the signed 64-bit column it is stored in.
    """
    digest = hashlib.sha256(f"{subject_id}\n{method_version}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & 0x7FFF_FFFF_FFFF_FFFF


def spread_year_order(years: Iterable[int]) -> list[int]:
    """ "Years are taken in a spread order (newest, oldest, then the middle of the
    largest gap)."

    The distinct years are ordered: the newest, then the oldest, then repeatedly
    the year closest to the middle of the largest remaining gap between two
    years already taken, until every year is taken.

    Tie-breaking (fixed, so the order is a pure function of the years):

    * a gap's size is the difference in calendar years between its two ends;
      only gaps that still contain an available year count;
    * when two gaps are equally large, the newer gap is split first (recent
      output is more relevant to the subject's current reliability);
    * when two available years are equally close to the middle of the gap,
      the newer one is taken.
    """
    remaining = sorted(set(years))
    if not remaining:
        return []
    order = [remaining.pop()]  # newest
    if remaining:
        order.append(remaining.pop(0))  # oldest
    while remaining:
        taken = sorted(order)
        best: tuple[int, int, int] | None = None  # (size, low end, chosen year)
        for low, high in pairwise(taken):
            inside = [y for y in remaining if low < y < high]
            if not inside:
                continue
            middle = (low + high) / 2
            chosen = min(inside, key=lambda y: (abs(y - middle), -y))
            key = (high - low, low, chosen)
            if best is None or key[:2] > best[:2]:
                best = key
        # Every remaining year lies strictly between the oldest and newest taken.
        assert best is not None
        order.append(best[2])
        remaining.remove(best[2])
    return order


def order_by_year_spread(
    candidates: Sequence[CandidateDocument], rng: random.Random
) -> list[CandidateDocument]:
    """ "Years are taken in a spread order ..., with a seeded random choice within
    each year."

    Documents are dealt in rounds: each round takes one document from every year
    that still has one, years in ``spread_year_order``; within a year the
    document is a seeded random choice. Documents with no known year come after
    all dated ones, in seeded random order. The input order does not matter
    (documents are sorted by id before any random choice).
    """
    by_year: dict[int, list[CandidateDocument]] = {}
    undated: list[CandidateDocument] = []
    for doc in sorted(candidates, key=lambda d: d.id):
        if doc.year is None:
            undated.append(doc)
        else:
            by_year.setdefault(doc.year, []).append(doc)
    # Shuffle each year once, in a fixed year order, so the choice within a
    # year does not depend on which other years exist.
    for year in sorted(by_year):
        rng.shuffle(by_year[year])
    rng.shuffle(undated)
    years = spread_year_order(by_year)
    ordered: list[CandidateDocument] = []
    round_index = 0
    while len(ordered) < sum(len(docs) for docs in by_year.values()):
        for year in years:
            if round_index < len(by_year[year]):
                ordered.append(by_year[year][round_index])
        round_index += 1
    return ordered + undated


@dataclass(frozen=True)
class _Ranked:
    doc: CandidateDocument
    slot: str  # "forward_looking" or "spread"
    pool_position: int  # position within its pool's order, for the reason


def _pool_rng(seed: int, pool: str) -> random.Random:
    # One generator per pool, so the forward-looking order does not shift the
    # general order and vice versa. String seeds are hashed with SHA-512 by
    # ``random`` (version 2), independent of PYTHONHASHSEED.
    return random.Random(f"{seed}/{pool}")


def reserved_forward_looking_slots(available_forward_looking: int, forward_looking: int) -> int:
    """ "Some slots are reserved for forward-looking documents ... A quick report
    keeps 8 documents, 3 of them forward-looking."

    How many of the reserved slots can be filled: at most ``forward_looking``,
    and no more than there are forward-looking documents. Unused reserved slots
    go to the general pool (the sample keeps its size).
    """
    return max(0, min(forward_looking, available_forward_looking))


def rank_documents(
    candidates: Sequence[CandidateDocument],
    seed: int,
    total: int = QUICK_REPORT_DOCUMENTS,
    forward_looking: int = QUICK_REPORT_FORWARD_LOOKING,
    *,
    method_version: str | None = None,
) -> list[DocumentSelection]:
    """ "No model chooses. Years are taken in a spread order ..., with a seeded
    random choice within each year. Some slots are reserved for forward-looking
    documents."

    Returns every candidate, in rank order (``position`` 1, 2, ...). The first
    ``total`` are the initial sample:

    * reserved slots (``slot="forward_looking"``) filled from the forward-looking
      documents by year spread and seeded choice;
    * the remaining slots (``slot="spread"``) filled from all other documents by
      year spread and seeded choice. When there are too few forward-looking
      documents, the unused reserved slots go to this general pool.

    After the sample come the remaining documents in the general order: that is
    the order in which replacements are drawn. ``method_version`` defaults to
    the candidates' own.
    """
    if total < 0 or forward_looking < 0 or forward_looking > total:
        raise ValueError(f"bad sample shape: total={total}, forward_looking={forward_looking}")
    if not candidates:
        return []
    version = method_version or candidates[0].method_version
    fl_docs = [d for d in candidates if d.forward_looking]
    fl_order = order_by_year_spread(fl_docs, _pool_rng(seed, "forward_looking"))
    reserved = reserved_forward_looking_slots(len(fl_order), forward_looking)
    reserved_docs = fl_order[:reserved]
    reserved_ids = {d.id for d in reserved_docs}
    general_order = order_by_year_spread(
        [d for d in candidates if d.id not in reserved_ids], _pool_rng(seed, "general")
    )
    ranked = [_Ranked(d, "forward_looking", i + 1) for i, d in enumerate(reserved_docs)]
    ranked += [_Ranked(d, "spread", i + 1) for i, d in enumerate(general_order)]
    unused_reserved = forward_looking - reserved
    selections: list[DocumentSelection] = []
    for position, item in enumerate(ranked, start=1):
        in_sample = position <= total
        selections.append(
            DocumentSelection(
                method_version=version,
                subject_id=item.doc.subject_id,
                document_id=item.doc.id,
                url=item.doc.url,
                position=position,
                slot="forward_looking" if item.slot == "forward_looking" else "spread",
                year=item.doc.year,
                seed=seed,
                reason=_rank_reason(item, in_sample, unused_reserved),
                forward_looking=item.doc.forward_looking,
            )
        )
    return selections


def _rank_reason(item: _Ranked, in_sample: bool, unused_reserved: int) -> str:
    year = str(item.doc.year) if item.doc.year is not None else _UNKNOWN_YEAR
    if item.slot == "forward_looking":
        return (
            f"reserved forward-looking slot: forward-looking document {item.pool_position} "
            f"in year-spread order ({year}), seeded choice within its year"
        )
    where = "general slot" if in_sample else "reserve for replacements"
    extra = (
        f"; {unused_reserved} reserved forward-looking slot(s) unused for lack of forward-looking "
        f"documents went to the general pool"
        if unused_reserved and in_sample
        else ""
    )
    return f"{where}: document {item.pool_position} in year-spread order ({year}), seeded choice within its year{extra}"


@dataclass(frozen=True)
class _Fill:
    sample: list[DocumentSelection]
    unknown: list[DocumentSelection]


def _fill_sample(
    ranking: Sequence[DocumentSelection], has_subject_statements: Mapping[str, bool], total: int
) -> _Fill:
    """Walk the ranking slot by slot; stop a slot's search at the first document
    not yet checked (its answer decides what follows)."""
    initial = list(ranking[:total])
    reserve = list(ranking[total:])
    used: set[str] = {s.document_id for s in initial}
    sample: list[DocumentSelection] = []
    unknown: list[DocumentSelection] = []

    def checked(sel: DocumentSelection) -> bool | None:
        return has_subject_statements.get(sel.document_id)

    for sel in initial:
        verdict = checked(sel)
        if verdict is None:
            unknown.append(sel)
            continue
        if verdict:
            sample.append(
                sel.model_copy(update={"has_subject_statements": True, "position": len(sample) + 1})
            )
            continue
        replacement, pending = replacement_for(sel, reserve, used, has_subject_statements)
        if pending is not None:
            unknown.append(pending)
            continue
        if replacement is None:
            continue  # nothing left: the sample is smaller, and says so in its length
        used.add(replacement.document_id)
        year = str(replacement.year) if replacement.year is not None else _UNKNOWN_YEAR
        sample.append(
            replacement.model_copy(
                update={
                    "has_subject_statements": True,
                    "position": len(sample) + 1,
                    "slot": "replacement",
                    "reason": (
                        f"replacement for {sel.document_id} ({sel.slot} slot, position {sel.position}), which "
                        f"contains no statements by the subject: next document by the same rule "
                        f"(ranking position {replacement.position}, {year}"
                        f"{', forward-looking' if replacement.forward_looking else ''})"
                    ),
                }
            )
        )
    return _Fill(sample=sample, unknown=_unique(unknown))


def replacement_for(
    dropped: DocumentSelection,
    reserve: Sequence[DocumentSelection],
    used: set[str],
    has_subject_statements: Mapping[str, bool],
) -> tuple[DocumentSelection | None, DocumentSelection | None]:
    """ "A document counts only if it contains statements by the subject; when one
    does not, the next document by the same rule takes its place."

    The replacement is the first unused document in ranking order after the
    sample that contains statements by the subject. For a forward-looking slot
    the next forward-looking document is preferred; only when no forward-looking
    document with statements is left does the slot take the next document of any
    kind. Returns ``(replacement, None)``, or ``(None, doc)`` when ``doc`` must
    be checked for statements before the choice can be made, or ``(None, None)``
    when nothing is left.
    """
    passes: list[Sequence[DocumentSelection]] = []
    if dropped.slot == "forward_looking":
        passes.append([s for s in reserve if s.forward_looking])
    passes.append(reserve)
    for candidates in passes:
        for sel in candidates:
            if sel.document_id in used:
                continue
            verdict = has_subject_statements.get(sel.document_id)
            if verdict is None:
                return None, sel
            if verdict:
                return sel, None
    return None, None


def _unique(items: Iterable[DocumentSelection]) -> list[DocumentSelection]:
    seen: set[str] = set()
    out: list[DocumentSelection] = []
    for item in items:
        if item.document_id not in seen:
            seen.add(item.document_id)
            out.append(item)
    return out


def next_documents_to_check(
    ranking: Sequence[DocumentSelection],
    has_subject_statements: Mapping[str, bool],
    total: int = QUICK_REPORT_DOCUMENTS,
) -> list[DocumentSelection]:
    """The documents whose statements must be extracted before the sample can be
    finalised: the unchecked ones in the initial sample, and for each dropped
    document the next unchecked candidate replacement. Empty when the sample is
    decided."""
    return _fill_sample(ranking, has_subject_statements, total).unknown


def finalise_sample(
    ranking: Sequence[DocumentSelection],
    has_subject_statements: Mapping[str, bool],
    total: int = QUICK_REPORT_DOCUMENTS,
) -> list[DocumentSelection]:
    """ "A document counts only if it contains statements by the subject; when one
    does not, the next document by the same rule takes its place."

    The final sample, positions 1..n (n is ``total`` unless the candidates run
    out). Documents kept from the initial sample keep their slot and reason; a
    replacement has ``slot="replacement"`` and a reason naming the document it
    replaces. Raises ``ValueError`` when a document the rule needs has not been
    checked yet (call ``next_documents_to_check`` first): that is a bug in the
    caller, not an outcome.
    """
    fill = _fill_sample(ranking, has_subject_statements, total)
    if fill.unknown:
        missing = ", ".join(s.document_id for s in fill.unknown)
        raise ValueError(f"documents not yet checked for statements by the subject: {missing}")
    return fill.sample
