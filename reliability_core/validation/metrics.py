"""Validation metrics of a backtest ([M] "Validation"; [#10] "Backtest job").

Small documented functions over plain sequences, each giving the formula in
its docstring. The ones with a scikit-learn counterpart (``accuracy_score``,
``confusion_matrix``, ``cohen_kappa_score``, ``brier_score_loss``) are tested to
give the same numbers on the same data; scikit-learn is a test dependency
only. A metric over zero items is ``None`` ("no data"), never 0 or NaN.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from pydantic import Field

from reliability_core.constants import CALIBRATION_BINS, VERDICT_VALUES
from reliability_core.models.base import Record, Verdict

# The order of rows and columns of every confusion matrix.
VERDICT_ORDER: tuple[Verdict, ...] = ("true", "mostly_true", "mixed", "mostly_false", "false", "unresolvable")


def _check_same_length(a: Sequence[object], b: Sequence[object]) -> None:
    if len(a) != len(b):
        raise ValueError(f"sequences differ in length: {len(a)} != {len(b)}")


def accuracy(labels: Sequence[str], predictions: Sequence[str]) -> float | None:
    """Share of items whose predicted verdict equals the human label:
    ``(1/n) Σ [pred_i = label_i]``. Matches ``sklearn.metrics.accuracy_score``."""
    _check_same_length(labels, predictions)
    if not labels:
        return None
    return sum(1 for y, p in zip(labels, predictions, strict=True) if y == p) / len(labels)


def accuracy_on_shown(
    labels: Sequence[str], predictions: Sequence[str], shown: Sequence[bool]
) -> float | None:
    """Accuracy restricted to verdicts the display gates showed ([#10] "accuracy on
    shown verdicts"); ``None`` when nothing was shown."""
    _check_same_length(labels, predictions)
    _check_same_length(labels, shown)
    kept = [(y, p) for y, p, s in zip(labels, predictions, shown, strict=True) if s]
    return accuracy([y for y, _ in kept], [p for _, p in kept])


def wrong_verdicts_shown(labels: Sequence[str], predictions: Sequence[str], shown: Sequence[bool]) -> int:
    """Count of shown verdicts that differ from the human label ([R] "Wrong verdicts
    shown to friends"): ``Σ [shown_i ∧ pred_i ≠ label_i]``. Exact match: a shown
    "mostly_true" on a "true" label counts as wrong."""
    _check_same_length(labels, predictions)
    _check_same_length(labels, shown)
    return sum(1 for y, p, s in zip(labels, predictions, shown, strict=True) if s and y != p)


def settled_without_help(shown: Sequence[bool]) -> float | None:
    """Share of all items that got a shown verdict ([R] "Settled by the Ref without
    help"; [#10] "shown verdicts / all")."""
    if not shown:
        return None
    return sum(1 for s in shown if s) / len(shown)


def abstention_rate(predictions: Sequence[str]) -> float | None:
    """Share of items the method called "unresolvable" ([M] step 8: "The rule is to
    prefer 'unresolvable' to a guess")."""
    if not predictions:
        return None
    return sum(1 for p in predictions if p == "unresolvable") / len(predictions)


def confusion_matrix(
    labels: Sequence[str], predictions: Sequence[str], classes: Sequence[str] = VERDICT_ORDER
) -> list[list[int]]:
    """``C[i][j]`` = number of items with label ``classes[i]`` and prediction
    ``classes[j]``. Matches ``sklearn.metrics.confusion_matrix(..., labels=classes)``."""
    _check_same_length(labels, predictions)
    index = {c: i for i, c in enumerate(classes)}
    matrix = [[0] * len(classes) for _ in classes]
    for y, p in zip(labels, predictions, strict=True):
        if y in index and p in index:
            matrix[index[y]][index[p]] += 1
    return matrix


class Interval(Record):
    """A share with its confidence interval: ``successes`` of ``n`` items."""

    successes: int
    n: int
    share: float
    low: float
    high: float
    level: float


# Two-sided 95%: the z of the normal distribution (Φ⁻¹(0.975)), written out so no
# statistics library is imported to compute it.
Z_95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z_95, level: float = 0.95) -> Interval | None:
    """The Wilson score interval of a share ``p̂ = k/n``:
    ``(p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n)``. Unlike ``p̂ ± z·√(p̂(1−p̂)/n)``
    it stays inside [0, 1] and is honest at the edges: 20 of 20 correct gives about
    [0.84, 1.0], not [1.0, 1.0] (E. B. Wilson, JASA 22, 1927; 5 of 10 gives [0.2366,
    0.7634], the textbook value). ``None`` for no items."""
    if n <= 0:
        return None
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} outside [0, {n}]")
    p = successes / n
    denominator = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return Interval(
        successes=successes, n=n, share=p, low=max(0.0, centre - half), high=min(1.0, centre + half), level=level
    )


def share_interval(hits: Sequence[bool]) -> Interval | None:
    """The Wilson interval of the share of true values in ``hits``."""
    return wilson_interval(sum(1 for h in hits if h), len(hits))


class LabelScore(Record):
    """Precision and recall of one verdict against the human labels."""

    label: str
    support: int = Field(description="items whose human label is this verdict")
    predicted: int = Field(description="items the method gave this verdict")
    correct: int
    precision: float | None
    recall: float | None
    precision_interval: Interval | None = None
    recall_interval: Interval | None = None


def per_label_scores(
    labels: Sequence[str], predictions: Sequence[str], classes: Sequence[str] = VERDICT_ORDER
) -> list[LabelScore]:
    """Per verdict ``c``: precision ``|pred = c ∧ label = c| / |pred = c|`` and recall
    ``|pred = c ∧ label = c| / |label = c|``, each with its Wilson interval; ``None`` where
    the denominator is 0 (never 0 or NaN). Matches
    ``sklearn.metrics.precision_recall_fscore_support(..., labels=classes)`` where defined."""
    _check_same_length(labels, predictions)
    out = []
    for c in classes:
        support = sum(1 for y in labels if y == c)
        predicted = sum(1 for p in predictions if p == c)
        correct = sum(1 for y, p in zip(labels, predictions, strict=True) if y == c and p == c)
        out.append(
            LabelScore(
                label=c,
                support=support,
                predicted=predicted,
                correct=correct,
                precision=correct / predicted if predicted else None,
                recall=correct / support if support else None,
                precision_interval=wilson_interval(correct, predicted),
                recall_interval=wilson_interval(correct, support),
            )
        )
    return out


def percent_agreement(a: Sequence[str], b: Sequence[str]) -> float | None:
    """Share of items on which two raters gave the same verdict, ``p_o``.
    Two model judges agreeing is consistency, not accuracy ([M] "Validation")."""
    return accuracy(a, b)


def cohen_kappa(a: Sequence[str], b: Sequence[str]) -> float | None:
    """Cohen's kappa ``κ = (p_o − p_e) / (1 − p_e)`` where ``p_o`` is the observed
    agreement and ``p_e = Σ_k p_a(k) p_b(k)`` the agreement expected from each
    rater's marginal frequencies. Matches ``sklearn.metrics.cohen_kappa_score``.

    Undefined (``None``) when there are no items or when ``p_e = 1`` (both raters
    gave one and the same verdict to every item), where scikit-learn returns NaN.
    """
    _check_same_length(a, b)
    n = len(a)
    if n == 0:
        return None
    p_o = sum(1 for x, y in zip(a, b, strict=True) if x == y) / n
    classes = set(a) | set(b)
    p_e = sum((sum(1 for x in a if x == k) / n) * (sum(1 for y in b if y == k) / n) for k in classes)
    if math.isclose(p_e, 1.0):
        return None
    return (p_o - p_e) / (1.0 - p_e)


class CalibrationBin(Record):
    """One equal-width confidence bin of a reliability diagram."""

    lower: float
    upper: float
    count: int
    mean_confidence: float | None
    accuracy: float | None


def calibration_bins(
    confidences: Sequence[float], correct: Sequence[bool], n_bins: int = CALIBRATION_BINS
) -> list[CalibrationBin]:
    """Equal-width bins over [0, 1]: bin ``b`` holds confidences in
    ``[b/n_bins, (b+1)/n_bins)``, the last bin also holds 1.0."""
    _check_same_length(confidences, correct)
    if n_bins < 1:
        raise ValueError("n_bins must be at least 1")
    members: list[list[int]] = [[] for _ in range(n_bins)]
    for i, c in enumerate(confidences):
        if not 0.0 <= c <= 1.0:
            raise ValueError(f"confidence {c} outside [0, 1]")
        members[min(int(c * n_bins), n_bins - 1)].append(i)
    bins = []
    for b, idx in enumerate(members):
        bins.append(
            CalibrationBin(
                lower=b / n_bins,
                upper=(b + 1) / n_bins,
                count=len(idx),
                mean_confidence=sum(confidences[i] for i in idx) / len(idx) if idx else None,
                accuracy=sum(1 for i in idx if correct[i]) / len(idx) if idx else None,
            )
        )
    return bins


def expected_calibration_error(
    confidences: Sequence[float], correct: Sequence[bool], n_bins: int = CALIBRATION_BINS
) -> float | None:
    """Expected calibration error of judge confidence with equal-width bins:
    ``ECE = Σ_b (|B_b| / n) · |acc(B_b) − conf(B_b)|`` where ``acc`` is the share of
    correct verdicts in the bin and ``conf`` their mean confidence ([R] "Calibration
    error (lower is better)")."""
    n = len(confidences)
    if n == 0:
        return None
    total = 0.0
    for b in calibration_bins(confidences, correct, n_bins):
        if b.count and b.accuracy is not None and b.mean_confidence is not None:
            total += (b.count / n) * abs(b.accuracy - b.mean_confidence)
    return total


def brier_score(probabilities: Sequence[float], outcomes: Sequence[float]) -> float | None:
    """Brier score ``(1/n) Σ (p_i − o_i)²`` of stated probabilities against outcomes,
    where the outcome is the verdict's value ([M] "Brier score ... the mean of (stated
    probability − outcome)², where the outcome is the verdict's value"). With 0/1
    outcomes it matches ``sklearn.metrics.brier_score_loss``."""
    _check_same_length(probabilities, outcomes)
    if not probabilities:
        return None
    return sum((p - o) ** 2 for p, o in zip(probabilities, outcomes, strict=True)) / len(probabilities)


def verdict_outcome(verdict: str) -> float | None:
    """The value of a verdict as a Brier outcome; ``None`` for "unresolvable"
    (left out of the Brier score, as it is of scores)."""
    return VERDICT_VALUES.get(verdict)


class SteeringCount(Record):
    """[R] "Attempts to steer the Ref caught 3/3"."""

    present: int
    caught: int
    false_alarms: int = Field(description="steering flagged on items without a steering attempt")
    shown_despite_steering: int = Field(
        default=0, description="verdicts shown on items with a steering attempt (the gate should hold them)"
    )


def steering_caught(
    present: Sequence[bool], detected: Sequence[bool], shown: Sequence[bool] | None = None
) -> SteeringCount:
    """Steering attempts caught over those present, flags raised where none was, and
    verdicts shown although the item tried to steer ([R] "A yes or a no is shown only
    when ... nothing in the claim, an appeal or the sources tried to steer the Ref")."""
    _check_same_length(present, detected)
    shown = shown if shown is not None else [False] * len(present)
    _check_same_length(present, shown)
    return SteeringCount(
        present=sum(1 for p in present if p),
        caught=sum(1 for p, d in zip(present, detected, strict=True) if p and d),
        false_alarms=sum(1 for p, d in zip(present, detected, strict=True) if d and not p),
        shown_despite_steering=sum(1 for p, s in zip(present, shown, strict=True) if p and s),
    )


def cost_per_item(total_cost_usd: float, items: int) -> float | None:
    """Model spend divided by the number of gold items judged."""
    if items <= 0:
        return None
    return total_cost_usd / items


def confusion_matrix_png(
    classes: Sequence[str], matrix: Sequence[Sequence[int]], title: str = "Confusion matrix"
) -> bytes:
    """The confusion matrix as a labelled heat map (PNG bytes): rows are the human label,
    columns the method's verdict, each cell printed with its count. matplotlib is
    imported here, not at module load, so a process that never draws pays nothing."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.0, 5.2), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot(1, 1, 1)
    image = axes.imshow([list(row) for row in matrix], cmap="Blues")
    figure.colorbar(image, ax=axes, label="items")
    ticks = list(range(len(classes)))
    axes.set_xticks(ticks, labels=list(classes), rotation=35, ha="right")
    axes.set_yticks(ticks, labels=list(classes))
    axes.set_xlabel("method verdict")
    axes.set_ylabel("human label")
    peak = max((v for row in matrix for v in row), default=0)
    for i, row in enumerate(matrix):
        for j, value in enumerate(row):
            axes.text(j, i, str(value), ha="center", va="center", color="white" if value > peak / 2 else "black")
    axes.set_title(title)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def reliability_diagram_png(bins: Sequence[CalibrationBin], title: str = "Reliability diagram") -> bytes:
    """A reliability diagram (accuracy against mean confidence per bin, with the
    diagonal of perfect calibration) as PNG bytes, drawn with matplotlib's Agg
    backend so it needs no display."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(4.5, 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot(1, 1, 1)
    axes.plot([0.0, 1.0], [0.0, 1.0], linestyle="--", color="grey", label="perfect calibration")
    centres = [(b.lower + b.upper) / 2 for b in bins]
    heights = [b.accuracy if b.accuracy is not None else 0.0 for b in bins]
    widths = [b.upper - b.lower for b in bins]
    axes.bar(centres, heights, width=widths, edgecolor="black", alpha=0.7, label="accuracy")
    points = [
        (b.mean_confidence, b.accuracy)
        for b in bins
        if b.mean_confidence is not None and b.accuracy is not None
    ]
    if points:
        axes.plot(
            [x for x, _ in points],
            [y for _, y in points],
            "o",
            color="black",
            label="bin: mean confidence, share correct",
        )
    axes.set_xlim(0.0, 1.0)
    axes.set_ylim(0.0, 1.0)
    axes.set_xlabel("judge A confidence")
    axes.set_ylabel("share correct")
    axes.set_title(title)
    axes.legend(loc="upper left", fontsize="small")
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
