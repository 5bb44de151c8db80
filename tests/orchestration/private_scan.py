"""Scan every file a run leaves behind for the answer key's private-life statements
([M] step 4 "dropped before anything is stored"): used for the demo and the rehearsal."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from reliability_core.text.normalise import normalise_for_match


def everything_left_behind(root: Path) -> dict[str, str]:
    """Every file under ``root`` as text: Parquet tables read through pyarrow (their
    pages are compressed), everything else (ledger and cache JSON, Dagster's SQLite
    and compute logs, chart files) as its bytes decoded."""
    found: dict[str, str] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        where = path.relative_to(root).as_posix()
        if path.suffix == ".parquet":
            found[where] = json.dumps(pq.read_table(path).to_pylist(), default=str, ensure_ascii=False)
        else:
            found[where] = path.read_bytes().decode("utf-8", errors="ignore")
    return found


def needles(quote: str) -> list[str]:
    """The quote normalised, and its words up to the first non-ASCII one (so a JSON
    store that escapes "Fanø" as "Fan\\u00f8" is still caught)."""
    found = [normalise_for_match(quote).text]
    words = quote.split()
    ascii_words = list(itertools.takewhile(str.isascii, words))
    if len(ascii_words) < len(words) and len(ascii_words) >= 5:
        found.append(normalise_for_match(" ".join(ascii_words)).text)
    return found


def private_statements(key: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in key["statements"] if s.get("drop_reason") == "private_life"]


def leaks(files: dict[str, str], statements: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(quote, file) for every private-life statement found in any file."""
    texts = {where: normalise_for_match(text).text for where, text in files.items()}
    return [
        (s["quote"], where)
        for s in statements
        for where, text in texts.items()
        if any(needle in text for needle in needles(s["quote"]))
    ]
