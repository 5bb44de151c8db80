"""Metrics of the backtest agree with scikit-learn on the same data."""

from __future__ import annotations

import math
import random
import warnings

import pytest
from sklearn.metrics import accuracy_score, brier_score_loss, cohen_kappa_score
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from reliability_core.validation import metrics
from reliability_core.validation.metrics import VERDICT_ORDER


def _random_verdicts(seed: int, n: int) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    labels: list[str] = [rng.choice(VERDICT_ORDER) for _ in range(n)]
    # Predictions agree with the label about 60% of the time so kappa is informative.
    predictions: list[str] = [y if rng.random() < 0.6 else rng.choice(VERDICT_ORDER) for y in labels]
    return labels, predictions


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_accuracy_matches_sklearn(seed: int) -> None:
    labels, predictions = _random_verdicts(seed, 57)
    assert metrics.accuracy(labels, predictions) == pytest.approx(accuracy_score(labels, predictions))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_confusion_matrix_matches_sklearn_with_fixed_verdict_order(seed: int) -> None:
    labels, predictions = _random_verdicts(seed, 80)
    expected = sk_confusion_matrix(labels, predictions, labels=list(VERDICT_ORDER)).tolist()
    assert metrics.confusion_matrix(labels, predictions) == expected


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_cohen_kappa_matches_sklearn(seed: int) -> None:
    a, b = _random_verdicts(seed, 40)
    assert metrics.cohen_kappa(a, b) == pytest.approx(cohen_kappa_score(a, b))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (["true", "false", "true", "mixed"], ["true", "false", "true", "mixed"]),  # perfect: 1
        (["true", "false", "true", "false"], ["false", "true", "false", "true"]),  # total disagreement: -1
        (["true", "true", "true", "true"], ["true", "false", "true", "false"]),  # one rater constant: 0
        (["true", "false"], ["unresolvable", "unresolvable"]),  # no shared category
    ],
)
def test_cohen_kappa_edge_cases_match_sklearn(a: list[str], b: list[str]) -> None:
    assert metrics.cohen_kappa(a, b) == pytest.approx(cohen_kappa_score(a, b))


def test_cohen_kappa_is_undefined_when_both_raters_give_one_same_verdict() -> None:
    a = b = ["true", "true", "true"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert math.isnan(cohen_kappa_score(a, b))
    assert metrics.cohen_kappa(a, b) is None


def test_cohen_kappa_of_nothing_is_none() -> None:
    assert metrics.cohen_kappa([], []) is None


def test_percent_agreement_counts_identical_verdicts() -> None:
    assert (
        metrics.percent_agreement(["true", "mixed", "false", "true"], ["true", "false", "false", "true"])
        == 0.75
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_brier_score_matches_sklearn_on_binary_outcomes(seed: int) -> None:
    rng = random.Random(seed)
    p = [rng.random() for _ in range(30)]
    o = [float(rng.random() < 0.5) for _ in range(30)]
    assert metrics.brier_score(p, o) == pytest.approx(brier_score_loss(o, p))


def test_brier_score_uses_verdict_values_as_outcomes() -> None:
    # 70% likely, came out mostly true (0.75); 20% likely, came out false (0.0).
    outcomes = [metrics.verdict_outcome("mostly_true"), metrics.verdict_outcome("false")]
    assert outcomes == [0.75, 0.0]
    assert metrics.brier_score([0.7, 0.2], [0.75, 0.0]) == pytest.approx(((0.05**2) + (0.2**2)) / 2)
    assert metrics.verdict_outcome("unresolvable") is None


def test_always_saying_fifty_percent_scores_the_baseline() -> None:
    assert metrics.brier_score([0.5] * 4, [1.0, 0.0, 1.0, 0.0]) == pytest.approx(0.25)


def test_expected_calibration_error_on_known_values() -> None:
    # Bin [0.9, 1.0): 4 items, mean confidence 0.9, 3 correct (0.75) -> gap 0.15
    # Bin [0.6, 0.7): 2 items, mean confidence 0.6, 1 correct (0.5) -> gap 0.10
    confidences = [0.9, 0.9, 0.9, 0.9, 0.6, 0.6]
    correct = [True, True, True, False, True, False]
    expected = (4 / 6) * 0.15 + (2 / 6) * 0.10
    assert metrics.expected_calibration_error(confidences, correct) == pytest.approx(expected)


def test_perfectly_calibrated_judge_has_zero_calibration_error() -> None:
    confidences = [0.8] * 5 + [1.0] * 2
    correct = [True, True, True, True, False, True, True]
    assert metrics.expected_calibration_error(confidences, correct) == pytest.approx(0.0)


def test_confidence_of_one_falls_in_the_last_bin() -> None:
    bins = metrics.calibration_bins([1.0, 0.0], [True, False], n_bins=10)
    assert bins[-1].count == 1 and bins[0].count == 1
    assert sum(b.count for b in bins) == 2


def test_confidence_outside_unit_interval_is_a_bug() -> None:
    with pytest.raises(ValueError):
        metrics.calibration_bins([1.2], [True])


def test_shown_metrics_only_count_shown_verdicts() -> None:
    labels = ["true", "false", "mixed", "true"]
    predictions = ["true", "true", "mixed", "false"]
    shown = [True, True, False, False]
    assert metrics.accuracy_on_shown(labels, predictions, shown) == 0.5
    assert metrics.wrong_verdicts_shown(labels, predictions, shown) == 1
    assert metrics.settled_without_help(shown) == 0.5
    assert metrics.accuracy_on_shown(labels, predictions, [False] * 4) is None


def test_abstention_rate_is_share_of_unresolvable() -> None:
    assert metrics.abstention_rate(["unresolvable", "true", "unresolvable", "false"]) == 0.5
    assert metrics.abstention_rate([]) is None


def test_steering_counts_caught_and_false_alarms() -> None:
    count = metrics.steering_caught(
        [True, True, False, False], [True, False, True, False], [False, True, True, False]
    )
    assert (count.present, count.caught, count.false_alarms) == (2, 1, 1)
    assert count.shown_despite_steering == 1


def test_cost_per_item_divides_spend_by_items() -> None:
    assert metrics.cost_per_item(3.0, 4) == 0.75
    assert metrics.cost_per_item(3.0, 0) is None


def test_reliability_diagram_is_a_png() -> None:
    bins = metrics.calibration_bins([0.9, 0.85, 0.3], [True, False, False])
    png = metrics.reliability_diagram_png(bins)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) > 1000


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (5, 10, 0.2366, 0.7634),  # the textbook value
        (20, 20, 20 / (20 + metrics.Z_95**2), 1.0),  # all correct: the lower bound is n / (n + z²), not 1
        (0, 10, 0.0, metrics.Z_95**2 / (10 + metrics.Z_95**2)),
    ],
)
def test_wilson_interval_gives_known_values(k: int, n: int, low: float, high: float) -> None:
    interval = metrics.wilson_interval(k, n)
    assert interval is not None
    assert (interval.low, interval.high) == (pytest.approx(low, abs=1e-4), pytest.approx(high, abs=1e-4))
    assert metrics.wilson_interval(0, 0) is None


def test_few_items_get_a_wide_interval_and_many_a_narrow_one() -> None:
    few, many = metrics.wilson_interval(9, 10), metrics.wilson_interval(900, 1000)
    assert few is not None and many is not None
    assert few.high - few.low > 0.3 > 0.05 > many.high - many.low


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_per_label_precision_and_recall_match_sklearn(seed: int) -> None:
    from sklearn.metrics import precision_recall_fscore_support

    labels, predictions = _random_verdicts(seed, 90)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        precision, recall, _, support = precision_recall_fscore_support(
            labels, predictions, labels=list(VERDICT_ORDER), zero_division=0
        )
    for n, score in enumerate(metrics.per_label_scores(labels, predictions)):
        assert score.label == VERDICT_ORDER[n] and score.support == support[n]
        assert (score.precision or 0.0) == pytest.approx(precision[n])
        assert (score.recall or 0.0) == pytest.approx(recall[n])


def test_a_verdict_never_predicted_has_no_precision_rather_than_zero() -> None:
    [true, *_] = metrics.per_label_scores(["true", "false"], ["false", "false"])
    assert true.precision is None and true.precision_interval is None and true.recall == 0.0


def test_the_confusion_matrix_plot_is_a_png() -> None:
    png = metrics.confusion_matrix_png(list(VERDICT_ORDER), metrics.confusion_matrix(["true", "false"], ["true", "mixed"]))
    assert png.startswith(b"\x89PNG")
