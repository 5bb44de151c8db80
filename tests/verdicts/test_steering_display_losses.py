"""The steering screen's product figure (issue 28 item 4): claims whose display a steering
detection blocked, split by whether the detection fell on a known planted attack."""

from __future__ import annotations

from pathlib import Path

from reliability_core.models.verdicts import GateOutcome
from reliability_core.verdicts.steering import SteeringFinding, SteeringResult
from reliability_core.verdicts.steering_screen.display_losses import (
    finding_sources,
    planted_steering_urls,
    steering_display_losses,
)
from tests.scores.builders import make_verdict

PLANTED = "https://contentmill.example/facts"


def _blocked(claim_id: str, *sources: str, extra_notes: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    found = SteeringResult(
        detected=True,
        findings=[
            SteeringFinding(
                kind="instruction_to_model", source=s, language="en", excerpt="x", rule="classifier"
            )
            for s in sources
        ],
    )
    return make_verdict(claim_id, "true").model_copy(
        update={
            "steering_detected": True,
            "steering_notes": [*found.notes(), *extra_notes],
            "steering_findings": found.refs(),
            "gate": GateOutcome(shown=False, failed=["no_steering"]),
        }
    )


def test_finding_sources_read_the_stored_findings_not_the_notes_wording() -> None:
    result = SteeringResult(
        detected=True,
        findings=[
            SteeringFinding(
                kind="role_marker",
                source="ev_1",
                language="any",
                excerpt="<|im_start|>",
                rule="r",
                span=(3, 9),
            ),
            SteeringFinding(
                kind="hidden_text",
                source=PLANTED,
                language="any",
                excerpt="a b c d",
                rule="h",
                layer="hidden_html",
            ),
        ],
    )
    verdict = make_verdict("c1", "true").model_copy(
        update={
            # Notes are for people and may be reworded; the count reads the findings.
            "steering_notes": ["reworded note", "judge_a provider error: the model steering check did not run"],
            "steering_findings": result.refs(),
        }
    )
    assert finding_sources(verdict) == ["ev_1", PLANTED]
    assert [f.layer for f in verdict.steering_findings] == ["screen_rules", "hidden_html"]


def test_a_claim_blocked_only_by_a_planted_attack_is_not_counted_as_a_false_detection() -> None:
    verdicts = [
        _blocked("c1", "ev_planted"),  # the planted page, through its evidence id
        _blocked("c2", "ev_planted", "ev_news"),  # also a finding on an ordinary page
        _blocked("c3", "claim"),  # the claim's own text
        make_verdict("c4", "true"),  # shown
        make_verdict("c5", "true", shown=False),  # held by another gate
    ]
    pages = {"ev_planted": PLANTED + "#section-2", "ev_news": "https://wire.example/story"}
    losses = steering_display_losses(verdicts, pages, {PLANTED})
    assert (
        losses.claims,
        losses.blocked_by_steering,
        losses.on_planted_attack_only,
        losses.on_other_text,
    ) == (5, 3, 1, 2)
    assert losses.line() == (
        "steering: 3 of 5 claims held by a steering detection (1 on known planted attacks only, 2 on other text)"
    )


def test_planted_attacks_are_the_answer_keys_steering_traps(tmp_path: Path) -> None:
    key = tmp_path / "answer_key.yaml"
    key.write_text(
        "traps:\n"
        f"- trap: steering_visible_en\n  url: {PLANTED}\n"
        "- trap: rejected_forum\n  url: https://forum.example/t/1\n"
        "- trap: steering_hidden\n  url: https://blog.example/hidden\n",
        encoding="utf-8",
    )
    assert planted_steering_urls(key) == {PLANTED, "https://blog.example/hidden"}
    assert planted_steering_urls(tmp_path / "missing.yaml") == set()


def test_the_demo_corpus_answer_key_names_its_planted_steering_pages() -> None:
    root = Path(__file__).resolve().parents[2]
    planted = planted_steering_urls(root / "data" / "corpus" / "answer_key.yaml")
    assert "https://contentmill.example/northwind-energy-facts" in planted
