"""The evidence a verdict may rest on, and what it rests on ([M] step 8, [#15] "compute the
usable, verified evidence once and hand that view to every gate").

A judging concept, not a research one: the research step (``evidence``) stores every item
it found, excluded ones with their reasons; the judges' input (``judge_input``), the code
rules over their proposals (``verdict_rules``) and the display gates (``gates``) all read
this one view of it. It lives apart from the research step so that judging and the gates
never import the research.
"""

from __future__ import annotations

from collections.abc import Sequence

from reliability_core.models.base import Basis, Record
from reliability_core.models.verdicts import EvidenceItem
from reliability_core.verdicts.sources import is_reliable_class


def usable_evidence(evidence: Sequence[EvidenceItem]) -> list[EvidenceItem]:
    """[#7] "unverified quotes are never given to a judge"; excluded items (own source,
    copies, repeats, rejected classes, forecasts, second copies of a story) never count."""
    return [item for item in evidence if item.quote_verified and not item.excluded]


class UsableEvidence(Record):
    """The verified, admitted evidence of one claim, computed once by ``usable_view`` and
    handed to the judges' input, every code rule and every display gate ([#15] "compute the
    usable, verified evidence once and hand that view to every gate"). Holding this type is
    the proof that the filtering was done: nothing downstream filters again."""

    items: list[EvidenceItem]

    def by_ids(self, ids: Sequence[str]) -> list[EvidenceItem]:
        """The items with these ids, in the order of ``ids`` (unknown ids are skipped)."""
        index = {item.id: item for item in self.items}
        return [index[i] for i in dict.fromkeys(ids) if i in index]

    def __bool__(self) -> bool:
        return bool(self.items)


def usable_view(evidence: Sequence[EvidenceItem] | UsableEvidence) -> UsableEvidence:
    """The one place the usable evidence of a claim is computed (``usable_evidence``)."""
    if isinstance(evidence, UsableEvidence):
        return evidence
    return UsableEvidence(items=usable_evidence(evidence))


def basis_of_evidence(evidence: Sequence[EvidenceItem]) -> Basis:
    """[M] step 8: "Every verdict records what it rests on: an independent source, only the
    subject's official records, only its ordinary statements, or nothing". Over the items given:
    every caller hands it items of the claim's ``UsableEvidence`` view, already filtered."""
    items = list(evidence)
    if any(is_reliable_class(item.source_class) and not item.subject_own for item in items):
        return "independent_source"
    if any(item.subject_own and item.source_class == "official_record" for item in items):
        return "official_records_only"
    if any(item.source_class == "subject_ordinary_statement" for item in items):
        return "ordinary_statements_only"
    return "nothing"
