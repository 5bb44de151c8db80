"""Benchmark: score a large real track record with the method's scoring functions.

Data: LIAR2 validation split (``shared/data/liar2/valid.csv``): PolitiFact
statements, each with a six-level label in column ``label``:
0 pants-fire, 1 false, 2 barely-true, 3 half-true, 4 mostly-true, 5 true.

Mapping onto the five verdict values ([#8] "mapped onto the five verdict values
with 'pants on fire' as false"):

    0 pants on fire -> false         (0.0)
    1 false         -> false         (0.0)
    2 barely true   -> mostly_false  (0.25)
    3 half true     -> mixed         (0.5)
    4 mostly true   -> mostly_true   (0.75)
    5 true          -> true          (1.0)

One subject per ``speaker``; every statement is scored as a checked factual
claim, and each fact-check counts as its own document (its year from
``date``). For each subject the benchmark computes the factual type score
and interval, the overall score with its seeded interval (20,000 draws), and
the confidence with its reasons, exactly as a report does, and reports the
time per 1,000 subjects.

Run: ``.venv/bin/python benchmarks/bench_scoring_liar2.py [path/to/valid.csv]``.
Importing this module runs nothing.
"""

from __future__ import annotations

import csv
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from reliability_core.constants import VERDICT_VALUES
from reliability_core.scores.confidence import assess_confidence
from reliability_core.scores.scoring import CheckedClaim, default_prior, overall_posterior, type_posterior

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "shared" / "data" / "liar2" / "valid.csv"

LIAR2_LABEL_TO_VERDICT: dict[int, str] = {
    0: "false",  # pants on fire
    1: "false",
    2: "mostly_false",  # barely true
    3: "mixed",  # half true
    4: "mostly_true",
    5: "true",
}


@dataclass(frozen=True)
class Statement:
    speaker: str
    statement_id: str
    value: float
    year: int | None


@dataclass(frozen=True)
class SubjectScore:
    speaker: str
    n: int
    score: float | None
    interval: tuple[float, float] | None
    overall: float | None
    confidence: str


@dataclass(frozen=True)
class BenchmarkResult:
    statements: int
    subjects: int
    scored_subjects: int
    seconds: float
    scores: list[SubjectScore]

    @property
    def seconds_per_1000_subjects(self) -> float:
        return 1000.0 * self.seconds / self.subjects if self.subjects else 0.0


def _year(text: str) -> int | None:
    try:
        return datetime.strptime(text.strip(), "%B %d, %Y").year
    except ValueError:
        return None


def load_liar2(path: Path = DEFAULT_PATH) -> dict[str, list[Statement]]:
    """Statements grouped by speaker, labels mapped onto verdict values."""
    by_speaker: dict[str, list[Statement]] = defaultdict(list)
    with path.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            verdict = LIAR2_LABEL_TO_VERDICT[int(row["label"])]
            speaker = row["speaker"].strip() or "unknown"
            by_speaker[speaker].append(
                Statement(speaker, row["id"], VERDICT_VALUES[verdict], _year(row.get("date") or ""))
            )
    return dict(by_speaker)


def score_subject(speaker: str, statements: Sequence[Statement]) -> SubjectScore:
    """One speaker scored as a report would score a subject with only factual claims."""
    checked = [CheckedClaim(s.statement_id, "factual", s.value, s.statement_id) for s in statements]
    factual = type_posterior("factual", checked, default_prior())
    overall = overall_posterior([factual])
    confidence = assess_confidence(
        n_checked=factual.n,
        n_documents=factual.documents,
        interval_width=factual.interval_high - factual.interval_low if factual.sufficient else None,
        years=[s.year for s in statements if s.year is not None],
        documents_sampled=factual.documents,
        candidates_found=factual.documents,
    )
    return SubjectScore(
        speaker=speaker,
        n=factual.n,
        score=factual.mean if factual.sufficient else None,
        interval=(factual.interval_low, factual.interval_high) if factual.sufficient else None,
        overall=overall.mean,
        confidence=confidence.level,
    )


def run(path: Path = DEFAULT_PATH) -> BenchmarkResult:
    """Load, then time the scoring of every speaker (loading is not timed)."""
    by_speaker = load_liar2(path)
    start = time.perf_counter()
    scores = [score_subject(speaker, items) for speaker, items in sorted(by_speaker.items())]
    seconds = time.perf_counter() - start
    return BenchmarkResult(
        statements=sum(len(v) for v in by_speaker.values()),
        subjects=len(by_speaker),
        scored_subjects=sum(1 for s in scores if s.score is not None),
        seconds=seconds,
        scores=scores,
    )


def summary(result: BenchmarkResult) -> str:
    scored = sorted((s for s in result.scores if s.score is not None), key=lambda s: s.n, reverse=True)
    levels: dict[str, int] = defaultdict(int)
    for s in result.scores:
        levels[s.confidence] += 1
    lines = [
        f"LIAR2 valid: {result.statements} statements, {result.subjects} subjects (speakers)",
        f"scored (>= 5 checked claims): {result.scored_subjects}; "
        f"insufficient record: {result.subjects - result.scored_subjects}",
        f"confidence levels: {dict(sorted(levels.items()))}",
        f"time: {result.seconds:.3f} s in all, {result.seconds_per_1000_subjects:.3f} s per 1,000 subjects",
    ]
    if scored:
        lines.append(
            f"median score of scored subjects: {statistics.median(s.score or 0.0 for s in scored):.1f}"
        )
        lines.append("largest records:")
        for s in scored[:8]:
            assert s.score is not None and s.interval is not None
            lines.append(
                f"  {s.speaker:<28} n={s.n:<4} score {s.score:5.1f} "
                f"[{s.interval[0]:.1f}-{s.interval[1]:.1f}] {s.confidence}"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    path = Path(args[0]) if args else DEFAULT_PATH
    print(summary(run(path)))


if __name__ == "__main__":
    main()
