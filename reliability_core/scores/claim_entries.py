"""One claim as the report lists it ([#8] "every claim", with its whole trail: quote,
source, criteria, evidence, both judges, gate, responses, rulings).

Presentation only: what each entry shows, and what a held verdict hides. The scores are
assembled in ``report``; an entry takes the verdict after the rulings were applied
(``rulings.apply_rulings``) and says whether and why the claim is scored
(``scoring.reason_not_scored``), so the list and the scores always agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reliability_core.models import (
    Claim,
    ClaimVerdict,
    EvidenceItem,
    JudgeVerdict,
    ResolutionCriteria,
    SampleMembership,
    StewardRuling,
    SubjectResponse,
)
from reliability_core.scores.rulings import ordered_rulings
from reliability_core.scores.scoring import reason_not_scored, verdict_value

RESPONSE_STATUS = "response received, not yet reviewed"
HELD_VERDICT = "held"


def _judge_entry(judge: JudgeVerdict | None, shown: bool) -> dict[str, object] | None:
    if judge is None:
        return None
    entry: dict[str, object] = {
        "judge": judge.judge_id,
        "provider": judge.provider,
        "model": judge.model,
        "decided_at": judge.decided_at.isoformat(),
    }
    if shown:
        entry.update(
            {
                "verdict": judge.verdict,
                "confidence": judge.confidence,
                "basis": judge.basis,
                "rationale": judge.rationale,
                "cited_evidence_ids": sorted(judge.cited_evidence_ids),
            }
        )
    else:
        entry["verdict"] = HELD_VERDICT
    return entry


def _criteria_entry(criteria: ResolutionCriteria | None) -> dict[str, object] | None:
    if criteria is None:
        return None
    return {
        "id": criteria.id,
        "levels": criteria.levels.model_dump(mode="json"),
        "judge_at": criteria.judge_at.isoformat(),
        "numeric": criteria.numeric.model_dump(mode="json") if criteria.numeric else None,
        "written_at": criteria.written_at.isoformat(),
        "written_by": criteria.written_by,
        "content_hash": criteria.content_hash,
    }


def _evidence_entry(item: EvidenceItem) -> dict[str, object]:
    return {
        "id": item.id,
        "url": item.url,
        "final_url": item.final_url,
        "publisher": item.publisher,
        "source_class": item.source_class,
        "independent": item.independent,
        "published_date": item.published_date.isoformat() if item.published_date else None,
        "side": item.side,
        "stance": item.stance,
        "quote": item.quote,
        "quote_verified": item.quote_verified,
        "fetch_sha256": item.snapshot_sha256,
        "fetched_at": item.fetched_at.isoformat(),
        "excluded": item.excluded,
        "exclusion_reason": item.exclusion_reason,
    }


def claim_entry(
    claim: Claim,
    *,
    membership: SampleMembership | None,
    criteria: ResolutionCriteria | None,
    evidence: Sequence[EvidenceItem],
    verdict: ClaimVerdict | None,
    responses: Sequence[SubjectResponse],
    rulings: Sequence[StewardRuling],
) -> dict[str, object]:
    """One claim as the report lists it ([#8] "every claim"): quote with its verified flag,
    source link, restatement, type, triage, sample membership, criteria with their
    written-at time, evidence with source class and fetch hash, both judges' verdicts,
    basis, gate outcome, subject responses ("response received, not yet reviewed") and
    steward rulings. A verdict a display gate held is shown as "held", never its value."""
    sampled = membership is not None and membership.sampled
    shown = verdict is not None and verdict.gate.shown
    not_scored = reason_not_scored(claim, sampled, verdict)
    entry: dict[str, object] = {
        "claim_id": claim.id,
        "document_id": claim.document_id,
        "source_url": claim.url,
        "quote": claim.quote,
        "quote_verified": claim.quote_verified,
        "restatement": claim.restatement,
        "claim_type": claim.claim_type,
        "made_on": claim.made_on.isoformat() if claim.made_on else None,
        "deadline": claim.deadline.isoformat() if claim.deadline else None,
        "stated_probability": claim.stated_probability,
        "probability_kind": claim.probability_kind,
        "party_political": claim.party_political,
        "harm_to_person": claim.harm_to_person,
        "classifier_overruled": list(claim.classifier_overruled),
        "triage": claim.triage,
        "triage_reason": claim.triage_reason,
        "sampled": sampled,
        "sample_reason": membership.reason if membership else "",
        "scored": not_scored is None,
        "not_scored_reason": not_scored,
        "value": verdict_value(verdict.verdict) if verdict is not None and not_scored is None else None,
        "criteria": _criteria_entry(criteria),
        "evidence": [_evidence_entry(e) for e in sorted(evidence, key=lambda e: e.id)],
        "verdict": None,
        "judge_a": None,
        "judge_b": None,
        "judges_disagree": False,
        "basis": None,
        "self_reported_only": False,
        "gate": None,
        "responses": [response_entry(r) for r in sorted(responses, key=lambda r: (r.received_at, r.id))],
        "steward_rulings": [
            {
                "id": r.id,
                "action": r.action,
                "steward": r.steward,
                "ruled_at": r.ruled_at.isoformat(),
                "reason": r.reason,
                "new_verdict": r.new_verdict,
            }
            for r in ordered_rulings(rulings)
        ],
    }
    if verdict is not None:
        entry.update(
            {
                "verdict": verdict.verdict if shown else HELD_VERDICT,
                "judge_a": _judge_entry(verdict.judge_a, shown),
                "judge_b": _judge_entry(verdict.judge_b, shown),
                "judges_disagree": verdict.judges_disagree,
                "basis": verdict.basis if shown else None,
                "self_reported_only": verdict.self_reported_only,
                "gate": verdict.gate.model_dump(mode="json"),
                "verdict_reason": verdict.reason if shown else "",
                "model_failure": verdict.model_failure,
            }
        )
    return entry


def response_entry(response: SubjectResponse) -> dict[str, object]:
    """A subject response as a claim lists it: "response received, not yet reviewed"."""
    return {
        "id": response.id,
        "body": response.body,
        "received_at": response.received_at.isoformat(),
        "status": RESPONSE_STATUS,
    }


def with_responses(entry: Mapping[str, object], responses: Sequence[SubjectResponse]) -> dict[str, object]:
    """The claim entry with every subject response to it, those stored since the report was
    built included ("a subject response shows on the claim wherever the claim is shown"):
    the entry's own responses plus any of ``responses`` on this claim it lacks, oldest first."""
    listed = entry.get("responses")
    known = [r for r in listed if isinstance(r, dict)] if isinstance(listed, list) else []
    ids = {r.get("id") for r in known}
    later = [r for r in responses if r.claim_id == entry.get("claim_id") and r.id not in ids]
    if not later:
        return dict(entry)
    merged = [*known, *(response_entry(r) for r in later)]
    merged.sort(key=lambda r: (str(r.get("received_at")), str(r.get("id"))))
    return {**entry, "responses": merged}
