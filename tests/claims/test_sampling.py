"""[M] step 5 sampling: up to 25 per type, spread across documents, by a seeded
rule; everything not chosen still has a membership with its state."""

from __future__ import annotations

from collections import Counter

from reliability_core.claims.sampling import derive_claim_seed, sample_claims
from reliability_core.constants import SAMPLE_CAP_PER_TYPE
from reliability_core.models import Claim
from tests.claims.claim_builders import make_claim

SEED = derive_claim_seed("northwind", "0.1.0+test")


def _many(per_document: dict[str, int], claim_type: str = "factual") -> list[Claim]:
    claims = []
    for document, count in per_document.items():
        claims += [make_claim(i, document=document, claim_type=claim_type) for i in range(count)]  # type: ignore[arg-type]
    return claims


def test_at_most_25_per_type_are_sampled_and_every_claim_has_a_membership() -> None:
    claims = _many({"a": 20, "b": 20}) + _many({"a": 30}, "promise") + _many({"c": 3}, "prediction")
    memberships = sample_claims(claims, SEED)
    assert len(memberships) == len(claims)
    assert {m.claim_id for m in memberships} == {c.id for c in claims}
    sampled = Counter(m.claim_type for m in memberships if m.sampled)
    assert sampled == {"factual": SAMPLE_CAP_PER_TYPE, "promise": SAMPLE_CAP_PER_TYPE, "prediction": 3}
    over_cap = [m for m in memberships if not m.sampled]
    assert all("over the cap of 25" in m.reason for m in over_cap)


def test_sample_is_spread_across_documents_by_round_robin() -> None:
    claims = _many({"a": 40, "b": 3, "c": 2, "d": 1})
    chosen = {m.claim_id for m in sample_claims(claims, SEED) if m.sampled}
    by_document = Counter(c.document_id for c in claims if c.id in chosen)
    # Every claim of the small documents is taken before the big one fills the rest.
    assert by_document == {"a": 19, "b": 3, "c": 2, "d": 1}


def test_first_round_takes_one_claim_from_each_document() -> None:
    claims = _many({"a": 5, "b": 5, "c": 5})
    first_round = [
        m for m in sample_claims(claims, SEED) if m.sampled and m.position is not None and m.position <= 3
    ]
    documents = {c.id: c.document_id for c in claims}
    assert sorted(documents[m.claim_id] for m in first_round) == ["a", "b", "c"]


def test_same_seed_gives_the_same_sample_whatever_the_input_order() -> None:
    claims = _many({"a": 30, "b": 30})
    first = sample_claims(claims, SEED)
    second = sample_claims(list(reversed(claims)), SEED)
    assert first == second


def test_a_different_seed_gives_a_different_sample() -> None:
    claims = _many({"a": 30, "b": 30, "c": 30})
    chosen = {m.claim_id for m in sample_claims(claims, SEED) if m.sampled}
    other = {
        m.claim_id for m in sample_claims(claims, derive_claim_seed("northwind", "0.1.1+other")) if m.sampled
    }
    assert chosen != other


def test_claim_seed_is_stable_and_depends_on_subject_and_method_version() -> None:
    assert derive_claim_seed("northwind", "0.1.0+a") == derive_claim_seed("northwind", "0.1.0+a")
    assert derive_claim_seed("northwind", "0.1.0+a") != derive_claim_seed("givewell", "0.1.0+a")
    assert derive_claim_seed("northwind", "0.1.0+a") != derive_claim_seed("northwind", "0.1.0+b")
    assert 0 <= derive_claim_seed("northwind", "0.1.0+a") < 2**63


def test_only_resolvable_verified_non_party_political_claims_are_sampled_and_the_rest_keep_their_state() -> (
    None
):
    not_due = make_claim(1, triage="not_yet_due", claim_type="promise")
    vague = make_claim(2, triage="never_resolvable")
    internal = make_claim(3, triage="own_records_only")
    political = make_claim(4, party_political=True)
    unverified = make_claim(5, quote_verified=False)
    good = make_claim(6)
    memberships = {
        m.claim_id: m for m in sample_claims([not_due, vague, internal, political, unverified, good], SEED)
    }
    assert [cid for cid, m in memberships.items() if m.sampled] == [good.id]
    assert memberships[not_due.id].triage == "not_yet_due"
    assert "not_yet_due" in memberships[not_due.id].reason
    assert "party-political" in memberships[political.id].reason
    assert "word for word" in memberships[unverified.id].reason
    assert memberships[internal.id].triage == "own_records_only"

