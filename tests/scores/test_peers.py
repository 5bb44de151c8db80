"""The peers' prior: figures per published report, one frozen snapshot per day's cutoff ([#19])."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from reliability_core.clock import FixedClock
from reliability_core.models import Report
from reliability_core.scores.peers import (
    PeerFigures,
    PeerSnapshot,
    SnapshotPriorLookup,
    own_figures,
    peer_cutoff,
    peer_figures_of,
    peer_snapshot,
    record_peer_figures,
    snapshot_from_figures,
)
from reliability_core.scores.report import build_report, report_content_hash
from reliability_core.scores.scoring import prior_for
from reliability_core.warehouse import Ledger, Warehouse, tables
from tests.scores.builders import make_claim, make_sample, make_verdict
from tests.scores.test_report import _inputs

TODAY = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
YESTERDAY = TODAY - timedelta(days=1)


def figures(subject_id: str, score: float, *, at: datetime = YESTERDAY, kind: str = "company") -> PeerFigures:
    return PeerFigures(
        subject_id=subject_id, kind=kind, report_id=f"rpt_{subject_id}_{score}", generated_at=at, scores={"factual": score}
    )


def lookup(day: PeerSnapshot, own: PeerFigures | None = None, kind: str = "company") -> SnapshotPriorLookup:
    return SnapshotPriorLookup(kind=kind, snapshot=day, own=own)


def snapshot(items: list[PeerFigures], now: datetime = TODAY) -> PeerSnapshot:
    return snapshot_from_figures(items, as_of=peer_cutoff(now), built_at=now)


def test_cutoff_is_the_start_of_the_utc_day_of_the_scoring_clock() -> None:
    assert peer_cutoff(TODAY) == datetime(2026, 11, 30, tzinfo=UTC)
    assert peer_cutoff(datetime(2026, 11, 30, 23, 59, 59, tzinfo=UTC)) == peer_cutoff(TODAY)
    # 20:00 on the 29th in New York is already the 30th in UTC: the day is the UTC day.
    late_in_new_york = datetime(2026, 11, 29, 20, 0, tzinfo=timezone(timedelta(hours=-5)))
    assert peer_cutoff(late_in_new_york) == datetime(2026, 11, 30, tzinfo=UTC)


def test_prior_switches_once_20_other_subjects_of_the_kind_have_a_score() -> None:
    peers = [figures(f"co{i}", 70.0 + i % 3) for i in range(20)]
    assert prior_for("factual", lookup(snapshot(peers[:19]))).mean == 50.0
    assert prior_for("factual", lookup(snapshot(peers))).mean == pytest.approx(sum(70.0 + i % 3 for i in range(20)) / 20)
    assert prior_for("promise", lookup(snapshot(peers))).mean == 50.0  # no peer has a promise score


def test_prior_ignores_other_kinds_the_subject_itself_and_older_reports() -> None:
    peers = [figures(f"co{i}", 60.0) for i in range(19)]
    mine = figures("me", 10.0)
    extra = [
        figures("np", 10.0, kind="nonprofit"),
        mine,
        figures("co0", 90.0, at=YESTERDAY + timedelta(hours=1)),  # co0's latest before the cutoff
    ]
    count, total = lookup(snapshot([*peers, *extra]), own=mine).peer_total("factual")
    assert (count, total) == (19, pytest.approx(18 * 60.0 + 90.0))
    assert lookup(snapshot([*peers, *extra]), own=None).peer_total("factual")[0] == 20  # mine counted


def test_a_peer_score_of_0_or_100_is_refused_as_no_posterior_mean() -> None:
    with pytest.raises(ValueError, match="not a posterior mean"):
        figures("co0", 100.0)


def test_only_peer_reports_generated_before_the_days_cutoff_count() -> None:
    peers = [figures(f"co{i}", 60.0) for i in range(19)]
    published_this_morning = figures("co19", 80.0, at=peer_cutoff(TODAY) + timedelta(minutes=1))
    changed_this_morning = figures("co0", 99.0, at=peer_cutoff(TODAY) + timedelta(minutes=2))
    today = snapshot([*peers, published_this_morning, changed_this_morning])
    assert lookup(today).peer_total("factual") == (19, pytest.approx(19 * 60.0))
    assert prior_for("factual", lookup(today)).mean == 50.0
    tomorrow = snapshot([*peers, published_this_morning, changed_this_morning], TODAY + timedelta(days=1))
    assert lookup(tomorrow).peer_total("factual") == (20, pytest.approx(18 * 60.0 + 80.0 + 99.0))


def test_a_refused_report_and_an_insufficient_record_give_no_peer_score() -> None:
    refused = build_report(**_inputs(coverage=_inputs()["coverage"].model_copy(update={"covered": False})))
    assert peer_figures_of(refused, "company") is None
    scored = build_report(**_inputs())
    found = peer_figures_of(scored, "company")
    assert found is not None and "factual" in found.scores and "promise" not in found.scores  # 2 promises: no number


def _kinds() -> dict[str, str]:
    return {}


def test_the_days_snapshot_is_frozen_so_a_peer_published_later_changes_no_prior(tmp_path: Path) -> None:
    warehouse = Warehouse(str(tmp_path / "w"))
    ledger = Ledger(warehouse)
    for i in range(19):
        record_peer_figures(warehouse, figures(f"co{i}", 60.0))
    clock = FixedClock(TODAY)
    first = peer_snapshot(warehouse, ledger, as_of=peer_cutoff(TODAY), clock=clock, kinds=_kinds)
    # A run that began yesterday publishes after the snapshot was frozen: today's runs keep the same peers.
    record_peer_figures(warehouse, figures("co19", 80.0, at=YESTERDAY + timedelta(hours=23)))
    clock.advance(timedelta(hours=3))
    again = peer_snapshot(warehouse, ledger, as_of=peer_cutoff(TODAY), clock=clock, kinds=_kinds)
    assert again == first and again.subjects == 19


class _RacingLedger(Ledger):
    """A ledger where another run appends the day's snapshot between this run's look and its append."""

    def __init__(self, warehouse: Warehouse, theirs: PeerSnapshot) -> None:
        super().__init__(warehouse)
        self.theirs = theirs
        self.looked = False

    def get(self, table: str, subject_id: str, record_id: str, model: type[Any]) -> Any:
        if not self.looked:
            self.looked = True
            Ledger(self.warehouse).append(table, subject_id, [(record_id, self.theirs)])
            return None
        return super().get(table, subject_id, record_id, model)


def test_two_runs_building_the_days_snapshot_at_once_both_use_the_first_one_frozen(tmp_path: Path) -> None:
    warehouse = Warehouse(str(tmp_path / "w"))
    record_peer_figures(warehouse, figures("co1", 60.0))
    theirs = snapshot([figures("co0", 55.0)])
    got = peer_snapshot(
        warehouse, _RacingLedger(warehouse, theirs), as_of=peer_cutoff(TODAY), clock=FixedClock(TODAY), kinds=_kinds
    )
    assert got == theirs


def test_a_warehouse_without_peer_figures_takes_them_from_its_stored_reports(tmp_path: Path) -> None:
    warehouse = Warehouse(str(tmp_path / "w"))
    old = build_report(**_inputs(subject_id="legacy", clock=FixedClock(YESTERDAY)))
    warehouse.write(tables.REPORTS, "legacy", [old])
    built = peer_snapshot(
        warehouse, Ledger(warehouse), as_of=peer_cutoff(TODAY), clock=FixedClock(TODAY), kinds=lambda: {"legacy": "company"}
    )
    legacy = peer_figures_of(old, "company")
    assert legacy is not None and built.subjects == 1
    assert built.totals["company"]["factual"].total == legacy.scores["factual"]
    # Its first publication since keeps the legacy figures beside the new ones.
    new = build_report(**_inputs(subject_id="legacy", clock=FixedClock(TODAY)))
    warehouse.write(tables.REPORTS, "legacy", [old, new])
    published = peer_figures_of(new, "company")
    assert published is not None
    record_peer_figures(warehouse, published)
    assert own_figures(warehouse, "legacy", as_of=peer_cutoff(TODAY), kind="company") == legacy


def _subject_inputs(subject_id: str, true_claims: int, now: datetime) -> dict[str, Any]:
    claims = [make_claim(f"{subject_id}{i}", document_id=f"d{i}") for i in range(true_claims + 2)]
    return _inputs(
        subject_id=subject_id,
        claims=claims,
        samples=[make_sample(c.id) for c in claims],
        verdicts=[make_verdict(c.id, "true" if i < true_claims else "false") for i, c in enumerate(claims)],
        clock=FixedClock(now),
    )


def _prior_inputs(warehouse: Warehouse, subject_id: str, now: datetime, as_of: datetime) -> dict[str, Any]:
    day = peer_snapshot(warehouse, Ledger(warehouse), as_of=as_of, clock=FixedClock(now), kinds=_kinds)
    own = own_figures(warehouse, subject_id, as_of=as_of, kind="company")
    return {"prior_lookup": lookup(day, own=own), "peer_prior_as_of": as_of}


def _score_and_publish(warehouse: Warehouse, subject_id: str, true_claims: int, now: datetime) -> Report:
    """What the scoring and publishing steps do for one subject, in the pipeline's order."""
    report = build_report(**(_subject_inputs(subject_id, true_claims, now) | _prior_inputs(warehouse, subject_id, now, peer_cutoff(now))))
    found = peer_figures_of(report, "company")
    assert found is not None
    record_peer_figures(warehouse, found)
    return report


def test_reports_of_one_day_are_identical_whatever_order_the_subjects_run_in(tmp_path: Path) -> None:
    # 19 peers scored yesterday: one more published today would tip the prior to the peers' mean
    # if a run could see it, so the second run in either order would score differently.
    def world(name: str) -> Warehouse:
        warehouse = Warehouse(str(tmp_path / name))
        for i in range(19):
            record_peer_figures(warehouse, figures(f"co{i}", 30.0))
        return warehouse

    first = world("a")
    a_then_b = {s: _score_and_publish(first, s, n, TODAY + timedelta(minutes=k)) for k, (s, n) in enumerate([("alpha", 5), ("beta", 8)])}
    second = world("b")
    b_then_a = {s: _score_and_publish(second, s, n, TODAY + timedelta(minutes=k)) for k, (s, n) in enumerate([("beta", 8), ("alpha", 5)])}
    for subject in ("alpha", "beta"):
        assert a_then_b[subject].content_hash == b_then_a[subject].content_hash
        assert a_then_b[subject].peer_prior_as_of == peer_cutoff(TODAY)
        assert all(t.prior.mean == 50.0 for t in a_then_b[subject].type_scores)
    # The next day both count, so the prior moves to the peers' mean.
    tomorrow = _score_and_publish(first, "alpha", 5, TODAY + timedelta(days=1))
    factual = next(t for t in tomorrow.type_scores if t.claim_type == "factual")
    assert factual.prior.mean != 50.0 and factual.prior.source.startswith("mean of 20 scored company subjects")


def test_recomputing_with_the_recorded_cutoff_agrees_after_midnight_and_new_peers(tmp_path: Path) -> None:
    warehouse = Warehouse(str(tmp_path / "w"))
    for i in range(19):
        record_peer_figures(warehouse, figures(f"co{i}", 30.0))
    late = TODAY.replace(hour=23, minute=59)
    published = _score_and_publish(warehouse, "alpha", 5, late)
    record_peer_figures(warehouse, figures("co19", 30.0, at=late))  # a concurrent peer lands
    after_midnight = late + timedelta(minutes=2)

    def recompute(as_of: datetime) -> str:
        inputs = _subject_inputs("alpha", 5, after_midnight) | _prior_inputs(warehouse, "alpha", after_midnight, as_of)
        return report_content_hash(build_report(**inputs))

    assert published.peer_prior_as_of is not None
    assert recompute(published.peer_prior_as_of) == published.content_hash
    assert recompute(peer_cutoff(after_midnight)) != published.content_hash  # what a check without the record would see
