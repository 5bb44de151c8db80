from __future__ import annotations

from pathlib import Path

import pytest

from reliability_core.providers.assignment import (
    DEFAULT_ASSIGNMENT,
    MODEL_STEPS,
    build_gateway,
    build_search,
    parse_assignment,
    resolve_assignment,
    template_for,
)
from reliability_core.providers.errors import ConfigurationError


def test_defaults_follow_the_method_cheap_mid_strong_and_a_different_family_for_judge_b() -> None:
    chosen = resolve_assignment({})
    assert set(chosen) == set(MODEL_STEPS)
    assert chosen["extract_statements"].model == chosen["classify_statements"].model == "claude-haiku-5-5"
    for step in ("confirm_identity", "plan_research", "read_evidence"):
        assert chosen[step].model == "claude-sonnet-5-5"
    for step in ("decide_coverage", "write_criteria", "judge_a", "detect_steering"):
        assert chosen[step].model == "claude-opus-5-5"
    assert chosen["judge_b"].provider == "openai" != chosen["judge_a"].provider


def test_environment_overrides_configuration_which_overrides_defaults() -> None:
    chosen = resolve_assignment(
        {"RELIABILITY_MODEL_JUDGE_B": "openai-compatible:llama-4@http://localhost:8000/v1"},
        {"judge_b": "anthropic:claude-sonnet-5-5", "read_evidence": "anthropic:claude-opus-5-5"},
    )
    assert chosen["judge_b"].provider == "openai-compatible"
    assert chosen["judge_b"].base_url == "http://localhost:8000/v1"
    assert chosen["judge_b"].model == "llama-4"
    assert chosen["read_evidence"].model == "claude-opus-5-5"


@pytest.mark.parametrize(
    "spec",
    ["claude-opus", "mystery:model", "openai-compatible:llama", "anthropic:claude@http://x", "openai:"],
)
def test_malformed_assignment_is_a_configuration_error(spec: str) -> None:
    with pytest.raises(ConfigurationError):
        parse_assignment(spec)


def test_configuration_naming_an_unknown_step_is_an_error() -> None:
    with pytest.raises(ConfigurationError, match="judge_c"):
        resolve_assignment({}, {"judge_c": "openai:gpt-6.1-sol"})


def test_both_judges_share_the_judge_template() -> None:
    assert template_for("judge_a") == template_for("judge_b") == "judge"
    assert template_for("extract_statements") == "extract_statements"


def test_no_keys_means_every_step_runs_on_the_offline_rules(tmp_path: Path) -> None:
    gateway = build_gateway({}, tmp_path)
    assert set(gateway.describe().values()) == {"offline-rules"}
    assert all(gateway.model_for(step) == "offline-rules" for step in MODEL_STEPS)
    assert gateway.is_offline()


def test_keys_in_the_environment_pick_the_live_providers(tmp_path: Path) -> None:
    gateway = build_gateway({"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"}, tmp_path)
    described = gateway.describe()
    assert described["judge_a"] == "anthropic:claude-opus-5-5"
    assert described["judge_b"] == "openai:gpt-6.1-sol"
    assert gateway.family_for("judge_a") != gateway.family_for("judge_b")
    assert not gateway.is_offline()
    assert {
        step: f"{a.provider}:{a.model}" for step, a in resolve_assignment({}).items()
    } == DEFAULT_ASSIGNMENT


def test_a_missing_key_sends_only_that_providers_steps_offline(tmp_path: Path) -> None:
    gateway = build_gateway({"ANTHROPIC_API_KEY": "a"}, tmp_path)
    assert gateway.describe()["judge_a"] == "anthropic:claude-opus-5-5"
    assert gateway.describe()["judge_b"] == "offline-rules"
    assert gateway.is_offline("judge_b") and not gateway.is_offline("judge_a")


def test_offline_switch_wins_over_keys(tmp_path: Path) -> None:
    gateway = build_gateway({"ANTHROPIC_API_KEY": "a", "RELIABILITY_OFFLINE": "1"}, tmp_path)
    assert set(gateway.describe().values()) == {"offline-rules"}


def test_openai_compatible_judge_is_one_setting_away(tmp_path: Path) -> None:
    gateway = build_gateway(
        {"RELIABILITY_MODEL_JUDGE_B": "openai-compatible:llama-4@http://localhost:8000/v1"}, tmp_path
    )
    assert gateway.describe()["judge_b"] == "openai-compatible:llama-4@http://localhost:8000/v1"
    assert gateway.family_for("judge_b") == "llama"


def test_cache_bypass_and_concurrency_come_from_the_environment(tmp_path: Path) -> None:
    gateway = build_gateway(
        {"RELIABILITY_CACHE_BYPASS": "1", "RELIABILITY_CONCURRENCY_ANTHROPIC": "3"}, tmp_path
    )
    assert gateway.cache is not None and gateway.cache.bypass
    assert gateway.concurrency["anthropic"] == 3


def test_search_is_perplexity_with_a_key_and_offline_without(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "manifest.yaml").write_text("pages: []\n", encoding="utf-8")
    assert build_search({"PERPLEXITY_API_KEY": "p"}, corpus).name == "perplexity"
    assert build_search({}, corpus).name == "offline-search"
