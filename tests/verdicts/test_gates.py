"""Each display gate, and decide_display holding a verdict that fails one."""

from __future__ import annotations

from reliability_core.models.verdicts import ClaimVerdict, GateOutcome, VerdictReview
from reliability_core.verdicts.gates import (
    decide_display,
    gate_basis_disclosed,
    gate_independent_publishers,
    gate_judge_a_confidence,
    gate_no_reliable_contradiction,
    gate_no_steering,
    gate_numeric_extractions_agree,
    gate_reviewer_found_no_major_problem,
)
from reliability_core.verdicts.steering import SteeringFinding, SteeringResult
from reliability_core.verdicts.usable_evidence import usable_view
from tests.verdicts.factories import FETCHED, MV, make_item

CLEAN = SteeringResult(detected=False)
STEERED = SteeringResult(
    detected=True,
    findings=[
        SteeringFinding(kind="role_marker", source="page", language="any", excerpt="SYSTEM:", rule="r")
    ],
)


def verdict(v: str = "true", **overrides: object) -> ClaimVerdict:
    fields: dict[str, object] = {
        "method_version": MV,
        "claim_id": "clm_1",
        "subject_id": "northwind",
        "verdict": v,
        "judge_a": None,
        "judge_b": None,
        "judges_disagree": False,
        "basis": "independent_source",
        "gate": GateOutcome(shown=False),
        "decided_at": FETCHED,
        "review": VerdictReview(reviewer="fake-reviewer"),
    }
    fields.update(overrides)
    return ClaimVerdict(**fields)  # type: ignore[arg-type]


def test_two_independent_publishers_with_a_major_one_pass() -> None:
    items = [make_item("a"), make_item("b", primary_or_major=False, source_class="established_newsroom")]
    assert gate_independent_publishers("true", usable_view(items)).passed


def test_one_publisher_twice_fails_the_publisher_gate() -> None:
    items = [make_item("a", publisher="Wire"), make_item("b", publisher="Wire")]
    assert not gate_independent_publishers("true", usable_view(items)).passed


def test_two_minor_publishers_fail_the_primary_or_major_requirement() -> None:
    items = [make_item("a", primary_or_major=False), make_item("b", primary_or_major=False)]
    assert not gate_independent_publishers("true", usable_view(items)).passed


def test_excluded_copies_and_unverified_quotes_do_not_count_as_publishers() -> None:
    items = [
        make_item("a"),
        make_item("b", excluded=True, exclusion_reason="same story"),
        make_item("c", quote_verified=False),
    ]
    assert not gate_independent_publishers("true", usable_view(items)).passed


def test_evidence_for_the_other_side_does_not_back_a_verdict() -> None:
    items = [make_item("a"), make_item("b", stance="contradicts")]
    assert not gate_independent_publishers("true", usable_view(items)).passed
    assert gate_independent_publishers("mixed", usable_view(items)).passed


def test_judge_a_confidence_gate_threshold_is_inclusive_at_080() -> None:
    assert gate_judge_a_confidence(0.80).passed
    assert not gate_judge_a_confidence(0.79).passed
    assert not gate_judge_a_confidence(None).passed


def test_reliable_contradiction_fails_the_gate() -> None:
    items = [make_item("a"), make_item("b", stance="contradicts")]
    assert not gate_no_reliable_contradiction("true", usable_view(items)).passed


def test_contradiction_from_a_rejected_or_excluded_source_does_not_count() -> None:
    items = [make_item("a"), make_item("b", stance="contradicts", excluded=True, exclusion_reason="forum")]
    assert gate_no_reliable_contradiction("true", usable_view(items)).passed


def test_steering_fails_its_gate() -> None:
    assert not gate_no_steering(STEERED).passed
    assert gate_no_steering(CLEAN).passed


def test_records_only_verdict_must_say_so_in_its_basis() -> None:
    items = [make_item("a", subject_own=True, independent=False, source_class="official_record")]
    assert not gate_basis_disclosed(verdict(basis="independent_source"), usable_view(items)).passed
    assert gate_basis_disclosed(verdict(basis="official_records_only"), usable_view(items)).passed


def test_numeric_dispute_fails_its_gate() -> None:
    assert not gate_numeric_extractions_agree(verdict(numeric_disputed=True)).passed


def test_verdict_passing_every_gate_is_shown() -> None:
    items = [make_item("a"), make_item("b")]
    outcome = decide_display(verdict(), usable_view(items), 0.9, CLEAN)
    assert outcome.shown and outcome.failed == []


def test_verdict_failing_a_gate_is_held_with_the_gate_named() -> None:
    items = [make_item("a"), make_item("b")]
    outcome = decide_display(verdict(), usable_view(items), 0.9, STEERED)
    assert not outcome.shown and outcome.failed == ["no_steering"]
    low = decide_display(verdict(), usable_view(items), 0.5, CLEAN)
    assert low.failed == ["judge_a_confidence"]


def test_unresolvable_verdict_is_not_gated_except_for_steering() -> None:
    assert decide_display(verdict("unresolvable"), usable_view([]), None, CLEAN).shown
    assert decide_display(verdict("unresolvable"), usable_view([]), None, STEERED).failed == ["no_steering"]


def test_official_records_alone_pass_the_publisher_gate_and_are_governed_by_the_basis_gate() -> None:
    filing = make_item(
        "f",
        url="https://exchange.example/filings/northwind/annual-report-2024",
        source_class="official_record",
        subject_own=True,
        independent=False,
        publisher="Northwind Energy A/S (filing)",
    )
    assert gate_independent_publishers("true", usable_view([filing])).passed
    assert gate_basis_disclosed(verdict("true", basis="official_records_only"), usable_view([filing])).passed
    assert not gate_basis_disclosed(verdict("true", basis="independent_source"), usable_view([filing])).passed


def test_the_subjects_own_filing_never_counts_toward_the_two_independent_publishers() -> None:
    """[#15] rule 8: a verdict backed by the subject's filing and one minor local paper has one
    independent publisher and no independent primary or major one: held."""
    filing = make_item("f", source_class="official_record", subject_own=True, independent=False, publisher="NW")
    minor = make_item("m", publisher="Local paper", primary_or_major=False, source_class="established_newsroom")
    check = gate_independent_publishers("true", usable_view([filing, minor]))
    assert not check.passed
    assert "1 independent publisher(s)" in check.note and "0 primary or major" in check.note
    major = make_item("w", publisher="Wire", primary_or_major=True)
    assert gate_independent_publishers("true", usable_view([filing, minor, major])).passed


def test_a_verdict_the_reviewer_found_a_major_problem_with_is_held() -> None:
    """[#15] rule 7: "a verdict with a major problem is held"; an unreviewed one has not passed."""
    items = usable_view([make_item("a"), make_item("b")])
    flagged = verdict(review=VerdictReview(reviewer="gpt-6.1-sol-pro", major_problems=["ev a is about 2023"]))
    outcome = decide_display(flagged, items, 0.9, CLEAN)
    assert not outcome.shown and outcome.failed == ["reviewer_found_no_major_problem"]
    assert decide_display(verdict(review=None), items, 0.9, CLEAN).failed == ["reviewer_found_no_major_problem"]
    assert gate_reviewer_found_no_major_problem(VerdictReview(reviewer="r", minor_problems=["wording"])).passed
