"""Steward queue and rulings ([V] §04)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from reliability_core.clock import FixedClock
from reliability_core.models import ClaimVerdict
from reliability_core.scores.rulings import apply_rulings, read_rulings
from reliability_core.stewardship.steward import (
    DRAWS_LEDGER,
    DRAWS_PARTITION,
    RulingRequest,
    StewardDraw,
    build_steward_queue,
    detection_probability,
    open_items,
    read_steward_queue,
    record_ruling,
    seeded_sample,
    store_steward_queue,
)
from reliability_core.warehouse import Ledger, Warehouse
from tests.validation.fakes import DECIDED, claim_verdict


def _verdicts() -> list[ClaimVerdict]:
    out = [
        claim_verdict("disputed-1", "true", judge_b="false"),
        claim_verdict("numeric-1", "true", numeric_disputed=True),
        claim_verdict("held-1", "mostly_true", shown=False),
        claim_verdict("unresolvable-1", "unresolvable", shown=False),
        claim_verdict("steered-1", "unresolvable", shown=False, steering=True),
        claim_verdict("old-1", "true", decided_at=DECIDED - timedelta(days=8)),
    ]
    out += [
        claim_verdict(f"recent-{n:02d}", "true", decided_at=DECIDED - timedelta(days=n % 7))
        for n in range(25)
    ]
    return out


def test_queue_holds_every_disputed_and_held_claim_plus_a_tenth_of_recent_verdicts(clock: FixedClock) -> None:
    queue = build_steward_queue(_verdicts(), clock=clock, method_version="v")
    by_claim = {i.claim_id: i.reasons for i in queue.items}
    assert by_claim["disputed-1"] == ["disputed"]
    assert by_claim["numeric-1"] == ["disputed"]
    assert by_claim["held-1"] == ["held"]
    assert "unresolvable-1" not in by_claim  # no verdict to hold
    assert by_claim["steered-1"] == ["held"]  # a steering attempt always reaches the steward
    assert "old-1" not in by_claim  # outside the seven days
    assert queue.eligible_for_sample == 25
    assert queue.sampled == 3  # ceil(10% of 25)
    sampled = [c for c, r in by_claim.items() if r == ["random_sample"]]
    assert len(sampled) == 3 and all(c.startswith("recent-") for c in sampled)


def test_random_sample_is_seeded_and_order_independent(clock: FixedClock) -> None:
    verdicts = _verdicts()
    first = build_steward_queue(verdicts, clock=clock, method_version="v", seed=11)
    again = build_steward_queue(list(reversed(verdicts)), clock=clock, method_version="v", seed=11)
    other = build_steward_queue(verdicts, clock=clock, method_version="v", seed=7)
    ids = [i.claim_id for i in first.items]
    assert ids == [i.claim_id for i in again.items]
    assert ids != [i.claim_id for i in other.items]


@pytest.mark.parametrize(("k", "expected"), [(0, 0.0), (1, 0.1), (20, 0.8784233454094308)])
def test_detection_probability_is_one_minus_point_nine_to_the_k(k: int, expected: float) -> None:
    assert detection_probability(k) == pytest.approx(expected)


def test_queue_shows_detection_probability_for_twenty_faked_results(clock: FixedClock) -> None:
    queue = build_steward_queue(_verdicts(), clock=clock, method_version="v")
    assert queue.detection_probability[20] == pytest.approx(0.88, abs=0.005)


def test_queue_is_stored_per_subject_and_read_back(clock: FixedClock, warehouse: Warehouse) -> None:
    verdicts = [*_verdicts(), claim_verdict("other-1", "false", judge_b="true", subject_id="harbour-trust")]
    queue = build_steward_queue(verdicts, clock=clock, method_version="v")
    store_steward_queue(warehouse, queue)
    assert {i.claim_id for i in read_steward_queue(warehouse)} == {i.claim_id for i in queue.items}
    assert [i.claim_id for i in read_steward_queue(warehouse, "harbour-trust")] == ["other-1"]


def _request(**changes: object) -> RulingRequest:
    data: dict[str, object] = {
        "subject_id": "northwind",
        "claim_id": "disputed-1",
        "action": "resolve_for_b",
        "steward": "ada",
        "reason": "the annual report's table shows judge B read the right row",
    }
    data.update(changes)
    return RulingRequest.model_validate(data)


def test_ruling_is_stored_with_who_when_and_why(clock: FixedClock, ledger: Ledger) -> None:
    verdict = claim_verdict("disputed-1", "true", judge_b="false")
    outcome = record_ruling(ledger, _request(), verdict, clock=clock, method_version="v")
    assert outcome.accepted and outcome.ruling is not None
    stored = read_rulings(ledger, "northwind")
    assert stored == [outcome.ruling]
    assert (stored[0].steward, stored[0].ruled_at, stored[0].action) == ("ada", clock.now(), "resolve_for_b")
    assert stored[0].reason.startswith("the annual report")


def test_recorded_ruling_changes_the_verdict_used_for_the_next_score(
    clock: FixedClock, ledger: Ledger
) -> None:
    verdict = claim_verdict("disputed-1", "true", judge_b="false")
    record_ruling(ledger, _request(), verdict, clock=clock, method_version="v")
    [ruled] = apply_rulings([verdict], read_rulings(ledger, "northwind"))
    assert ruled.verdict == "false"


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"steward": " "}, "name the steward"),
        ({"reason": ""}, "say why"),
        ({"action": "overrule"}, "unknown action"),
        ({"action": "uphold", "new_verdict": "false"}, "takes no new verdict"),
        ({"action": "demote", "new_verdict": "true"}, "not a demotion"),
        ({"action": "demote", "new_verdict": "pants_on_fire"}, "unknown verdict"),
        ({"claim_id": "held-1"}, "only a disputed claim"),
    ],
)
def test_malformed_ruling_is_refused_and_not_stored(
    clock: FixedClock, ledger: Ledger, changes: dict[str, object], problem: str
) -> None:
    verdict = claim_verdict(
        str(changes.get("claim_id", "disputed-1")), "true", judge_b=None if "claim_id" in changes else "false"
    )
    outcome = record_ruling(ledger, _request(**changes), verdict, clock=clock, method_version="v")
    assert not outcome.accepted
    assert any(problem in p for p in outcome.problems)
    assert read_rulings(ledger, "northwind") == []


def test_ruling_on_a_claim_without_a_verdict_is_refused(clock: FixedClock, ledger: Ledger) -> None:
    outcome = record_ruling(ledger, _request(action="uphold"), None, clock=clock, method_version="v")
    assert not outcome.accepted and "no verdict stored" in outcome.problems[0]


def test_resolve_for_b_needs_a_judge_b_verdict(clock: FixedClock, ledger: Ledger) -> None:
    verdict = claim_verdict("disputed-1", "true", numeric_disputed=True)
    outcome = record_ruling(ledger, _request(), verdict, clock=clock, method_version="v")
    assert outcome.problems == ["there is no judge B verdict to resolve for"]


@pytest.mark.parametrize("new", ["mostly_true", "unresolvable"])
def test_demotion_to_a_lower_verdict_or_unresolvable_is_accepted(
    clock: FixedClock, ledger: Ledger, new: str
) -> None:
    # Issue 27 changed this test: a demotion without a new verdict is now refused (below),
    # and one ruling per verdict, so each demotion is tried on a fresh ledger.
    verdict = claim_verdict("held-1", "true", shown=False)
    outcome = record_ruling(
        ledger,
        _request(claim_id="held-1", action="demote", new_verdict=new),
        verdict,
        clock=clock,
        method_version="v",
    )
    assert outcome.accepted, outcome.problems


def test_a_demotion_without_a_new_verdict_is_refused_not_read_as_unresolvable(
    clock: FixedClock, ledger: Ledger
) -> None:
    verdict = claim_verdict("held-1", "true", shown=False)
    outcome = record_ruling(
        ledger, _request(claim_id="held-1", action="demote", new_verdict=None), verdict, clock=clock, method_version="v"
    )
    assert not outcome.accepted
    assert any("'demote' needs the verdict to demote to" in p and "'mostly_true'" in p for p in outcome.problems)
    assert read_rulings(ledger, "northwind") == []


def test_a_second_ruling_on_the_same_verdict_is_refused(clock: FixedClock, ledger: Ledger) -> None:
    verdict = claim_verdict("disputed-1", "true", judge_b="false")
    first = record_ruling(ledger, _request(action="uphold"), verdict, clock=clock, method_version="v")
    assert first.accepted
    clock.advance(timedelta(minutes=5))
    second = record_ruling(ledger, _request(action="retract"), verdict, clock=clock, method_version="v")
    assert not second.accepted
    assert any("already ruled on (uphold by ada" in p for p in second.problems), second.problems
    assert [r.action for r in read_rulings(ledger, "northwind")] == ["uphold"]


def test_a_new_runs_verdict_on_a_ruled_claim_can_be_ruled_on_again(clock: FixedClock, ledger: Ledger) -> None:
    verdict = claim_verdict("disputed-1", "true", judge_b="false")
    assert record_ruling(ledger, _request(action="uphold"), verdict, clock=clock, method_version="v").accepted
    clock.advance(timedelta(days=90))
    rerun = verdict.model_copy(update={"decided_at": clock.now()})
    clock.advance(timedelta(minutes=1))
    assert record_ruling(ledger, _request(action="retract"), rerun, clock=clock, method_version="v").accepted


def test_a_ruling_records_the_method_version_of_the_verdict_it_rules_on(clock: FixedClock, ledger: Ledger) -> None:
    """The CLI ran ``method_version()`` and the API ``method_version(offline=...)``: the same
    ruling was recorded under two versions depending on where it was made."""
    verdict = claim_verdict("disputed-1", "true", judge_b="false").model_copy(
        update={"method_version": "0.1.0+abcd1234.offline-rules"}
    )
    outcome = record_ruling(ledger, _request(action="uphold"), verdict, clock=clock, method_version="0.1.0+abcd1234")
    assert outcome.ruling is not None and outcome.ruling.method_version == "0.1.0+abcd1234.offline-rules"


def test_ruled_items_leave_the_open_queue_until_queued_again(clock: FixedClock, ledger: Ledger) -> None:
    verdict = claim_verdict("disputed-1", "true", judge_b="false")
    queue = build_steward_queue([verdict], clock=clock, method_version="v")
    assert [i.claim_id for i in open_items(queue.items, [])] == ["disputed-1"]
    clock.advance(timedelta(hours=1))
    record_ruling(ledger, _request(action="uphold"), verdict, clock=clock, method_version="v")
    rulings = read_rulings(ledger, "northwind")
    assert open_items(queue.items, rulings) == []
    clock.advance(timedelta(days=7))
    requeued = build_steward_queue([verdict], clock=clock, method_version="v")
    assert [i.claim_id for i in open_items(requeued.items, rulings)] == ["disputed-1"]


def test_the_audit_sample_cannot_be_known_in_advance_and_each_draw_is_recorded(
    clock: FixedClock, warehouse: Warehouse
) -> None:
    """[V] §04 "a random 10%": with a fixed public seed anyone could compute which claims
    escape the audit. Each build draws a fresh seed, and the draw is kept so it can be audited."""
    verdicts = _verdicts()
    queues = [build_steward_queue(verdicts, clock=clock, method_version="v") for _ in range(8)]
    assert len({q.seed for q in queues}) == 8, "every build draws its own seed"
    assert len({tuple(q.sampled_claim_ids) for q in queues}) > 1, "the sample is not the same each week"
    for queue in queues[:2]:
        store_steward_queue(warehouse, queue)
        clock.advance(timedelta(minutes=1))
    draws = Ledger(warehouse).read_all(DRAWS_LEDGER, DRAWS_PARTITION, StewardDraw)
    assert sorted(d.seed for d in draws) == sorted(q.seed for q in queues[:2])
    for draw in draws:
        rederived = seeded_sample(draw.eligible_claim_ids, len(draw.sampled_claim_ids), draw.seed)
        assert rederived == draw.sampled_claim_ids and len(draw.eligible_claim_ids) == 25
