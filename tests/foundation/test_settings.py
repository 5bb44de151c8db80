"""The process's settings: every RELIABILITY_* variable read once, typed, with its
default; a bad value stops start-up with the variable's name."""

from __future__ import annotations

from pathlib import Path

import pytest

from reliability_core.settings import (
    Settings,
    SettingsError,
    default_data_dir,
    project_root,
    settings,
    source_checkout,
)
from tests.conftest import PROJECT_ROOT


def test_from_a_source_checkout_the_data_directory_is_the_checkouts_data() -> None:
    assert source_checkout() == PROJECT_ROOT == project_root()
    assert default_data_dir() == PROJECT_ROOT / "data"


def test_defaults_derive_every_path_from_the_data_directory() -> None:
    chosen = Settings.from_environ({})
    assert chosen.data_dir == PROJECT_ROOT / "data"
    assert chosen.warehouse == str(PROJECT_ROOT / "data" / "warehouse")
    assert chosen.cache_dir == PROJECT_ROOT / "data" / "cache"
    assert chosen.registry_path == PROJECT_ROOT / "data" / "subjects.yaml"
    assert chosen.corpus_dir == PROJECT_ROOT / "data" / "corpus"
    assert chosen.averitec == PROJECT_ROOT.parent / "shared" / "data" / "averitec" / "dev.json"
    assert (chosen.now, chosen.offline, chosen.cache_bypass, chosen.experiment_same_family_judges) == (
        "", False, False, False
    )
    assert (chosen.models, chosen.concurrency, chosen.batch_jobs) == ({}, {}, [])


def test_the_environment_overrides_each_default(tmp_path: Path) -> None:
    chosen = Settings.from_environ(
        {
            "RELIABILITY_DATA_DIR": str(tmp_path),
            "RELIABILITY_NOW": "2026-11-30T12:00:00Z",
            "RELIABILITY_OFFLINE": "1",
            "RELIABILITY_CACHE_BYPASS": "true",
            "RELIABILITY_MODEL_JUDGE_B": "openai-compatible:llama-4@http://localhost:8000/v1",
            "RELIABILITY_CONCURRENCY_OPENAI_COMPATIBLE": "2",
            "RELIABILITY_BATCH_JOBS": "refresh, backtest_gold_set",
            "RELIABILITY_AVERITEC": str(tmp_path / "dev.json"),
        }
    )
    assert chosen.data_dir == tmp_path
    assert chosen.warehouse == str(tmp_path / "warehouse"), "the warehouse follows the data directory"
    assert chosen.cache_dir == tmp_path / "cache"
    assert chosen.now == "2026-11-30T12:00:00Z"
    assert chosen.offline and chosen.cache_bypass
    assert chosen.models == {"judge_b": "openai-compatible:llama-4@http://localhost:8000/v1"}
    assert chosen.concurrency == {"openai-compatible": 2}
    assert chosen.batch_jobs == ["refresh", "backtest_gold_set"]
    assert chosen.averitec == tmp_path / "dev.json"


def test_an_explicit_warehouse_url_wins_over_the_data_directory(tmp_path: Path) -> None:
    chosen = Settings.from_environ(
        {"RELIABILITY_DATA_DIR": str(tmp_path), "RELIABILITY_WAREHOUSE": "s3://bucket/prod", "RELIABILITY_CACHE_DIR": "/c"}
    )
    assert (chosen.warehouse, chosen.cache_dir) == ("s3://bucket/prod", Path("/c"))


def test_an_empty_variable_counts_as_unset() -> None:
    assert Settings.from_environ({"RELIABILITY_OFFLINE": "", "RELIABILITY_DATA_DIR": ""}) == Settings.from_environ({})


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("RELIABILITY_OFFLINE", "maybe"),
        ("RELIABILITY_NOW", "next tuesday"),
        ("RELIABILITY_CONCURRENCY_ANTHROPIC", "many"),
    ],
)
def test_a_bad_value_is_refused_naming_the_variable(variable: str, value: str) -> None:
    with pytest.raises(SettingsError, match=f"{variable}='{value}'"):
        Settings.from_environ({variable: value})


def test_the_process_settings_are_read_once_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RELIABILITY_DATA_DIR", str(tmp_path))
    first = settings()
    assert first.data_dir == tmp_path
    monkeypatch.setenv("RELIABILITY_DATA_DIR", str(tmp_path / "elsewhere"))
    assert settings() is first, "read once per process"
    settings.cache_clear()
    assert settings().data_dir == tmp_path / "elsewhere"


def test_a_bad_value_in_the_process_environment_stops_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RELIABILITY_CACHE_BYPASS", "sometimes")
    with pytest.raises(SettingsError, match="RELIABILITY_CACHE_BYPASS='sometimes'"):
        settings()


def test_other_variables_with_the_prefix_are_not_settings() -> None:
    # Deployment and test harness variables share the prefix (RELIABILITY_IMAGE, RELIABILITY_TEST_ROOT).
    assert Settings.from_environ({"RELIABILITY_IMAGE": "reliability:latest"}) == Settings.from_environ({})
