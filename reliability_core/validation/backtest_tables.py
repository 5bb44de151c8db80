"""A backtest as the evaluator reads it (issue 27): the headline figures with their 95%
intervals and item counts, each gate's pass or fail, precision and recall per verdict,
the confusion matrix with its axes named, and the calibration bins with their counts.
One set of rows, rendered as plain text for ``reliability gold backtest`` and as
Markdown for the ``gold_set_backtest`` asset in the Dagster UI."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reliability_core.text.layout import markdown_table, text_table
from reliability_core.validation.backtest import BacktestResult, GateResult
from reliability_core.validation.metrics import Interval

Table = tuple[str, list[str], list[list[str]]]  # title, headers, rows
_SHARE_GATES = frozenset({"accuracy_on_shown", "settled_without_help"})


def _share(value: float | None) -> str:
    return "no data" if value is None else f"{100 * value:.1f}%"


def _interval(interval: Interval | None) -> str:
    if interval is None:
        return "—"
    return f"{100 * interval.low:.1f}–{100 * interval.high:.1f}%"


def _count(interval: Interval | None) -> str:
    return "0" if interval is None else f"{interval.successes} of {interval.n}"


def _number(value: float | None, digits: int = 3) -> str:
    return "no data" if value is None else f"{value:.{digits}f}"


def figure_rows(result: BacktestResult) -> Table:
    """The headline figures: value, 95% Wilson interval, the items behind it, and the gate."""
    m = result.metrics
    gates: dict[str, GateResult] = {g.gate: g for g in result.gates}

    def gate(name: str) -> str:
        g = gates.get(name)
        if g is None:
            return ""
        # The threshold in the unit of the value beside it: shares are shown in percent.
        threshold = f"{100 * g.threshold:g}%" if name in _SHARE_GATES else f"{g.threshold:g}"
        return f"{'pass' if g.passed else 'FAIL'} ({g.comparison} {threshold})"

    agreement = m.judge_agreement_interval
    rows = [
        [
            "accuracy, all items",
            _share(m.accuracy_all),
            _interval(m.accuracy_all_interval),
            _count(m.accuracy_all_interval),
            "",
        ],
        [
            "accuracy on shown verdicts",
            _share(m.accuracy_on_shown),
            _interval(m.accuracy_on_shown_interval),
            _count(m.accuracy_on_shown_interval),
            gate("accuracy_on_shown"),
        ],
        [
            "wrong verdicts shown",
            str(m.wrong_verdicts_shown),
            "—",
            f"{m.shown} shown",
            gate("wrong_verdicts_shown"),
        ],
        [
            "settled without help (shown / all)",
            _share(m.settled_without_help),
            _interval(m.settled_without_help_interval),
            _count(m.settled_without_help_interval),
            gate("settled_without_help"),
        ],
        [
            "judge agreement (consistency, not accuracy)",
            "no data" if m.judge_agreement_percent is None else f"{m.judge_agreement_percent:.1f}%",
            _interval(agreement),
            _count(agreement),
            "",
        ],
        ["judge agreement, Cohen's kappa", _number(m.judge_agreement_kappa), "—", str(m.judges_compared), ""],
        [
            "kappa, verdict against human label",
            _number(m.judge_a_vs_humans_kappa),
            "—",
            str(m.items),
            gate("kappa_with_humans"),
        ],
        [
            "calibration error (ECE)",
            _number(m.calibration_error),
            "—",
            str(sum(b.count for b in m.calibration_bins)),
            gate("calibration_error"),
        ],
        ["abstention rate (unresolvable)", _share(m.abstention_rate), "—", str(m.items), ""],
        ["Brier score of predictions", _number(m.brier_predictions), "—", str(m.brier_n), ""],
        [
            "steering attempts caught",
            f"{m.steering.caught} of {m.steering.present}",
            "—",
            f"{m.steering.false_alarms} false alarms",
            "",
        ],
        ["cost per item (USD)", _number(m.cost_per_item, 4), "—", str(m.items), ""],
    ]
    return "Figures", ["figure", "value", "95% interval", "items", "gate"], rows


def per_label_rows(result: BacktestResult) -> Table:
    """Precision and recall of each verdict, with the counts behind them."""
    rows = [
        [
            s.label,
            str(s.support),
            str(s.predicted),
            _share(s.precision),
            _interval(s.precision_interval),
            _share(s.recall),
            _interval(s.recall_interval),
        ]
        for s in result.metrics.per_label
    ]
    headers = [
        "verdict",
        "human labels",
        "method verdicts",
        "precision",
        "95% interval",
        "recall",
        "95% interval",
    ]
    return "Precision and recall per verdict", headers, rows


def confusion_rows(result: BacktestResult) -> Table:
    """The confusion matrix: one row per human label, one column per method verdict."""
    m = result.metrics
    rows = [
        [f"label {label}", *(str(v) for v in row)]
        for label, row in zip(m.confusion_labels, m.confusion_matrix, strict=True)
    ]
    return (
        f"Confusion matrix ({m.confusion_axes})",
        ["human label \\ verdict", *m.confusion_labels],
        rows,
    )


def calibration_rows(result: BacktestResult) -> Table:
    """Judge A's confidence bins: how many verdicts fell in each, their mean confidence
    and the share of them that were right (the reliability diagram's numbers)."""
    rows = [
        [
            f"{b.lower:.1f}–{b.upper:.1f}",
            str(b.count),
            _number(b.mean_confidence),
            _share(b.accuracy),
        ]
        for b in result.metrics.calibration_bins
    ]
    return (
        "Calibration of judge A's confidence",
        ["confidence bin", "verdicts", "mean confidence", "share correct"],
        rows,
    )


TABLES: tuple[Callable[[BacktestResult], Table], ...] = (
    figure_rows,
    per_label_rows,
    confusion_rows,
    calibration_rows,
)


def _heading(result: BacktestResult) -> list[str]:
    return [
        f"Backtest of {result.gold_set}: {result.metrics.items} items, method version {result.method_version}",
        f"Error rates: {result.error_rates} ({result.label})",
        f"All gates pass: {'yes' if result.all_gates_pass else 'no'}",
    ]


def backtest_text(result: BacktestResult) -> str:
    """The backtest as plain-text tables for a terminal."""
    parts = ["\n".join(_heading(result))]
    for make in TABLES:
        title, headers, rows = make(result)
        parts.append(f"{title}\n{text_table(headers, rows)}")
    return "\n\n".join(parts)


def backtest_markdown(
    result: BacktestResult, tables: Sequence[Callable[[BacktestResult], Table]] = TABLES
) -> str:
    """The backtest as Markdown tables (the asset's metadata in the UI)."""
    parts = ["  \n".join(_heading(result))]
    for make in tables:
        title, headers, rows = make(result)
        parts.append(f"**{title}**\n\n{markdown_table(headers, rows)}")
    return "\n\n".join(parts)
