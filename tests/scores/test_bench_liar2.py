"""The LIAR2 benchmark's label mapping and its run on a tiny file (no network)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.bench_scoring_liar2 import LIAR2_LABEL_TO_VERDICT, load_liar2, run

HEADER = "id,label,statement,date,subject,speaker\n"


def test_pants_on_fire_and_false_both_map_to_false() -> None:
    assert LIAR2_LABEL_TO_VERDICT[0] == LIAR2_LABEL_TO_VERDICT[1] == "false"
    assert [LIAR2_LABEL_TO_VERDICT[i] for i in (2, 3, 4, 5)] == [
        "mostly_false",
        "mixed",
        "mostly_true",
        "true",
    ]


def test_benchmark_scores_one_subject_per_speaker(tmp_path: Path) -> None:
    rows = [f'{i},5,"Claim {i}","March 1, 20{10 + i}",x,alice' for i in range(5)]
    rows += ['9,0,"Claim, with comma","May 2, 2019",x,bob']
    path = tmp_path / "valid.csv"
    path.write_text(HEADER + "\n".join(rows) + "\n", encoding="utf-8")
    assert {k: len(v) for k, v in load_liar2(path).items()} == {"alice": 5, "bob": 1}
    result = run(path)
    alice = next(s for s in result.scores if s.speaker == "alice")
    bob = next(s for s in result.scores if s.speaker == "bob")
    assert alice.score is not None and round(alice.score) == 78
    assert bob.score is None and bob.confidence == "insufficient"
    assert result.subjects == 2 and result.scored_subjects == 1
    assert result.seconds_per_1000_subjects == pytest.approx(500 * result.seconds)
