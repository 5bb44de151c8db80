"""Scores: per-type Beta scores with 80% intervals, the overall score, Brier,
and the checkable share ([M] "How the score is calculated", [#8]).

Every function here is pure: it takes stored verdicts (or numbers derived from
them) and returns values. The numbers of the method (verdict values, prior,
interval quantiles, the 5-claim minimum, the overall seed and draw count) live
in ``reliability_core.constants``.

Formulae (n checked claims of one type, s the sum of their verdict values,
prior Beta(alpha, beta)):

    score    = 100 * (alpha + s) / (alpha + beta + n)
    interval = 100 * [Beta.ppf(0.10), Beta.ppf(0.90)] of Beta(alpha + s, beta + n - s)

Beta.ppf(q) is the inverse regularised incomplete beta function I^-1(a, b; q)
(``scipy.special.betaincinv``, the function ``scipy.stats.beta.ppf`` itself calls),
evaluated over many records at once by ``posterior_intervals``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import numpy.typing as npt

from reliability_core.claims.triage import is_checkable
from reliability_core.constants import (
    BRIER_BASELINE,
    INTERVAL_HIGH_QUANTILE,
    INTERVAL_LOW_QUANTILE,
    MIN_CLAIMS_FOR_SCORE,
    OVERALL_INTERVAL_DRAWS,
    OVERALL_INTERVAL_SEED,
    PRIOR_ALPHA,
    PRIOR_BETA,
    PRIOR_STRENGTH,
    PRIOR_SWITCH_MIN_SUBJECTS,
    VERDICT_VALUES,
)
from reliability_core.models import (
    CLAIM_TYPES,
    Claim,
    ClaimType,
    ClaimVerdict,
    SampleMembership,
    Statement,
)
from reliability_core.models.reports import BrierScore, Prior

# --- Which claims are scored ---------------------------------------------------------


def verdict_value(verdict: str) -> float | None:
    """[M] "Each checked claim gets a value": true 1, mostly true 0.75, mixed 0.5,
    mostly false 0.25, false 0 ([#8]). ``unresolvable`` (or anything else) has no value."""
    return VERDICT_VALUES.get(verdict)


def reason_not_scored(claim: Claim, sampled: bool, verdict: ClaimVerdict | None) -> str | None:
    """[M] "Unresolvable, not-yet-due, own-records-only and unsampled claims are counted,
    not scored"; [#8] adds held verdicts (a display gate failed) and party-political claims
    ("counted but never scored"). Returns ``None`` for a checked (scored) claim, otherwise
    the plain-word reason it is only counted. Checked in this order, so each claim gets
    the earliest stage that stopped it. [R] v1.2: a claim about someone dying or being
    hurt is handed back without searching, and shown as not checked with that reason."""
    if claim.harm_to_person:
        return "about someone dying or being hurt: not checked (handed back without searching)"
    if claim.party_political:
        return "party-political: counted, never scored"
    if claim.triage == "never_resolvable":
        return "never resolvable"
    if claim.triage == "not_yet_due":
        return "not yet due"
    if claim.triage == "own_records_only":
        return "checkable only against the subject's own records"
    if not sampled:
        return "not sampled for research"
    if verdict is None:
        return "no verdict yet"
    if verdict_value(verdict.verdict) is None:
        if verdict.model_failure:
            return f"unresolvable: {verdict.model_failure}"
        return "self-reported only" if verdict.self_reported_only else "unresolvable"
    if not verdict.gate.shown:
        failed = ", ".join(verdict.gate.failed) or "a display gate failed"
        return f"held by a display gate ({failed})"
    return None


@dataclass(frozen=True)
class CheckedClaim:
    """One scored claim: its type, value and the document it came from."""

    claim_id: str
    claim_type: ClaimType
    value: float
    document_id: str


def checked_claims(
    claims: Sequence[Claim],
    samples: Sequence[SampleMembership],
    verdicts: Sequence[ClaimVerdict],
) -> list[CheckedClaim]:
    """The claims that count towards a score (see ``reason_not_scored``), in claim order."""
    sampled = {s.claim_id for s in samples if s.sampled}
    by_claim = {v.claim_id: v for v in verdicts}
    out: list[CheckedClaim] = []
    for claim in claims:
        verdict = by_claim.get(claim.id)
        if reason_not_scored(claim, claim.id in sampled, verdict) is None:
            assert verdict is not None  # reason_not_scored returns None only with a verdict
            value = verdict_value(verdict.verdict)
            assert value is not None
            out.append(CheckedClaim(claim.id, claim.claim_type, value, claim.document_id))
    return out


# --- Per-type score ----------------------------------------------------------------


def has_sufficient_record(n_checked: int) -> bool:
    """[M] "With fewer than 5 checked claims of a type there is no number, only
    'insufficient record'"."""
    return n_checked >= MIN_CLAIMS_FOR_SCORE


def posterior_score(alpha: float, beta: float, n: int, sum_values: float) -> float:
    """[M] "score = 100 × (α + sum of values) / (α + β + n)": the posterior mean in points."""
    _check_counts(n, sum_values)
    return 100.0 * (alpha + sum_values) / (alpha + beta + n)


def posterior_interval(alpha: float, beta: float, n: int, sum_values: float) -> tuple[float, float]:
    """[M] "The 80% interval is the middle 80% of the posterior Beta(α + sum of values,
    β + n − sum of values)": the 10th and 90th percentiles, in points."""
    _check_counts(n, sum_values)
    low, high = posterior_intervals(np.array([alpha + sum_values]), np.array([beta + n - sum_values]))
    return float(low[0]), float(high[0])


def posterior_intervals(
    a: npt.ArrayLike, b: npt.ArrayLike
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The 80% interval of ``posterior_interval`` for many posteriors Beta(a, b) at once (a, b
    the posterior's parameters, arrays of one shape): 100 x I^-1(a, b; q) for q = 0.10 and
    0.90, where I^-1 is the inverse regularised incomplete beta function. The same quantiles
    as ``scipy.stats.beta.ppf``, without its per-call distribution machinery."""
    # scipy.special is imported here, not with the module: it costs a process about 0.4 s,
    # and most processes that import this module (the CLI, a run before its scores) never
    # compute an interval.
    from scipy.special import betaincinv

    a_, b_ = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    low = 100.0 * betaincinv(a_, b_, INTERVAL_LOW_QUANTILE)
    high = 100.0 * betaincinv(a_, b_, INTERVAL_HIGH_QUANTILE)
    return low, high


def score_records(
    alpha: npt.ArrayLike, beta: npt.ArrayLike, n: npt.ArrayLike, sum_values: npt.ArrayLike
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """``posterior_score`` and ``posterior_interval`` for many records at once (arrays of one
    shape: prior alpha and beta, checked claims n, sum of their values): (scores, interval
    lows, interval highs) in points, each equal to the one-record functions' figure."""
    alpha_, beta_ = np.asarray(alpha, dtype=np.float64), np.asarray(beta, dtype=np.float64)
    n_, total = np.asarray(n), np.asarray(sum_values, dtype=np.float64)
    if np.any(n_ < 0) or np.any(total < 0) or np.any(total > n_ + 1e-9):
        raise ValueError("impossible record: a negative count or a sum of values above the count")
    scores = 100.0 * (alpha_ + total) / (alpha_ + beta_ + n_)
    low, high = posterior_intervals(alpha_ + total, beta_ + n_ - total)
    return scores, low, high


def _check_counts(n: int, sum_values: float) -> None:
    if n < 0 or sum_values < 0 or sum_values > n + 1e-9:
        raise ValueError(f"impossible record: n={n}, sum of values={sum_values}")


# --- Prior -------------------------------------------------------------------------


class PriorLookup(Protocol):
    """Where the scores of comparable subjects come from (the day's peer snapshot in the
    pipeline, ``peers.SnapshotPriorLookup``; a fixed table in tests). ``kind`` is the
    scored subject's kind (company, nonprofit...)."""

    @property
    def kind(self) -> str: ...

    def peer_total(self, claim_type: ClaimType) -> tuple[int, float]:
        """How many other scored subjects of the same kind have a score (0-100) for
        ``claim_type``, and the sum of those scores."""
        ...


@dataclass(frozen=True)
class StaticPriorLookup:
    """A ``PriorLookup`` over a fixed table: ``{claim_type: [peer scores]}``."""

    kind: str
    scores: Mapping[str, Sequence[float]] = field(default_factory=dict)

    def peer_total(self, claim_type: ClaimType) -> tuple[int, float]:
        found = list(self.scores.get(claim_type, ()))
        return len(found), float(sum(found))


def default_prior() -> Prior:
    """[M] "a prior mean of 50 worth the evidence of 4 claims (α = β = 2)"."""
    return Prior(alpha=PRIOR_ALPHA, beta=PRIOR_BETA, mean=50.0, source="default 50")


def choose_prior(kind: str, claim_type: ClaimType, peers: int, total: float) -> Prior:
    """[M] "The prior mean will become the average for comparable subjects once about 20
    subjects are in the database; until then it is 50." [#8]: with scores of at least
    ``PRIOR_SWITCH_MIN_SUBJECTS`` (20) subjects of the same kind for this type (``peers``
    of them, summing to ``total``), their mean m becomes the prior mean, with the strength
    kept at 4 claims: alpha = 4 m, beta = 4 (1 - m). A peer counts only if it has a number
    for this type (an insufficient record is not a score)."""
    if peers < PRIOR_SWITCH_MIN_SUBJECTS:
        return default_prior()
    mean = total / peers
    # Each peer score is a posterior mean with a prior of positive strength, never 0 or 100
    # (checked when a report's figures are recorded: peers.PeerFigures), so neither is the mean.
    if not 0.0 < mean < 100.0:
        raise ValueError(f"mean peer score {mean} is not a posterior mean in (0, 100)")
    m = mean / 100.0
    return Prior(
        alpha=PRIOR_STRENGTH * m,
        beta=PRIOR_STRENGTH * (1.0 - m),
        mean=mean,
        source=f"mean of {peers} scored {kind} subjects ({claim_type})",
    )


def prior_for(claim_type: ClaimType, lookup: PriorLookup | None) -> Prior:
    """The prior used for one type of one subject: the default without a lookup."""
    if lookup is None:
        return default_prior()
    peers, total = lookup.peer_total(claim_type)
    return choose_prior(lookup.kind, claim_type, peers, total)


# --- Type and overall numbers (before confidence) ----------------------------------


@dataclass(frozen=True)
class TypePosterior:
    """The numbers of one type's score, before the report adds confidence."""

    claim_type: ClaimType
    n: int
    sum_values: float
    prior: Prior
    documents: int
    mean: float  # posterior mean in points, computed even below the 5-claim minimum
    interval_low: float
    interval_high: float

    @property
    def sufficient(self) -> bool:
        return has_sufficient_record(self.n)


def type_posterior(claim_type: ClaimType, checked: Sequence[CheckedClaim], prior: Prior) -> TypePosterior:
    """Score, interval and counts for one claim type from its checked claims."""
    mine = [c for c in checked if c.claim_type == claim_type]
    n = len(mine)
    total = math.fsum(c.value for c in mine)
    low, high = posterior_interval(prior.alpha, prior.beta, n, total)
    return TypePosterior(
        claim_type=claim_type,
        n=n,
        sum_values=total,
        prior=prior,
        documents=len({c.document_id for c in mine}),
        mean=posterior_score(prior.alpha, prior.beta, n, total),
        interval_low=low,
        interval_high=high,
    )


@dataclass(frozen=True)
class OverallPosterior:
    n: int
    mean: float | None
    interval_low: float | None
    interval_high: float | None
    types_included: tuple[ClaimType, ...]
    draws: int
    seed: int

    @property
    def sufficient(self) -> bool:
        return self.mean is not None


def overall_posterior(
    types: Sequence[TypePosterior],
    *,
    seed: int = OVERALL_INTERVAL_SEED,
    draws: int = OVERALL_INTERVAL_DRAWS,
) -> OverallPosterior:
    """[#8] "Posterior-mean average of the type scores weighted by their checked-claim
    counts (types with no checked claims left out); its 80% interval from sampling each
    type's posterior with a fixed seed (at least 10,000 draws), so the same inputs always
    give the same interval. No overall number with fewer than 5 checked claims in all."

    Types are drawn in the fixed order of ``CLAIM_TYPES`` from one
    ``numpy.random.default_rng(seed)``; draw i of the overall score is
    sum_t w_t * draw_i(Beta_t) with w_t = n_t / N."""
    if draws < 10_000:
        raise ValueError("the overall interval needs at least 10,000 draws")
    present = sorted((t for t in types if t.n > 0), key=lambda t: CLAIM_TYPES.index(t.claim_type))
    total_n = sum(t.n for t in present)
    included = tuple(t.claim_type for t in present)
    if not has_sufficient_record(total_n):
        return OverallPosterior(total_n, None, None, None, included, draws, seed)
    mean = math.fsum(t.n * t.mean for t in present) / total_n
    rng = np.random.default_rng(seed)
    combined = np.zeros(draws)
    for t in present:
        a = t.prior.alpha + t.sum_values
        b = t.prior.beta + t.n - t.sum_values
        combined += (t.n / total_n) * rng.beta(a, b, size=draws)
    low, high = np.quantile(combined, [INTERVAL_LOW_QUANTILE, INTERVAL_HIGH_QUANTILE])
    return OverallPosterior(total_n, mean, 100.0 * float(low), 100.0 * float(high), included, draws, seed)


# --- Brier ---------------------------------------------------------------------------


def brier_score(
    claims: Sequence[Claim],
    samples: Sequence[SampleMembership],
    verdicts: Sequence[ClaimVerdict],
) -> BrierScore:
    """[M] "For predictions made with a stated probability ('70% likely'), the Brier score
    is the mean of (stated probability − outcome)², where the outcome is the verdict's value.
    ... Bounds such as 'more than 10% likely' are left out." Only predictions with an exact
    stated probability (``probability_kind == "exact"``) that are checked claims count;
    unresolved ones are left out. ``n`` is the count it rests on; the baseline 0.25 is what
    always saying 50% scores."""
    checked = {c.claim_id: c.value for c in checked_claims(claims, samples, verdicts)}
    squared: list[float] = []
    for claim in claims:
        if (
            claim.claim_type == "prediction"
            and claim.probability_kind == "exact"
            and claim.stated_probability is not None
            and claim.id in checked
        ):
            squared.append((claim.stated_probability - checked[claim.id]) ** 2)
    value = math.fsum(squared) / len(squared) if squared else None
    return BrierScore(value=value, n=len(squared), baseline=BRIER_BASELINE)


# --- Checkable share -------------------------------------------------------------------


def checkable_share(statements: Sequence[Statement], claims: Sequence[Claim]) -> float | None:
    """[M] "Every report also gives the share of extracted statements that are checkable
    at all."

    Definition used: the denominator is every extracted statement kept after the drops
    (privacy, other speakers, paraphrase, not a claim), i.e. the stored ``Statement``
    records; the numerator is the number of those statements whose claim was triaged
    anything other than ``never_resolvable`` (resolvable now, not yet due, or own records
    only: each could be checked against some record at some time). Party-political claims
    count as checkable (they are checkable, just never scored). ``None`` with no statements."""
    if not statements:
        return None
    kept = {s.id for s in statements}
    checkable = {c.statement_id for c in claims if is_checkable(c) and c.statement_id in kept}
    return len(checkable) / len(kept)
