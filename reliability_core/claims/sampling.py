"""Step 5, second half: choose the claims to research by a seeded rule ([M] step 5).

"Only resolvable claims are researched. Up to 25 per type are chosen, spread
across documents, by a seeded rule. Everything not researched is still counted
and shown." Every claim gets a ``SampleMembership`` row, chosen or not, with
its triage state and the reason.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

from reliability_core.constants import SAMPLE_CAP_PER_TYPE
from reliability_core.ids import sha256_hex
from reliability_core.models.base import CLAIM_TYPES, ClaimType
from reliability_core.models.claims import Claim, SampleMembership

_SEED_HEX_DIGITS = 15  # < 2**60: fits a signed 64-bit Parquet column


def derive_claim_seed(subject_id: str, method_version: str) -> int:
    """[M] "by a seeded rule": the seed is derived from the subject and the method
    version (as for document selection), so the same inputs give the same sample
    and a new method version draws a new one."""
    return int(sha256_hex(f"claim-sample\0{subject_id}\0{method_version}")[:_SEED_HEX_DIGITS], 16)


def sampling_eligibility(claim: Claim) -> tuple[bool, str]:
    """Whether a claim may be sampled, and why not: [M] "Only resolvable claims are
    researched"; party-political claims are "counted but never scored"; a quote
    that failed the mechanical check is "never shown as verified", so it is not
    researched as if it were the subject's words; nor is a claim whose restatement
    says more than its quote ([#15] rule 4)."""
    if claim.triage != "resolvable_now":
        return False, f"not sampled: triage {claim.triage} ({claim.triage_reason})"
    if claim.party_political:
        return False, "not sampled: party-political, counted but never scored"
    if not claim.quote_verified:
        return False, "not sampled: the quote was not found word for word in the stored page"
    if not claim.restatement_verified:
        # [#15] rule 4: "kept and counted, and not sampled, exactly like an unverified quote".
        return False, f"not sampled: {claim.restatement_note or 'restatement unverified'}"
    return True, "eligible"


def _spread_across_documents(
    claims: Sequence[Claim], rng: random.Random, cap: int
) -> list[tuple[Claim, int]]:
    """Seeded round-robin over documents: documents in a seeded order, claims within
    each document in a seeded order; one claim per document per round until ``cap``.
    Returns (claim, round) pairs in the order chosen."""
    by_document: dict[str, list[Claim]] = defaultdict(list)
    for claim in sorted(claims, key=lambda c: c.id):
        by_document[claim.document_id].append(claim)
    documents = sorted(by_document)
    rng.shuffle(documents)
    for document_id in documents:
        rng.shuffle(by_document[document_id])
    chosen: list[tuple[Claim, int]] = []
    round_number = 0
    while len(chosen) < cap and any(by_document[d] for d in documents):
        for document_id in documents:
            queue = by_document[document_id]
            if queue and len(chosen) < cap:
                chosen.append((queue.pop(0), round_number))
        round_number += 1
    return chosen


def sample_claims(
    claims: Sequence[Claim], seed: int, cap: int = SAMPLE_CAP_PER_TYPE
) -> list[SampleMembership]:
    """[M] step 5: "Up to 25 per type are chosen, spread across documents, by a
    seeded rule. Everything not researched is still counted and shown."

    One membership per claim: sampled claims in chosen order (``position`` from 1
    within the type), then the rest by claim id with the reason they were not
    chosen. The input order does not matter."""
    memberships: list[SampleMembership] = []
    for claim_type in CLAIM_TYPES:
        of_type = sorted((c for c in claims if c.claim_type == claim_type), key=lambda c: c.id)
        eligible = [c for c in of_type if sampling_eligibility(c)[0]]
        rng = random.Random(f"{seed}:{claim_type}")
        chosen = _spread_across_documents(eligible, rng, cap)
        documents = len({c.document_id for c in eligible})
        chosen_ids = set()
        for position, (claim, round_number) in enumerate(chosen, start=1):
            chosen_ids.add(claim.id)
            memberships.append(
                _membership(
                    claim,
                    claim_type,
                    seed,
                    sampled=True,
                    position=position,
                    reason=(
                        f"chosen in round {round_number + 1} of a seeded round-robin over "
                        f"{documents} document(s) with eligible {claim_type} claims"
                    ),
                )
            )
        for claim in of_type:
            if claim.id in chosen_ids:
                continue
            eligible_flag, why = sampling_eligibility(claim)
            reason = why if not eligible_flag else f"not sampled: over the cap of {cap} {claim_type} claims"
            memberships.append(
                _membership(claim, claim_type, seed, sampled=False, position=None, reason=reason)
            )
    return memberships


def _membership(
    claim: Claim, claim_type: ClaimType, seed: int, *, sampled: bool, position: int | None, reason: str
) -> SampleMembership:
    return SampleMembership(
        claim_id=claim.id,
        subject_id=claim.subject_id,
        claim_type=claim_type,
        triage=claim.triage,
        sampled=sampled,
        position=position,
        seed=seed,
        reason=reason,
        method_version=claim.method_version,
    )

