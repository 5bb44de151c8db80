"""The peers' prior: the figures of comparable subjects a report's prior comes from.

[M] "The prior mean will become the average for comparable subjects once about 20
subjects are in the database; until then it is 50." Reading every stored report of
every subject for that made a refresh cycle over N subjects cost O(N^2), and let two
concurrent runs disagree about who their peers were. So:

- Each published report leaves its peer figures (kind, generated_at, the per-type
  scores: a few hundred bytes) in the ``peer_figures`` table, one partition per
  subject (``peer_figures_of`` / ``record_peer_figures``).
- A report's prior comes from the peer snapshot of its cutoff (``peer_cutoff``): each
  subject's latest figures from reports generated before 00:00 UTC of the day its
  scores are computed, summed per kind and claim type (count and sum of scores: a
  record whose size does not grow with the number of subjects). The first run that
  needs a day's snapshot builds it (``build_peer_snapshot``, the only step that reads
  every subject, once a day) and appends it to the append-only ledger under the
  cutoff; every later run that day reads that one small record (``peer_snapshot``)
  and takes its own figures of before the cutoff back out of the sums
  (``own_figures``, one partition), so its prior never depends on its own earlier
  score. The ledger's exclusive create means every run of the day uses the same
  snapshot, whatever order they ran or finished in.
- The cutoff is recorded on the report (``Report.peer_prior_as_of``), so the blocking
  recompute check scores against the same snapshot, even past midnight.

The rule does not depend on run order: which peers count depends only on the day of
the scoring clock and on what was generated before that day began, never on which run
of the day finished first (tested: tests/scores/test_peers.py).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, time

from pydantic import field_validator

from reliability_core.clock import Clock
from reliability_core.models import ClaimType, Record, Report
from reliability_core.warehouse import Ledger, LedgerConflictError, Warehouse, tables
from reliability_core.warehouse.store import CorruptPartitionError

log = logging.getLogger(__name__)

SNAPSHOT_PARTITION = "all"  # one ledger partition holds every day's snapshot


class PeerFigures(Record):
    """What a published report contributes to its peers' prior."""

    subject_id: str
    kind: str
    report_id: str
    generated_at: datetime
    scores: dict[str, float]  # claim type -> score, only types with a number

    @field_validator("scores")
    @classmethod
    def _posterior_means(cls, scores: dict[str, float]) -> dict[str, float]:
        # A score is a posterior mean with a prior of positive strength: never 0 or 100.
        for claim_type, score in scores.items():
            if not 0.0 < score < 100.0:
                raise ValueError(f"{claim_type} score {score} is not a posterior mean in (0, 100)")
        return scores


class PeerTotal(Record):
    """How many subjects have a score for one kind and type, and the sum of those scores."""

    count: int
    total: float


class PeerSnapshot(Record):
    """The sums of each subject's latest peer figures generated before ``as_of``, frozen once built."""

    as_of: datetime
    built_at: datetime
    subjects: int  # subjects with figures before the cutoff
    totals: dict[str, dict[str, PeerTotal]]  # kind -> claim type -> count and sum


def peer_cutoff(now: datetime) -> datetime:
    """[#19] The peers' prior of a report is the peer snapshot as of 00:00 UTC of the day its
    scores are computed: only peer reports generated before that instant count. A fixed
    daily cutoff, not the run's own start, so that runs of one day (serial or concurrent,
    in any order) all see the same peers."""
    return datetime.combine(now.astimezone(UTC).date(), time(0), tzinfo=UTC)


def peer_figures_of(report: Report, kind: str) -> PeerFigures | None:
    """A covered report's figures for its peers (None for a refused subject, which has no
    scores); an insufficient record is not a score, so only types with a number count."""
    if not report.covered:
        return None
    return PeerFigures(
        subject_id=report.subject_id,
        kind=kind,
        report_id=report.id,
        generated_at=report.generated_at,
        scores={t.claim_type: t.score for t in report.type_scores if t.score is not None},
    )


def latest_before(figures: Iterable[PeerFigures], as_of: datetime) -> dict[str, PeerFigures]:
    """Each subject's latest figures (by ``generated_at``) generated before ``as_of``; of
    figures generated at the same instant (offline runs pin the clock), the one recorded
    last, i.e. published last (figures are given in the order they were recorded)."""
    latest: dict[str, PeerFigures] = {}
    for item in figures:
        if item.generated_at >= as_of:
            continue
        held = latest.get(item.subject_id)
        if held is None or item.generated_at >= held.generated_at:
            latest[item.subject_id] = item
    return latest


def snapshot_from_figures(figures: Iterable[PeerFigures], *, as_of: datetime, built_at: datetime) -> PeerSnapshot:
    """The snapshot of ``as_of``: each subject's latest figures before it, summed per kind
    and type in subject order (so the same figures always give the same sums)."""
    latest = latest_before(figures, as_of)
    counts: dict[str, dict[str, int]] = {}
    sums: dict[str, dict[str, float]] = {}
    for subject_id in sorted(latest):
        item = latest[subject_id]
        for claim_type, score in sorted(item.scores.items()):
            counts.setdefault(item.kind, {})[claim_type] = counts.get(item.kind, {}).get(claim_type, 0) + 1
            sums.setdefault(item.kind, {})[claim_type] = sums.get(item.kind, {}).get(claim_type, 0.0) + score
    totals = {
        kind: {t: PeerTotal(count=counts[kind][t], total=sums[kind][t]) for t in sorted(counts[kind])}
        for kind in sorted(counts)
    }
    return PeerSnapshot(as_of=as_of, built_at=built_at, subjects=len(latest), totals=totals)


def record_peer_figures(warehouse: Warehouse, figures: PeerFigures) -> None:
    """Add a published report's figures to its subject's partition (earlier ones kept: a
    snapshot of an earlier cutoff may need them). The first time, the figures of the
    subject's reports stored before peer figures existed are added too, so from then on
    the partition alone is the subject's whole record."""
    kept = stored_figures(warehouse, figures.subject_id, figures.kind, for_rewrite=True)
    if figures in kept and warehouse.exists(tables.PEER_FIGURES, figures.subject_id):
        return
    warehouse.write(tables.PEER_FIGURES, figures.subject_id, [*[f for f in kept if f != figures], figures])


def stored_figures(
    warehouse: Warehouse, subject_id: str, kind: str | None, *, for_rewrite: bool = False
) -> list[PeerFigures]:
    """A subject's recorded peer figures; for a subject published before peer figures
    existed, taken from its stored reports (with ``kind`` from the registry; none without).
    ``for_rewrite``: the caller rewrites the partition, so a corrupt file is set aside
    (``Warehouse.read_or_set_aside``) and rebuilt from the reports instead of failing."""
    if warehouse.exists(tables.PEER_FIGURES, subject_id):
        if not for_rewrite:
            return warehouse.read(tables.PEER_FIGURES, subject_id, PeerFigures)
        kept = warehouse.read_or_set_aside(tables.PEER_FIGURES, subject_id, PeerFigures)
        if warehouse.exists(tables.PEER_FIGURES, subject_id):
            return kept
    if kind is None:
        return []
    found = (peer_figures_of(r, kind) for r in warehouse.read(tables.REPORTS, subject_id, Report))
    return [f for f in found if f is not None]


def build_peer_snapshot(
    warehouse: Warehouse, *, as_of: datetime, built_at: datetime, kinds: Mapping[str, str]
) -> PeerSnapshot:
    """The snapshot of ``as_of`` from every subject's figures (``stored_figures``)."""
    subjects = set(warehouse.subjects(tables.PEER_FIGURES)) | set(warehouse.subjects(tables.REPORTS))
    figures: list[PeerFigures] = []
    for subject in sorted(subjects):
        try:
            figures += stored_figures(warehouse, subject, kinds.get(subject))
        except CorruptPartitionError as exc:
            # One bad file stays local (issue 26): every other subject's run still scores, against
            # the peers that can be read; the damaged subject's next run replaces its file.
            log.warning("peer snapshot of %s leaves out a subject: %s", as_of.isoformat(), exc)
    return snapshot_from_figures(figures, as_of=as_of, built_at=built_at)


def own_figures(warehouse: Warehouse, subject_id: str, *, as_of: datetime, kind: str) -> PeerFigures | None:
    """The subject's own figures inside the snapshot of ``as_of`` (its latest before the
    cutoff), to be taken back out of the sums: one partition read."""
    return latest_before(stored_figures(warehouse, subject_id, kind), as_of).get(subject_id)


def peer_snapshot(
    warehouse: Warehouse,
    ledger: Ledger,
    *,
    as_of: datetime,
    clock: Clock,
    kinds: Callable[[], Mapping[str, str]],
) -> PeerSnapshot:
    """The frozen snapshot of ``as_of``: read from the ledger, or built and appended by the
    first run that needs it. When two runs build it at once, the ledger keeps the first
    and the other reads that one, so both score against the same peers. ``kinds`` (the
    registry's subject kinds) is only called when the snapshot is built."""
    record_id = as_of.strftime("%Y%m%dT%H%M%SZ")
    found = ledger.get(tables.PEER_SNAPSHOTS_LEDGER, SNAPSHOT_PARTITION, record_id, PeerSnapshot)
    if found is not None:
        return found
    built = build_peer_snapshot(warehouse, as_of=as_of, built_at=clock.now(), kinds=kinds())
    with contextlib.suppress(LedgerConflictError):  # another run froze it first: use theirs
        ledger.append(tables.PEER_SNAPSHOTS_LEDGER, SNAPSHOT_PARTITION, [(record_id, built)])
    frozen = ledger.get(tables.PEER_SNAPSHOTS_LEDGER, SNAPSHOT_PARTITION, record_id, PeerSnapshot)
    return frozen if frozen is not None else built


@dataclass(frozen=True)
class SnapshotPriorLookup:
    """A ``scoring.PriorLookup`` over a peer snapshot: the sums of the subjects of the same
    kind, less the subject's own figures (``own``, from ``own_figures``), so its prior
    never depends on its own earlier score."""

    kind: str
    snapshot: PeerSnapshot
    own: PeerFigures | None

    def peer_total(self, claim_type: ClaimType) -> tuple[int, float]:
        found = self.snapshot.totals.get(self.kind, {}).get(claim_type)
        count, total = (found.count, found.total) if found else (0, 0.0)
        own = self.own
        if own is not None and own.kind == self.kind and claim_type in own.scores:
            count, total = count - 1, total - own.scores[claim_type]
        return count, total
