"""Re-run stability ([M] "About one verdict in four changes on a re-run of the
same claim ... most changes are between 'unresolvable' and a verdict. Overall
scores moved 3.7 and 0.2 points; a type score resting on 6 claims moved up to
7.5 points"; [#10] "Re-run stability").

Given k verdict runs for the same claims (research and judging re-run with
fresh calls), this reports per subject the share of claims whose verdict is
unchanged in every run, which transitions happen against the first run, and
how much each type score and the overall score move. Scores are computed with
``reliability_core.scores.scoring`` exactly as a report computes them, so a movement
here is a movement a reader of the report would see.

The re-runs make fresh calls in a cache namespace of their own
(``stability_cache_dir``): they never read, and never overwrite, the answers a
published report rests on. Where nothing can move (offline rules over the
offline search), no share is reported: a deterministic re-run measures nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from pydantic import Field

from reliability_core.models import CLAIM_TYPES, Claim, ClaimType, ClaimVerdict, Record
from reliability_core.models.reports import Prior
from reliability_core.scores.scoring import (
    CheckedClaim,
    default_prior,
    overall_posterior,
    reason_not_scored,
    type_posterior,
    verdict_value,
)

NO_VERDICT = "no_verdict"
STABILITY_NAMESPACE = "stability"
TransitionKind = str  # "unresolvable->verdict", "verdict->unresolvable", "verdict->other verdict", ...


def verdict_state(verdict: ClaimVerdict | None) -> str:
    """The verdict a run gave a claim (``no_verdict`` when the run produced none)."""
    return verdict.verdict if verdict is not None else NO_VERDICT


def transition_kind(before: str, after: str) -> TransitionKind:
    """The kind of change between two runs' verdicts on one claim, in the words the
    method uses ("most changes are between 'unresolvable' and a verdict")."""

    def coarse(state: str) -> str:
        return state if state in ("unresolvable", NO_VERDICT) else "verdict"

    if before == after:
        return "unchanged"
    b, a = coarse(before), coarse(after)
    if b == a == "verdict":
        return "verdict->other verdict"
    return f"{b}->{a}"


class Transition(Record):
    before: str
    after: str
    kind: str
    count: int


class ScoreMovement(Record):
    """One score across the runs: its value per run and the spread (max − min).
    ``scores`` holds the posterior mean even below the 5-claim minimum, ``sufficient``
    says in which runs a report would show it."""

    scope: str  # a claim type, or "overall"
    scores: list[float | None]
    checked: list[int]
    sufficient: list[bool]
    movement: float | None


class StabilityReport(Record):
    """Re-run stability of one subject over k runs. ``measured`` is False when the
    runs could not move (``cannot_move_reason``); the share is then ``None``."""

    subject_id: str = Field(description="The subject re-run (its partition)")
    runs: int = Field(description="How many runs were compared")
    claims: int = Field(description="Claims compared across the runs")
    unchanged: int = Field(description="Claims whose verdict was the same in every run")
    share_unchanged: float | None = Field(description="Share of claims unchanged (none when runs cannot move)")
    measured: bool = Field(default=True, description="False when the runs could not move (see note)")
    note: str = Field(default="", description="Why nothing was measured, when so")
    transitions: list[Transition] = Field(description="Each verdict change between runs (JSON)")
    transition_kinds: dict[str, int] = Field(description="Verdict changes per kind (JSON)")
    changed_claims: list[str] = Field(description="The claims whose verdict changed (JSON)")
    scores: list[ScoreMovement] = Field(description="How far each score moved across the runs (JSON)")


def stability_cache_dir(cache_dir: Path) -> Path:
    """Where the re-runs' fresh answers go: a namespace of their own beside the
    report's cache, so a stability check never reads or overwrites the answers a
    published report rests on ([#10] re-runs "with the cache bypassed")."""
    return cache_dir / STABILITY_NAMESPACE


def cannot_move_reason(models_deterministic: bool, search_deterministic: bool) -> str | None:
    """Why re-runs would measure nothing, or ``None`` when verdicts can move. [M] "About
    one verdict in four changes on a re-run of the same claim" is a property of live
    models and live search; the offline rules over the offline corpus give the same
    answer every time, and a 100% from them would be a figure about nothing."""
    if models_deterministic and search_deterministic:
        return (
            "not measured: the offline rules and the offline search are deterministic, "
            "so a re-run cannot move; stability is measured with live models or live search"
        )
    return None


def share_unchanged(states_by_claim: dict[str, list[str]]) -> float | None:
    """Share of claims whose verdict is the same in every run."""
    if not states_by_claim:
        return None
    return sum(1 for s in states_by_claim.values() if len(set(s)) == 1) / len(states_by_claim)


def _checked(claims: Sequence[Claim], run: Sequence[ClaimVerdict]) -> list[CheckedClaim]:
    by_claim = {v.claim_id: v for v in run}
    out: list[CheckedClaim] = []
    for claim in claims:
        verdict = by_claim.get(claim.id)
        if verdict is not None and reason_not_scored(claim, True, verdict) is None:
            value = verdict_value(verdict.verdict)
            if value is not None:
                out.append(CheckedClaim(claim.id, claim.claim_type, value, claim.document_id))
    return out


def _spread(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return max(present) - min(present) if len(present) >= 2 else None


def score_movements(
    claims: Sequence[Claim],
    runs: Sequence[Sequence[ClaimVerdict]],
    priors: dict[ClaimType, Prior] | None = None,
) -> list[ScoreMovement]:
    """How far each type score and the overall score move across runs, computed with
    the scoring module's own formulae (``type_posterior``, ``overall_posterior``)."""
    priors = priors or {}
    per_type: dict[ClaimType, list[tuple[float, int, bool]]] = {t: [] for t in CLAIM_TYPES}
    overall: list[tuple[float | None, int, bool]] = []
    for run in runs:
        checked = _checked(claims, run)
        posteriors = [type_posterior(t, checked, priors.get(t, default_prior())) for t in CLAIM_TYPES]
        for p in posteriors:
            per_type[p.claim_type].append((p.mean, p.n, p.sufficient))
        o = overall_posterior(posteriors)
        overall.append((o.mean, o.n, o.sufficient))
    out = [
        ScoreMovement(
            scope=t,
            scores=[m for m, _, _ in per_type[t]],
            checked=[n for _, n, _ in per_type[t]],
            sufficient=[s for _, _, s in per_type[t]],
            movement=_spread([m for m, n, _ in per_type[t] if n > 0]),
        )
        for t in CLAIM_TYPES
    ]
    out.append(
        ScoreMovement(
            scope="overall",
            scores=[m for m, _, _ in overall],
            checked=[n for _, n, _ in overall],
            sufficient=[s for _, _, s in overall],
            movement=_spread([m for m, _, _ in overall]),
        )
    )
    return out


def rerun_stability(
    claims: Sequence[Claim],
    runs: Sequence[Sequence[ClaimVerdict]],
    *,
    priors: dict[ClaimType, Prior] | None = None,
    cannot_move: str | None = None,
) -> list[StabilityReport]:
    """One stability report per subject: share unchanged, transitions (each later run
    against the first), and type and overall score movement. With ``cannot_move``
    (``cannot_move_reason``) the share is not reported and the note says why."""
    if len(runs) < 2:
        raise ValueError("stability needs at least two runs of the same claims")
    subjects = sorted({c.subject_id for c in claims})
    reports: list[StabilityReport] = []
    for subject in subjects:
        mine = [c for c in claims if c.subject_id == subject]
        ids = {c.id for c in mine}
        mine_runs = [[v for v in run if v.claim_id in ids] for run in runs]
        states: dict[str, list[str]] = {}
        for claim in mine:
            states[claim.id] = [
                verdict_state(next((v for v in run if v.claim_id == claim.id), None)) for run in mine_runs
            ]
        pairs: Counter[tuple[str, str]] = Counter()
        for s in states.values():
            for later in s[1:]:
                if later != s[0]:
                    pairs[(s[0], later)] += 1
        kinds: Counter[str] = Counter()
        for (before, after), count in pairs.items():
            kinds[transition_kind(before, after)] += count
        unchanged = sum(1 for s in states.values() if len(set(s)) == 1)
        reports.append(
            StabilityReport(
                subject_id=subject,
                runs=len(runs),
                claims=len(states),
                unchanged=unchanged,
                share_unchanged=share_unchanged(states) if cannot_move is None else None,
                measured=cannot_move is None,
                note=cannot_move or "",
                transitions=[
                    Transition(before=b, after=a, kind=transition_kind(b, a), count=c)
                    for (b, a), c in sorted(pairs.items())
                ],
                transition_kinds=dict(sorted(kinds.items())),
                changed_claims=sorted(c for c, s in states.items() if len(set(s)) > 1),
                scores=score_movements(mine, mine_runs, priors),
            )
        )
    return reports


async def collect_reruns(
    k: int, run_once: Callable[[int], Awaitable[Sequence[ClaimVerdict]]]
) -> list[list[ClaimVerdict]]:
    """Run research and judging ``k`` times (``run_once(i)`` must make fresh calls, in
    the ``stability_cache_dir`` namespace) and collect each run's verdicts, in run order."""
    if k < 2:
        raise ValueError("stability needs k >= 2 runs")
    return [list(await run_once(i)) for i in range(k)]
