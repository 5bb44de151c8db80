"""Tables for people to read: a plain-text table for a terminal and a Markdown table for
the Dagster UI and the reports. The steward's queue and the evaluator's backtest are
both shown through these, so a column reads the same in the CLI and in the UI.

Cells are plain strings; a cell longer than its column wraps onto more lines (words are
kept whole where they fit), so nothing a steward must read is cut off."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence


def _wrapped(cell: str, width: int, *, break_long_words: bool = True) -> list[str]:
    lines: list[str] = []
    for paragraph in cell.splitlines() or [""]:
        lines += textwrap.wrap(
            paragraph, width, break_long_words=break_long_words, break_on_hyphens=False
        ) or [""]
    return lines


def text_table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], widths: Sequence[int] | None = None
) -> str:
    """A plain-text table: a header line, a rule, then one block per row whose cells wrap
    within their column's width (``widths``; by default each column is as wide as its
    widest cell). Columns are separated by two spaces; no trailing spaces. A word longer
    than its column is broken, except in the last column, where it runs past the width
    (nothing follows it to misalign), so links placed last stay whole and clickable."""
    if any(len(row) != len(headers) for row in rows):
        raise ValueError("every row needs one cell per header")
    if widths is None:
        widths = [
            max([len(h), *(len(line) for row in rows for line in row[i].splitlines() or [""])])
            for i, h in enumerate(headers)
        ]
    if len(widths) != len(headers):
        raise ValueError("one width per column")
    widths = [max(w, 1) for w in widths]

    last = len(widths) - 1

    def block(cells: Sequence[str]) -> list[str]:
        columns = [
            _wrapped(c, w, break_long_words=i != last)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        height = max(len(c) for c in columns)
        return [
            "  ".join(
                (c[i] if i < len(c) else "").ljust(w) for c, w in zip(columns, widths, strict=True)
            ).rstrip()
            for i in range(height)
        ]

    out = block(headers)
    out.append("  ".join("-" * w for w in widths))
    for n, row in enumerate(rows):
        if n and any(len(_wrapped(c, w)) > 1 for c, w in zip(row, widths, strict=True)):
            out.append("")  # a blank line between multi-line rows keeps them apart
        out += block(row)
    return "\n".join(out)


def markdown_cell(text: str) -> str:
    """A cell's text made safe for a Markdown table: pipes escaped, line breaks as ``<br>``."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", "\n").replace("\n", "<br>")


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown (GitHub-flavoured) table; cells are escaped by ``markdown_cell``, so pass
    Markdown links already formed (``[text](url)``) only where a link is meant."""
    if any(len(row) != len(headers) for row in rows):
        raise ValueError("every row needs one cell per header")
    lines = ["| " + " | ".join(markdown_cell(h) for h in headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(markdown_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
