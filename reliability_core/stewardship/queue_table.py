"""The steward's queue as people read it (issue 27): per claim what was claimed, the
quote it rests on, both judges, the display gate's outcome, the evidence links and why
it is queued. One set of rows, rendered as a plain-text table for ``reliability steward
list`` and as a Markdown table for the ``steward_queue`` assets in the Dagster UI."""

from __future__ import annotations

from collections.abc import Sequence

from reliability_core.constants import STEWARD_SAMPLE_RATE, STEWARD_WINDOW_DAYS
from reliability_core.stewardship.steward import StewardQueueItem
from reliability_core.text.layout import markdown_table, text_table

QUEUE_COLUMNS = ("subject / claim", "claim", "quote", "judges", "gate", "why queued", "evidence")
# Terminal widths of the columns above, about 150 characters in all; the evidence links
# come last so a long address runs on whole instead of being broken.
_TEXT_WIDTHS = (16, 26, 28, 14, 14, 24, 22)
_NOT_STORED = "(not stored with this queue)"


def why_queued(item: StewardQueueItem) -> str:
    """Why the claim is in the queue, in plain words ([V] §04 "Every dispute, plus a random
    10% of everything verified in the last seven days"; held verdicts go to the steward)."""
    parts: list[str] = []
    if "disputed" in item.reasons:
        if item.judges_disagree or (item.judge_a and item.judge_b and item.judge_a != item.judge_b):
            parts.append(f"judges disagree (A: {item.judge_a}, B: {item.judge_b})")
        if item.numeric_disputed:
            parts.append("the judges' blind readings of the number differ")
        if not parts:
            parts.append("disputed")
    if "held" in item.reasons:
        if item.steering_detected:
            parts.append("steering detected")
        held = f"held by the display gate: {', '.join(item.gate_failed)}" if item.gate_failed else ""
        if held or not item.steering_detected:
            parts.append(held or "held by the display gate")
    if "random_sample" in item.reasons:
        parts.append(
            f"random {STEWARD_SAMPLE_RATE:.0%} sample of the last {STEWARD_WINDOW_DAYS} days' verdicts "
            f"(seed {item.sample_seed})"
        )
    return "; ".join(parts)


def _judges(item: StewardQueueItem) -> str:
    return f"A: {item.judge_a or 'none'}\nB: {item.judge_b or 'none'}\nverdict: {item.verdict}"


def _gate(item: StewardQueueItem) -> str:
    if item.shown:
        return "shown"
    return "held" + (f" ({', '.join(item.gate_failed)})" if item.gate_failed else "")


def queue_rows(items: Sequence[StewardQueueItem], *, markdown: bool = False) -> list[list[str]]:
    """One row per queue item, in ``QUEUE_COLUMNS`` order; evidence as links when ``markdown``."""
    rows = []
    for item in items:
        if markdown:
            links = [f"[{n}]({url})" for n, url in enumerate(item.evidence_urls, 1)]
            evidence = " ".join(links) or "none cited"
            where = f"[{item.claim_id}]({item.claim_url})" if item.claim_url else item.claim_id
        else:
            evidence = "\n".join(item.evidence_urls) or "none cited"
            where = item.claim_id
        rows.append(
            [
                f"{item.subject_id}\n{where}",
                item.claim or _NOT_STORED,
                f"“{item.quote}”" if item.quote else _NOT_STORED,
                _judges(item),
                _gate(item),
                why_queued(item),
                evidence,
            ]
        )
    return rows


def queue_text(items: Sequence[StewardQueueItem]) -> str:
    """The queue as a plain-text table for a terminal (cells wrap, nothing is cut off)."""
    if not items:
        return "The steward queue is empty."
    return text_table(QUEUE_COLUMNS, queue_rows(items), _TEXT_WIDTHS)


def queue_markdown(items: Sequence[StewardQueueItem]) -> str:
    """The queue as a Markdown table (the ``steward_queue`` assets' metadata in the UI)."""
    if not items:
        return "The steward queue is empty: no disputed or held claim, and nothing sampled."
    return markdown_table(QUEUE_COLUMNS, queue_rows(items, markdown=True))
