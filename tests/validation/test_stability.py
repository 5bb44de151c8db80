"""Re-run stability on hand-made runs."""

from __future__ import annotations

import pytest

from reliability_core.models import ClaimVerdict, Verdict
from reliability_core.scores.scoring import posterior_score
from reliability_core.validation.stability import collect_reruns, rerun_stability, transition_kind
from tests.validation.fakes import claim, claim_verdict

CLAIMS = [claim(f"f{n}") for n in range(6)] + [
    claim("p1", "promise"),
    claim("x1", subject_id="harbour-trust"),
]


def _run(verdicts: dict[str, Verdict]) -> list[ClaimVerdict]:
    return [
        claim_verdict(cid, v, subject_id="harbour-trust" if cid == "x1" else "northwind")
        for cid, v in verdicts.items()
    ]


RUN_1 = _run(
    {
        "f0": "true",
        "f1": "true",
        "f2": "true",
        "f3": "true",
        "f4": "unresolvable",
        "f5": "false",
        "p1": "true",
        "x1": "true",
    }
)
RUN_2 = _run(
    {
        "f0": "true",
        "f1": "true",
        "f2": "true",
        "f3": "unresolvable",
        "f4": "true",
        "f5": "mostly_false",
        "p1": "true",
        "x1": "true",
    }
)


@pytest.mark.parametrize(
    ("before", "after", "kind"),
    [
        ("true", "true", "unchanged"),
        ("unresolvable", "true", "unresolvable->verdict"),
        ("true", "unresolvable", "verdict->unresolvable"),
        ("false", "mostly_false", "verdict->other verdict"),
        ("no_verdict", "true", "no_verdict->verdict"),
    ],
)
def test_transition_kinds_separate_unresolvable_from_verdict_changes(
    before: str, after: str, kind: str
) -> None:
    assert transition_kind(before, after) == kind


def test_stability_reports_share_unchanged_and_transitions_per_subject() -> None:
    reports = {r.subject_id: r for r in rerun_stability(CLAIMS, [RUN_1, RUN_2])}
    northwind = reports["northwind"]
    assert (northwind.claims, northwind.unchanged) == (7, 4)
    assert northwind.share_unchanged == pytest.approx(4 / 7)
    assert northwind.changed_claims == ["f3", "f4", "f5"]
    assert northwind.transition_kinds == {
        "unresolvable->verdict": 1,
        "verdict->other verdict": 1,
        "verdict->unresolvable": 1,
    }
    assert reports["harbour-trust"].share_unchanged == 1.0


def test_type_score_movement_uses_the_scoring_formula() -> None:
    [report] = [r for r in rerun_stability(CLAIMS, [RUN_1, RUN_2]) if r.subject_id == "northwind"]
    factual = next(s for s in report.scores if s.scope == "factual")
    # Run 1: f0-f3 true, f5 false -> n=5, sum=4; run 2: f0-f2, f4 true, f5 mostly false -> n=5, sum=4.25.
    assert factual.checked == [5, 5]
    assert factual.scores[0] == pytest.approx(posterior_score(2, 2, 5, 4.0))
    assert factual.movement == pytest.approx(posterior_score(2, 2, 5, 4.25) - posterior_score(2, 2, 5, 4.0))
    overall = next(s for s in report.scores if s.scope == "overall")
    assert overall.movement is not None and overall.movement > 0
    promise = next(s for s in report.scores if s.scope == "promise")
    assert promise.movement == pytest.approx(0.0) and promise.sufficient == [False, False]


def test_a_claim_missing_from_a_run_counts_as_changed() -> None:
    run_2 = [v for v in RUN_1 if v.claim_id != "f0"]
    [report] = [r for r in rerun_stability(CLAIMS, [RUN_1, run_2]) if r.subject_id == "northwind"]
    assert report.changed_claims == ["f0"]
    assert report.transition_kinds == {"verdict->no_verdict": 1}


def test_stability_needs_two_runs() -> None:
    with pytest.raises(ValueError):
        rerun_stability(CLAIMS, [RUN_1])


async def test_reruns_are_collected_in_run_order() -> None:
    calls: list[int] = []

    async def run_once(i: int) -> list[ClaimVerdict]:
        calls.append(i)
        return RUN_1 if i == 0 else RUN_2

    runs = await collect_reruns(3, run_once)
    assert calls == [0, 1, 2] and runs[0] == RUN_1 and runs[2] == RUN_2
