"""Scores, intervals, prior, overall and Brier ([M] "How the score is calculated", [#8])."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from reliability_core.constants import OVERALL_INTERVAL_SEED, PRIOR_ALPHA, PRIOR_BETA, PRIOR_STRENGTH
from reliability_core.scores.scoring import (
    StaticPriorLookup,
    TypePosterior,
    brier_score,
    checkable_share,
    checked_claims,
    choose_prior,
    default_prior,
    has_sufficient_record,
    overall_posterior,
    posterior_interval,
    posterior_intervals,
    posterior_score,
    prior_for,
    reason_not_scored,
    score_records,
    type_posterior,
    verdict_value,
)
from tests.scores.builders import make_claim, make_sample, make_statement, make_verdict


def test_five_claims_all_true_score_78() -> None:
    assert round(posterior_score(PRIOR_ALPHA, PRIOR_BETA, 5, 5.0)) == 78


def test_forty_claims_all_true_score_95() -> None:
    assert round(posterior_score(PRIOR_ALPHA, PRIOR_BETA, 40, 40.0)) == 95


@pytest.mark.parametrize(
    ("verdict", "value"),
    [
        ("true", 1.0),
        ("mostly_true", 0.75),
        ("mixed", 0.5),
        ("mostly_false", 0.25),
        ("false", 0.0),
        ("unresolvable", None),
    ],
)
def test_verdict_values_follow_the_table(verdict: str, value: float | None) -> None:
    assert verdict_value(verdict) == value


@pytest.mark.parametrize(("n", "total"), [(0, 0.0), (5, 5.0), (5, 0.0), (12, 7.25), (25, 12.5), (40, 31.0)])
def test_interval_is_the_10th_and_90th_percentile_of_the_beta_posterior(n: int, total: float) -> None:
    low, high = posterior_interval(2.0, 2.0, n, total)
    a, b = 2.0 + total, 2.0 + n - total
    assert low == pytest.approx(100 * stats.beta.ppf(0.10, a, b), abs=1e-9)
    assert high == pytest.approx(100 * stats.beta.ppf(0.90, a, b), abs=1e-9)


def test_interval_for_five_true_claims_matches_known_values() -> None:
    low, high = posterior_interval(2.0, 2.0, 5, 5.0)
    # Beta(7, 2): scipy.stats.beta.ppf(0.1, 7, 2) = 0.5904..., ppf(0.9, 7, 2) = 0.9377...
    assert (round(low, 1), round(high, 1)) == (
        round(100 * stats.beta.ppf(0.1, 7, 2), 1),
        round(100 * stats.beta.ppf(0.9, 7, 2), 1),
    )
    assert 58 < low < 61 and 92 < high < 95


def test_four_checked_claims_are_an_insufficient_record() -> None:
    assert not has_sufficient_record(4)


def test_five_checked_claims_give_a_number() -> None:
    assert has_sufficient_record(5)


def test_impossible_record_is_a_bug() -> None:
    with pytest.raises(ValueError):
        posterior_score(2.0, 2.0, 3, 4.0)


@given(
    n=st.integers(min_value=0, max_value=200),
    fraction=st.floats(min_value=0.0, max_value=1.0),
    prior_mean=st.floats(min_value=0.01, max_value=0.99),
)
def test_score_always_lies_inside_its_interval_and_between_0_and_100(
    n: int, fraction: float, prior_mean: float
) -> None:
    total = n * fraction
    alpha, beta = 4 * prior_mean, 4 * (1 - prior_mean)
    score = posterior_score(alpha, beta, n, total)
    low, high = posterior_interval(alpha, beta, n, total)
    assert 0.0 <= low <= score <= high <= 100.0


def test_prior_stays_at_50_below_20_subjects_of_the_same_kind() -> None:
    prior = choose_prior("company", "factual", 19, 80.0 * 19)
    assert prior == default_prior()
    assert (prior.alpha, prior.beta, prior.mean) == (2.0, 2.0, 50.0)


def test_prior_switches_to_the_kind_mean_at_20_subjects_with_strength_4() -> None:
    prior = choose_prior("company", "factual", 20, 70.0 * 10 + 80.0 * 10)
    assert prior.mean == pytest.approx(75.0)
    assert prior.alpha == pytest.approx(3.0)
    assert prior.beta == pytest.approx(1.0)
    assert prior.alpha + prior.beta == pytest.approx(4.0)
    assert "20 scored company subjects" in prior.source


def test_prior_lookup_is_asked_per_type() -> None:
    lookup = StaticPriorLookup(kind="nonprofit", scores={"promise": [60.0] * 25})
    assert prior_for("promise", lookup).mean == pytest.approx(60.0)
    assert prior_for("factual", lookup) == default_prior()
    assert prior_for("promise", None) == default_prior()


def _posterior(claim_type: str, n: int, total: float) -> TypePosterior:
    prior = default_prior()
    return TypePosterior(
        claim_type=claim_type,  # type: ignore[arg-type]
        n=n,
        sum_values=total,
        prior=prior,
        documents=3,
        mean=posterior_score(prior.alpha, prior.beta, n, total),
        interval_low=0.0,
        interval_high=0.0,
    )


def test_overall_interval_is_the_same_for_the_same_inputs() -> None:
    types = [_posterior("factual", 12, 9.0), _posterior("promise", 6, 3.0)]
    first = overall_posterior(types)
    second = overall_posterior(types)
    assert (first.interval_low, first.interval_high) == (second.interval_low, second.interval_high)
    assert first.seed == OVERALL_INTERVAL_SEED and first.draws >= 10_000


def test_overall_interval_moves_when_the_record_changes() -> None:
    base = overall_posterior([_posterior("factual", 12, 9.0), _posterior("promise", 6, 3.0)])
    worse = overall_posterior([_posterior("factual", 12, 4.0), _posterior("promise", 6, 3.0)])
    assert worse.interval_low is not None and base.interval_low is not None
    assert worse.interval_low < base.interval_low
    assert worse.interval_high is not None and base.interval_high is not None
    assert worse.interval_high < base.interval_high


def test_overall_score_is_the_count_weighted_average_of_type_scores() -> None:
    factual, promise = _posterior("factual", 12, 9.0), _posterior("promise", 3, 3.0)
    empty = _posterior("prediction", 0, 0.0)
    overall = overall_posterior([factual, promise, empty])
    assert overall.mean == pytest.approx((12 * factual.mean + 3 * promise.mean) / 15)
    assert overall.types_included == ("factual", "promise")
    assert overall.interval_low is not None and overall.interval_high is not None
    assert overall.mean is not None
    assert overall.interval_low < overall.mean < overall.interval_high


def test_no_overall_number_below_five_checked_claims_in_all() -> None:
    overall = overall_posterior([_posterior("factual", 2, 2.0), _posterior("promise", 2, 1.0)])
    assert overall.mean is None and overall.interval_low is None and not overall.sufficient


def test_overall_interval_needs_at_least_10000_draws() -> None:
    with pytest.raises(ValueError):
        overall_posterior([_posterior("factual", 12, 9.0)], draws=5_000)


def test_unsampled_unresolvable_held_and_party_political_claims_are_not_scored() -> None:
    scored = make_claim("c1")
    assert reason_not_scored(scored, True, make_verdict("c1", "true")) is None
    assert reason_not_scored(scored, False, make_verdict("c1", "true")) == "not sampled for research"
    assert reason_not_scored(scored, True, make_verdict("c1", "unresolvable")) == "unresolvable"
    assert "held" in (reason_not_scored(scored, True, make_verdict("c1", "true", shown=False)) or "")
    assert "party-political" in (
        reason_not_scored(make_claim("c2", party_political=True), True, make_verdict("c2", "true")) or ""
    )
    assert reason_not_scored(make_claim("c3", triage="not_yet_due"), True, None) == "not yet due"
    assert "own records" in (reason_not_scored(make_claim("c4", triage="own_records_only"), True, None) or "")


def test_type_score_counts_only_checked_claims_of_its_type() -> None:
    claims = [make_claim(f"c{i}", document_id=f"d{i % 2}") for i in range(6)] + [
        make_claim("p1", claim_type="promise")
    ]
    samples = [make_sample(c.id) for c in claims]
    verdicts = [make_verdict(c.id, "true") for c in claims[:5]] + [
        make_verdict("c5", "unresolvable"),
        make_verdict("p1", "false"),
    ]
    checked = checked_claims(claims, samples, verdicts)
    factual = type_posterior("factual", checked, default_prior())
    assert (factual.n, factual.sum_values, factual.documents) == (5, 5.0, 2)
    assert round(factual.mean) == 78


def test_brier_leaves_out_bounds_and_unresolved_predictions() -> None:
    claims = [
        make_claim("p1", claim_type="prediction", probability=0.7, kind="exact"),
        make_claim("p2", claim_type="prediction", probability=0.9, kind="exact"),
        make_claim("p3", claim_type="prediction", probability=0.1, kind="lower_bound"),
        make_claim("p4", claim_type="prediction", probability=0.6, kind="exact"),
        make_claim("p5", claim_type="prediction"),
    ]
    samples = [make_sample(c.id, claim_type="prediction") for c in claims]
    verdicts = [
        make_verdict("p1", "true"),
        make_verdict("p2", "false"),
        make_verdict("p3", "false"),
        make_verdict("p4", "unresolvable"),
        make_verdict("p5", "true"),
    ]
    brier = brier_score(claims, samples, verdicts)
    assert brier.n == 2
    assert brier.value == pytest.approx(((0.7 - 1.0) ** 2 + (0.9 - 0.0) ** 2) / 2)
    assert brier.baseline == 0.25


def test_brier_without_exact_probabilities_has_no_value() -> None:
    brier = brier_score([make_claim("c1")], [make_sample("c1")], [make_verdict("c1", "true")])
    assert (brier.value, brier.n) == (None, 0)


def test_checkable_share_counts_statements_not_triaged_never_resolvable() -> None:
    statements = [make_statement(f"s{i}") for i in range(4)]
    claims = [
        make_claim("c0", statement_id="s0"),
        make_claim("c1", statement_id="s1", triage="not_yet_due"),
        make_claim("c2", statement_id="s2", triage="never_resolvable"),
    ]
    assert checkable_share(statements, claims) == pytest.approx(0.5)
    assert checkable_share([], claims) is None


def test_party_political_and_own_records_claims_are_checkable_though_never_scored() -> None:
    statements = [make_statement(f"s{i}") for i in range(4)]
    claims = [
        make_claim("c0", statement_id="s0", party_political=True),
        make_claim("c1", statement_id="s1", triage="own_records_only"),
        make_claim("c2", statement_id="s2", triage="never_resolvable"),
        make_claim("c3", statement_id="s3", triage="never_resolvable"),
    ]
    assert checkable_share(statements, claims) == pytest.approx(0.5)


def test_interval_for_five_true_claims_agrees_with_the_closed_form_beta_7_2_cdf() -> None:
    # Beta(7, 2) has CDF F(x) = 8x^7 - 7x^8, independent of scipy.
    low, high = posterior_interval(2.0, 2.0, 5, 5.0)
    for bound, mass in ((low / 100, 0.10), (high / 100, 0.90)):
        assert 8 * bound**7 - 7 * bound**8 == pytest.approx(mass, abs=1e-9)


def test_interval_with_no_claims_is_the_prior_beta_2_2() -> None:
    # Beta(2, 2) has CDF F(x) = 3x^2 - 2x^3 and is symmetric about 50.
    low, high = posterior_interval(2.0, 2.0, 0, 0.0)
    assert 3 * (low / 100) ** 2 - 2 * (low / 100) ** 3 == pytest.approx(0.10, abs=1e-9)
    assert low + high == pytest.approx(100.0)


def test_intervals_over_many_records_at_once_are_scipys_beta_quantiles() -> None:
    """Issue 29: the 80% intervals are computed for many posteriors in one call (the inverse
    regularised incomplete beta function); each equals scipy.stats.beta.ppf's to 1e-9, over
    priors of every peer mean and records from none to thousands of claims."""
    rng = np.random.default_rng(29)
    prior_mean = rng.uniform(0.01, 0.99, 5_000)
    n = rng.integers(0, 3_000, 5_000)
    total = rng.uniform(0.0, 1.0, 5_000) * n
    a = PRIOR_STRENGTH * prior_mean + total
    b = PRIOR_STRENGTH * (1.0 - prior_mean) + n - total
    low, high = posterior_intervals(a, b)
    assert low.shape == high.shape == (5_000,)
    np.testing.assert_allclose(low, 100 * stats.beta.ppf(0.10, a, b), rtol=0, atol=1e-9)
    np.testing.assert_allclose(high, 100 * stats.beta.ppf(0.90, a, b), rtol=0, atol=1e-9)
    for i in range(0, 5_000, 499):  # and one at a time, through the rule's own function
        alpha, beta = PRIOR_STRENGTH * prior_mean[i], PRIOR_STRENGTH * (1 - prior_mean[i])
        one = posterior_interval(alpha, beta, int(n[i]), total[i])
        assert one == pytest.approx((low[i], high[i]), abs=1e-9)


def test_scores_of_many_records_at_once_equal_the_one_record_rules() -> None:
    rng = np.random.default_rng(7)
    n = rng.integers(0, 60, 2_000)
    total = rng.integers(0, 5, 2_000) * 0.25 * n / 4
    alpha, beta = np.full(2_000, PRIOR_ALPHA), np.full(2_000, PRIOR_BETA)
    scores, lows, highs = score_records(alpha, beta, n, total)
    for i in range(0, 2_000, 97):
        assert scores[i] == posterior_score(PRIOR_ALPHA, PRIOR_BETA, int(n[i]), total[i])
        assert (lows[i], highs[i]) == posterior_interval(PRIOR_ALPHA, PRIOR_BETA, int(n[i]), total[i])
    with pytest.raises(ValueError, match="impossible record"):
        score_records([2.0], [2.0], [3], [3.5])
