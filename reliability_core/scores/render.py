"""The report rendered three ways ([#8] "It renders as JSON (for the API), as Markdown
(for Dagster metadata and humans), and as a PNG chart of the type and overall scores
with their intervals and the counts behind them").

Every rendering of a report made by the offline model says so: "offline-rules
(deterministic offline model, not a live model)"; one made in the rehearsal says
"rehearsal (scripted model behind local vendor servers, not a live model)".
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from reliability_core.models import Report

_TYPE_LABELS = {"factual": "Factual", "promise": "Promises", "prediction": "Predictions"}
CHART_SIZE_INCHES = (8.0, 4.0)
CHART_DPI = 100  # 800 x 400 pixels, always


def _points(value: float | None) -> str:
    return "—" if value is None else f"{value:.0f}"


def _interval(low: float | None, high: float | None) -> str:
    if low is None or high is None:
        return "—"
    return f"{low:.0f}–{high:.0f}"


def report_json(report: Report) -> str:
    """The report as JSON for the API (the stored record as is, indented, keys in model order)."""
    return report.model_dump_json(indent=2)


def verdict_basis_text(claim: Mapping[str, object]) -> str:
    """What the verdict rests on, for the Markdown report: "; basis: <basis>", or nothing
    when no basis is given (a held verdict shows none), so a reader never sees "None"."""
    basis = claim.get("basis")
    return f"; basis: {basis}" if basis else ""


def _header(report: Report) -> list[str]:
    lines = [f"# Reliability report: {report.subject_name}", ""]
    if report.offline_notice:
        lines += [f"**Model:** {report.offline_notice}", ""]
    rescored = (
        f" · re-scored {report.rescored_at.isoformat()} after a steward's ruling" if report.rescored_at else ""
    )
    lines += [
        f"Method version `{report.method_version}` · generated {report.generated_at.isoformat()}{rescored} · "
        f"served until {report.served_until.date().isoformat()} · content hash `{report.content_hash[:16]}`",
        "",
        "Every verdict and score is machine-generated and unreviewed.",
        "",
    ]
    return lines


def _scores_table(report: Report) -> list[str]:
    lines = [
        "| Score | Value | 80% interval | Checked claims | Documents | Confidence | Prior |",
        "|---|---|---|---|---|---|---|",
    ]
    for ts in report.type_scores:
        value = "insufficient record" if ts.insufficient_record else _points(ts.score)
        lines.append(
            f"| {_TYPE_LABELS.get(ts.claim_type, ts.claim_type)} | {value} | "
            f"{_interval(ts.interval_low, ts.interval_high)} | {ts.n} | {ts.documents} | {ts.confidence} | "
            f"{ts.prior.mean:.0f} ({ts.prior.source}) |"
        )
    if report.overall is not None:
        ov = report.overall
        value = "insufficient record" if ov.insufficient_record else _points(ov.score)
        lines.append(
            f"| **Overall** | {value} | {_interval(ov.interval_low, ov.interval_high)} | {ov.n} | "
            f"{ov.documents} | {ov.confidence} | — |"
        )
    return lines


def _confidence_lines(report: Report) -> list[str]:
    lines = ["", "## Confidence", ""]
    for ts in report.type_scores:
        lines.append(
            f"- {_TYPE_LABELS.get(ts.claim_type, ts.claim_type)}: {ts.confidence}. "
            + "; ".join(ts.confidence_reasons)
        )
    if report.overall is not None:
        lines.append(
            f"- Overall: {report.overall.confidence}. " + "; ".join(report.overall.confidence_reasons)
        )
    return lines


def _brier_lines(report: Report) -> list[str]:
    brier = report.brier
    if brier is None:
        return []
    if brier.value is None:
        text = (
            f"no predictions with an exact stated probability were resolved (baseline {brier.baseline:.2f})"
        )
    else:
        text = (
            f"{brier.value:.3f} over {brier.n} prediction{'s' if brier.n != 1 else ''} with an exact stated "
            f"probability (always saying 50% scores {brier.baseline:.2f}; lower is better)"
        )
    return ["", f"**Brier score:** {text}"]


def _counts_lines(report: Report) -> list[str]:
    share = "—" if report.checkable_share is None else f"{100 * report.checkable_share:.0f}%"
    lines = [
        "",
        f"**Checkable share:** {share} of extracted statements are checkable at all.",
        "",
        f"{report.documents_sampled} documents sampled from {report.candidates_found} candidates found.",
        "",
        "## Counts",
        "",
        "| State | Claims |",
        "|---|---|",
    ]
    for name, value in report.counts.model_dump().items():
        lines.append(f"| {name.replace('_', ' ')} | {value} |")
    if report.not_scored:
        lines += ["", "Counted, not scored:", ""]
        lines += [f"- {reason}: {count}" for reason, count in report.not_scored.items()]
    return lines


def _claim_lines(claim: dict[str, object]) -> list[str]:
    verified = "verified quote" if claim.get("quote_verified") else "UNVERIFIED quote"
    lines = [
        f"### {claim.get('claim_type')} · {claim.get('claim_id')}",
        "",
        f"> {claim.get('quote')}",
        "",
        f"- {verified}; source: {claim.get('source_url')}",
        f"- Restatement: {claim.get('restatement')}",
        f"- Triage: {claim.get('triage')} ({claim.get('triage_reason')}); sampled: {'yes' if claim.get('sampled') else 'no'}",
    ]
    if claim.get("not_scored_reason"):
        lines.append(f"- Counted, not scored: {claim.get('not_scored_reason')}")
    criteria = claim.get("criteria")
    if isinstance(criteria, dict):
        lines.append(
            f"- Criteria written at {criteria.get('written_at')} (judge at {criteria.get('judge_at')})"
        )
    evidence = claim.get("evidence")
    if isinstance(evidence, list):
        for item in evidence:
            if isinstance(item, dict):
                lines.append(
                    f"  - evidence ({item.get('source_class')}, {item.get('side')}): {item.get('url')} "
                    + (f"· fetch sha256 {str(item.get('fetch_sha256'))[:12]}" if item.get("fetch_sha256") else "· no fetch hash")
                    + (f" · excluded: {item.get('exclusion_reason')}" if item.get("excluded") else "")
                )
    if claim.get("verdict") is not None:
        line = f"- Verdict: **{claim.get('verdict')}**" + verdict_basis_text(claim)
        for key in ("judge_a", "judge_b"):
            judge = claim.get(key)
            if isinstance(judge, dict):
                line += f"; judge {judge.get('judge')} ({judge.get('model')}): {judge.get('verdict')}"
        if claim.get("judges_disagree"):
            line += "; **judges disagree**"
        if claim.get("self_reported_only"):
            line += "; self-reported only"
        lines.append(line)
        gate = claim.get("gate")
        if isinstance(gate, dict):
            failed = gate.get("failed") or []
            shown = "shown" if gate.get("shown") else "held"
            lines.append(f"- Display gate: {shown}" + (f" ({', '.join(map(str, failed))})" if failed else ""))
    for key, label in (("responses", "Subject response"), ("steward_rulings", "Steward ruling")):
        items = claim.get(key)
        if isinstance(items, list):
            for item in items:
                if isinstance(item, dict):
                    detail = (
                        item.get("status")
                        if key == "responses"
                        else f"{item.get('action')}: {item.get('reason')}"
                    )
                    lines.append(f"- {label}: {detail}")
    lines.append("")
    return lines


CLAIM_ROW_COLUMNS = ("claim", "type", "verdict", "basis", "judges", "display", "evidence")


def claim_rows(report: Report) -> list[dict[str, str]]:
    """One scannable row per claim of the report ([#18] "a claims table"): the quote, its
    type, the verdict and basis, both judges' verdicts, whether it is shown or held and
    why (or why it is only counted), and the evidence links."""
    rows = []
    for claim in report.claims:
        judges = []
        for key in ("judge_a", "judge_b"):
            judge = claim.get(key)
            if isinstance(judge, dict):
                judges.append(f"{judge.get('judge')}: {judge.get('verdict')}")
        if claim.get("judges_disagree"):
            judges.append("disagree")
        gate = claim.get("gate")
        if isinstance(gate, dict):
            failed = ", ".join(map(str, gate.get("failed") or []))
            display = "shown" if gate.get("shown") else f"held ({failed or 'a display gate failed'})"
        else:
            display = f"not judged ({claim.get('not_scored_reason') or claim.get('triage')})"
        evidence = claim.get("evidence")
        links = [str(e.get("url")) for e in evidence if isinstance(e, dict) and not e.get("excluded")] if isinstance(evidence, list) else []
        rows.append(
            {
                "claim": str(claim.get("quote") or ""),
                "type": str(claim.get("claim_type") or ""),
                "verdict": str(claim.get("verdict") or "—"),
                "basis": str(claim.get("basis") or "—"),
                "judges": "; ".join(judges) or "—",
                "display": display,
                "evidence": " ".join(dict.fromkeys(links)) or "—",
            }
        )
    return rows


def report_markdown(report: Report, *, include_claims: bool = True) -> str:
    """The report in Markdown, for Dagster metadata and humans."""
    lines = _header(report)
    if not report.covered:
        # [#27] a subject the stand-in does not know has no coverage decision, not a refusal.
        heading = "**No coverage decision: needs live providers.**" if report.needs_live_providers else "**Not covered.**"
        lines += [heading, ""] + [f"- {r}" for r in report.coverage_reasons]
        return "\n".join(lines) + "\n"
    lines += ["## Scores", "", *_scores_table(report)]
    lines += _confidence_lines(report)
    lines += _brier_lines(report)
    lines += _counts_lines(report)
    if report.models_used:
        lines += ["", "## Models used", ""]
        lines += [f"- {step}: {model}" for step, model in report.models_used.items()]
    if include_claims and report.claims:
        lines += ["", "## Claims", ""]
        for claim in report.claims:
            lines += _claim_lines(claim)
    return "\n".join(lines).rstrip() + "\n"


def _rows(report: Report) -> Sequence[tuple[str, float | None, float | None, float | None, int]]:
    rows: list[tuple[str, float | None, float | None, float | None, int]] = [
        (_TYPE_LABELS.get(ts.claim_type, ts.claim_type), ts.score, ts.interval_low, ts.interval_high, ts.n)
        for ts in report.type_scores
    ]
    if report.overall is not None:
        ov = report.overall
        rows.append(("Overall", ov.score, ov.interval_low, ov.interval_high, ov.n))
    return rows


def report_chart_png(report: Report) -> bytes:
    """A PNG (800 x 400 px) of the type and overall scores as points with their 80%
    interval bars and the number of checked claims behind each; a type with an
    insufficient record is written as such instead of a point."""
    # The Agg canvas directly, not pyplot: no global figure state, no display, safe in
    # worker threads and processes. Imported here, not with the module: matplotlib costs
    # a process ~0.9 s, and most importers of this module draw no chart (issue 29).
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=CHART_SIZE_INCHES, dpi=CHART_DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    rows = list(reversed(_rows(report)))
    for y, (label, score, low, high, n) in enumerate(rows):
        colour = "#1f3b73" if label == "Overall" else "#3a7bd5"
        if score is None or low is None or high is None:
            ax.text(
                50, y, f"insufficient record (n={n})", ha="center", va="center", color="#777777", fontsize=10
            )
            continue
        ax.hlines(y, low, high, color=colour, linewidth=3)
        ax.plot([score], [y], "o", color=colour, markersize=9)
        ax.text(
            score,
            y + 0.15,
            f"{score:.0f} [{low:.0f}–{high:.0f}], n={n}",
            va="bottom",
            ha="center",
            fontsize=9,
        )
    if not rows:
        reason = report.coverage_reasons[0] if report.coverage_reasons else "no scores"
        ax.text(50, 0, reason[:90], ha="center", va="center", color="#777777", fontsize=9)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([r[0] for r in rows])
    ax.set_ylim(-0.7, max(len(rows), 1) - 0.3)
    ax.set_xlim(0, 100)
    ax.set_xlabel("Score (0–100) with 80% interval")
    ax.grid(axis="x", color="#dddddd")
    title = f"{report.subject_name}: reliability scores"
    if not report.covered:
        title = f"{report.subject_name}: {'needs live providers' if report.needs_live_providers else 'not covered'}"
    ax.set_title(title, fontsize=11)
    footer = f"method {report.method_version}"
    if report.offline_notice:
        footer = f"{report.offline_notice} · {footer}"
    fig.text(0.01, 0.01, footer, fontsize=7, color="#555555")
    fig.subplots_adjust(left=0.15, right=0.97, top=0.9, bottom=0.2)
    buffer = io.BytesIO()
    # No bbox_inches="tight": the image size stays fixed whatever the labels are.
    fig.savefig(buffer, format="png", dpi=CHART_DPI, metadata={"Software": None})
    return buffer.getvalue()
