"""Building, hashing and rendering the report ([M] step 9, [#8] "The report")."""

from __future__ import annotations

import struct
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from reliability_core.clock import FixedClock
from reliability_core.models import ClaimVerdict, Report, StewardRuling, SubjectResponse
from reliability_core.scores.claim_entries import RESPONSE_STATUS
from reliability_core.scores.render import report_chart_png, report_json, report_markdown
from reliability_core.scores.report import OFFLINE_NOTICE, build_report, is_stale, report_content_hash
from reliability_core.scores.rulings import apply_rulings
from reliability_core.scores.scoring import StaticPriorLookup
from tests.scores.builders import (
    AT,
    MV,
    make_candidate,
    make_claim,
    make_coverage,
    make_criteria,
    make_evidence,
    make_sample,
    make_selection,
    make_statement,
    make_verdict,
)

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def _ruling(claim_id: str, action: str, *, new_verdict: str | None = None, minutes: int = 0) -> StewardRuling:
    return StewardRuling(
        method_version=MV,
        id=f"rul_{claim_id}_{action}_{minutes}",
        subject_id="northwind",
        claim_id=claim_id,
        action=action,  # type: ignore[arg-type]
        steward="steward@reliability.example",
        ruled_at=AT + timedelta(minutes=minutes),
        reason="checked the filing",
        new_verdict=new_verdict,
    )


def _inputs(**overrides: Any) -> dict[str, Any]:
    """A small subject: 7 factual claims over 4 documents, 2 promises, 1 unsampled, 1 not yet due."""
    docs = [("d1", 2019), ("d2", 2021), ("d3", 2023), ("d4", 2025)]
    claims = [
        make_claim(f"f{i}", document_id=docs[i % 4][0], statement_id=f"s{i}", made_on=None) for i in range(7)
    ]
    claims += [
        make_claim("p1", claim_type="promise", statement_id="s7"),
        make_claim("p2", claim_type="promise", statement_id="s8"),
        make_claim("u1", statement_id="s9"),
        make_claim("n1", claim_type="promise", statement_id="s10", triage="not_yet_due"),
        make_claim("v1", statement_id="s11", triage="never_resolvable"),
    ]
    samples = [make_sample(c.id, claim_type=c.claim_type, sampled=c.id != "u1") for c in claims[:10]]
    verdicts = [make_verdict(f"f{i}", "true") for i in range(5)]
    verdicts += [
        make_verdict("f5", "mostly_false", judge_b="false"),
        make_verdict("f6", "true", shown=False),
        make_verdict("p1", "true"),
        make_verdict("p2", "unresolvable", self_reported_only=True),
    ]
    inputs: dict[str, Any] = {
        "subject_id": "northwind",
        "subject_name": "Northwind Energy",
        "coverage": make_coverage(),
        "candidates": [make_candidate(f"c{i}", 2015 + i % 10) for i in range(30)]
        + [make_candidate(d, y) for d, y in docs],
        "selections": [make_selection(d, y) for d, y in docs],
        "statements": [make_statement(f"s{i}", verified=i != 3) for i in range(12)],
        "dropped": [],
        "claims": claims,
        "samples": samples,
        "criteria": [make_criteria(c.id) for c in claims[:9]],
        "evidence": [make_evidence(c.id) for c in claims[:9]],
        "verdicts": verdicts,
        "responses": [
            SubjectResponse(
                method_version=MV,
                id="resp_1",
                subject_id="northwind",
                claim_id="f5",
                body="The figure was restated in 2022.",
                received_at=AT,
            )
        ],
        "rulings": [],
        "prior_lookup": None,
        "models_used": {"judge_a": "offline-rules", "judge_b": "offline-rules"},
        "offline": True,
        "clock": FixedClock(NOW),
        "method_version": MV,
    }
    inputs.update(overrides)
    return inputs


def test_report_scores_only_checked_claims_and_counts_the_rest() -> None:
    report = build_report(**_inputs())
    factual = next(t for t in report.type_scores if t.claim_type == "factual")
    assert (factual.n, factual.sum_values) == (6, 5.25)  # f6 held, u1 unsampled
    assert factual.score == pytest.approx(100 * (2 + 5.25) / (4 + 6))
    promise = next(t for t in report.type_scores if t.claim_type == "promise")
    assert promise.insufficient_record and promise.score is None and promise.confidence == "insufficient"
    assert report.overall is not None and report.overall.n == 7
    counts = report.counts
    assert (counts.sampled, counts.resolved, counts.unresolvable, counts.held_by_gate) == (9, 8, 1, 1)
    assert (counts.judges_disagree, counts.self_reported_only, counts.not_yet_due) == (1, 1, 1)
    assert (counts.verified_quotes, counts.unverified_quotes, counts.extracted) == (11, 1, 12)
    assert report.checkable_share == pytest.approx(11 / 12)
    assert report.not_scored["not sampled for research"] == 1


def test_report_reasons_say_documents_years_and_candidates() -> None:
    report = build_report(**_inputs())
    factual = next(t for t in report.type_scores if t.claim_type == "factual")
    assert factual.confidence_reasons[0] == (
        "6 resolved claims from 4 documents, 2019 to 2025; 4 documents sampled from 34 candidates found"
    )


def test_each_claim_entry_carries_its_whole_trail() -> None:
    report = build_report(**_inputs())
    entry = next(c for c in report.claims if c["claim_id"] == "f5")
    assert entry["quote_verified"] is True and entry["source_url"] == "https://news.example/d2"
    assert isinstance(entry["criteria"], dict) and entry["criteria"]["written_at"] == AT.isoformat()
    assert isinstance(entry["evidence"], list) and entry["evidence"][0]["source_class"] == "wire_service"
    assert entry["evidence"][0]["fetch_sha256"] == "ef" * 32
    assert isinstance(entry["judge_a"], dict) and entry["judge_a"]["verdict"] == "mostly_false"
    assert isinstance(entry["judge_b"], dict) and entry["judge_b"]["verdict"] == "false"
    assert entry["judges_disagree"] is True and entry["basis"] == "independent_source"
    assert entry["responses"] == [
        {
            "id": "resp_1",
            "body": "The figure was restated in 2022.",
            "received_at": AT.isoformat(),
            "status": RESPONSE_STATUS,
        }
    ]


def test_held_verdict_is_listed_as_held_not_by_its_value() -> None:
    report = build_report(**_inputs())
    entry = next(c for c in report.claims if c["claim_id"] == "f6")
    assert entry["verdict"] == "held" and entry["scored"] is False
    assert isinstance(entry["judge_a"], dict) and entry["judge_a"]["verdict"] == "held"


def test_refused_subject_gets_a_report_that_says_why_and_nothing_else() -> None:
    report = build_report(**_inputs(coverage=make_coverage(covered=False)))
    assert report.covered is False
    assert report.coverage_reasons == ["a serving politician is out of scope"]
    assert report.type_scores == [] and report.overall is None and report.claims == []
    assert report.candidates_found == 0 and report.brier is None
    assert "Not covered" in report_markdown(report)


def test_content_hash_is_the_same_for_two_runs_on_the_same_inputs() -> None:
    first = build_report(**_inputs())
    later = build_report(**_inputs(clock=FixedClock(NOW + timedelta(days=3))))
    assert first.generated_at != later.generated_at
    assert first.content_hash == later.content_hash and len(first.content_hash) == 64
    assert first.id == later.id
    assert report_content_hash(first) == first.content_hash


def test_content_hash_does_not_depend_on_record_order() -> None:
    inputs = _inputs()
    shuffled = _inputs(claims=list(reversed(inputs["claims"])), verdicts=list(reversed(inputs["verdicts"])))
    assert build_report(**inputs).content_hash == build_report(**shuffled).content_hash


def test_content_hash_changes_when_a_verdict_changes() -> None:
    inputs = _inputs()
    changed = [v if v.claim_id != "f0" else make_verdict("f0", "false") for v in inputs["verdicts"]]
    assert build_report(**inputs).content_hash != build_report(**_inputs(verdicts=changed)).content_hash


def test_report_is_served_for_90_days_then_stale() -> None:
    report = build_report(**_inputs())
    assert report.served_until == NOW + timedelta(days=90)
    assert not is_stale(report, NOW + timedelta(days=89))
    assert is_stale(report, NOW + timedelta(days=90))


def test_prior_from_the_lookup_is_recorded_in_the_report() -> None:
    lookup = StaticPriorLookup(kind="company", scores={"factual": [70.0] * 20})
    report = build_report(**_inputs(prior_lookup=lookup))
    factual = next(t for t in report.type_scores if t.claim_type == "factual")
    assert factual.prior.mean == pytest.approx(70.0)
    assert factual.score == pytest.approx(100 * (2.8 + 5.25) / (4 + 6))


def _verdict(claim_id: str) -> ClaimVerdict:
    return make_verdict(claim_id, "mostly_false", judge_b="true")


def test_demote_without_a_new_verdict_makes_the_claim_unresolvable() -> None:
    [ruled] = apply_rulings([_verdict("c1")], [_ruling("c1", "demote")])
    assert ruled.verdict == "unresolvable" and "steward demote" in ruled.reason


def test_demote_to_a_named_verdict() -> None:
    [ruled] = apply_rulings([_verdict("c1")], [_ruling("c1", "demote", new_verdict="false")])
    assert ruled.verdict == "false"


def test_retract_withdraws_the_verdict_and_holds_it() -> None:
    [ruled] = apply_rulings([_verdict("c1")], [_ruling("c1", "retract")])
    assert ruled.verdict == "unresolvable" and not ruled.gate.shown
    assert "retracted by a steward" in ruled.gate.failed


def test_resolving_a_dispute_credits_the_chosen_judge() -> None:
    [for_b] = apply_rulings([_verdict("c1")], [_ruling("c1", "resolve_for_b")])
    [for_a] = apply_rulings([_verdict("c1")], [_ruling("c1", "resolve_for_a")])
    assert (for_b.verdict, for_a.verdict) == ("true", "mostly_false")
    assert for_b.judges_disagree  # both verdicts stay shown


def test_uphold_leaves_the_verdict_and_rulings_apply_in_order() -> None:
    rulings = [
        _ruling("c1", "resolve_for_b", minutes=5),
        _ruling("c1", "demote", new_verdict="mixed", minutes=1),
    ]
    [ruled] = apply_rulings([_verdict("c1")], rulings)
    assert ruled.verdict == "true"  # demote first, then resolve for B
    [upheld] = apply_rulings([_verdict("c1")], [_ruling("c1", "uphold")])
    assert upheld.verdict == "mostly_false"


def test_ruling_with_an_unknown_verdict_is_a_bug() -> None:
    with pytest.raises(ValueError):
        apply_rulings([_verdict("c1")], [_ruling("c1", "demote", new_verdict="pants_on_fire")])


def test_rulings_are_applied_before_scoring() -> None:
    inputs = _inputs(rulings=[_ruling("f0", "retract")])
    report = build_report(**inputs)
    factual = next(t for t in report.type_scores if t.claim_type == "factual")
    assert factual.n == 5
    entry = next(c for c in report.claims if c["claim_id"] == "f0")
    assert isinstance(entry["steward_rulings"], list) and entry["steward_rulings"][0]["action"] == "retract"


def test_every_rendering_of_an_offline_report_says_offline_rules() -> None:
    report = build_report(**_inputs())
    assert OFFLINE_NOTICE in report_markdown(report)
    assert OFFLINE_NOTICE in report_json(report)
    assert Report.model_validate_json(report_json(report)) == report


def test_live_report_does_not_claim_to_be_offline() -> None:
    report = build_report(**_inputs(offline=False, models_used={"judge_a": "claude-opus-5.5"}))
    assert OFFLINE_NOTICE not in report_markdown(report)


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_chart_is_a_png_of_fixed_size_for_any_report() -> None:
    full = report_chart_png(build_report(**_inputs()))
    refused = report_chart_png(build_report(**_inputs(coverage=make_coverage(covered=False))))
    assert _png_size(full) == _png_size(refused) == (800, 400)


def test_markdown_shows_insufficient_record_instead_of_a_number() -> None:
    markdown = report_markdown(build_report(**_inputs()))
    assert "| Promises | insufficient record |" in markdown
    assert "response received, not yet reviewed" in markdown


def test_the_markdown_report_never_prints_a_missing_basis_as_none() -> None:
    # A retracted verdict is held: the report shows no basis for it, and said "basis: None".
    report = build_report(**_inputs(rulings=[_ruling("f0", "retract")]))
    markdown = report_markdown(report)
    assert "None" not in markdown
    assert "basis: " in markdown, "a shown verdict still names its basis"
    unhashed = report.model_copy(
        update={"claims": [{**c, "evidence": [{**e, "fetch_sha256": None} for e in c["evidence"]]} for c in report.claims]}
    )
    assert "None" not in report_markdown(unhashed) and "no fetch hash" in report_markdown(unhashed)


def test_a_rescore_time_is_shown_and_leaves_the_content_hash_alone() -> None:
    report = build_report(**_inputs())
    rescored = report.model_copy(update={"rescored_at": NOW + timedelta(days=2), "rescored_after_ruling": "rul_1"})
    assert report_content_hash(rescored) == report.content_hash
    assert f"re-scored {(NOW + timedelta(days=2)).isoformat()} after a steward's ruling" in report_markdown(rescored)
    assert "re-scored" not in report_markdown(report)
