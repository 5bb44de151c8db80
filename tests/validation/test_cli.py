"""The validation and steward CLI, end to end on a throwaway warehouse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reliability_cli.main import main
from reliability_core.settings import settings
from reliability_core.warehouse import Ledger, Warehouse, tables
from tests.validation.fakes import claim_verdict

STARTER = Path(__file__).resolve().parents[2] / "data" / "gold" / "starter.jsonl"


def test_gold_validate_passes_the_starter_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gold", "validate", str(STARTER)]) == 0
    assert json.loads(capsys.readouterr().out)["missing_trap_tags"] == []


def test_gold_validate_fails_a_broken_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n", encoding="utf-8")
    assert main(["gold", "validate", str(broken)]) == 1
    assert json.loads(capsys.readouterr().out)["issues"][0]["line"] == 1


def test_gold_commands_report_an_invalid_utf8_line_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(STARTER.read_bytes().splitlines(keepends=True)[0] + b'{"id": "caf\xe9"}\n')
    assert main(["gold", "validate", str(broken)]) == 1
    (issue,) = json.loads(capsys.readouterr().out)["issues"]
    assert issue["line"] == 2 and issue["message"].startswith("not UTF-8: byte 0xe9")
    assert main(["gold", "backtest", str(broken), "--warehouse", str(tmp_path / "warehouse")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "line 2: not UTF-8" in err and "Traceback" not in err


def test_averitec_import_refuses_to_write_inside_the_project(capsys: pytest.CaptureFixture[str]) -> None:
    target = STARTER.parent / "averitec.jsonl"
    assert main(["gold", "import-averitec", "--output", str(target)]) == 2
    assert not target.exists()


def test_averitec_import_writes_outside_the_project(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not settings().averitec.exists():
        pytest.skip("AVeriTeC dev set not present in ../shared")
    out = tmp_path / "averitec.jsonl"
    assert main(["gold", "import-averitec", "--output", str(out)]) == 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == 500


def test_steward_build_list_and_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RELIABILITY_NOW", "2026-11-30T12:00:00Z")
    root = str(tmp_path / "warehouse")
    Warehouse(root).write(
        tables.VERDICTS,  # the table the pipeline writes
        "northwind",
        [claim_verdict("c-disputed", "true", judge_b="false"), claim_verdict("c-fine", "true")],
    )
    # Issue 27: build and list print readable text by default; --json keeps the JSON.
    assert main(["steward", "build", "--warehouse", root, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["disputed"] == 1
    assert main(["steward", "list", "--warehouse", root, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert "c-disputed" in {i["claim_id"] for i in listed}

    refused = ["steward", "rule", "--warehouse", root, "--subject", "northwind", "--claim", "c-fine"]
    assert main([*refused, "--action", "resolve_for_a", "--steward", "ada", "--reason", "r"]) == 2
    assert json.loads(capsys.readouterr().out)["accepted"] is False

    rule = ["steward", "rule", "--warehouse", root, "--subject", "northwind", "--claim", "c-disputed"]
    assert (
        main([*rule, "--action", "resolve_for_b", "--steward", "ada", "--reason", "B read the right row"])
        == 0
    )
    assert json.loads(capsys.readouterr().out)["ruling"]["steward"] == "ada"
    assert main(["steward", "list", "--warehouse", root, "--json"]) == 0
    assert "c-disputed" not in {i["claim_id"] for i in json.loads(capsys.readouterr().out)}


def test_steward_list_prints_a_readable_table_and_says_when_no_queue_is_built_yet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RELIABILITY_NOW", "2026-11-30T12:00:00Z")
    root = str(tmp_path / "warehouse")
    Warehouse(root).write(tables.VERDICTS, "northwind", [claim_verdict("c-disputed", "true", judge_b="false")])
    assert main(["steward", "list", "--warehouse", root]) == 0
    assert "No steward queue stored yet" in capsys.readouterr().out  # was a bare "[]"
    assert main(["steward", "build", "--warehouse", root]) == 0
    assert capsys.readouterr().out.startswith("Queued 1 claims: 1 disputed")
    assert main(["steward", "list", "--warehouse", root]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Steward queue: 1 open of 1 queued")
    assert {"judges", "disagree", "(A:", "B:", "false)", "c-disputed"} <= set(out.split())
    assert not out.lstrip().startswith(("[", "{"))


def test_steward_rule_help_lists_every_action_and_a_demotion_needs_its_new_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SystemExit):
        main(["steward", "rule", "--help"])
    help_text = capsys.readouterr().out
    for action in ("uphold", "demote", "retract", "resolve_for_a", "resolve_for_b", "recheck_quote"):
        assert f"  {action} " in help_text, action
    assert "required with --action demote" in help_text
    with pytest.raises(SystemExit):
        main(["steward", "rule", "--subject", "s", "--claim", "c", "--action", "overrule", "--steward", "a", "--reason", "r"])
    assert "invalid choice: 'overrule'" in capsys.readouterr().err

    monkeypatch.setenv("RELIABILITY_NOW", "2026-11-30T12:00:00Z")
    root = str(tmp_path / "warehouse")
    Warehouse(root).write(tables.VERDICTS, "northwind", [claim_verdict("c-1", "true")])
    demote = ["steward", "rule", "--warehouse", root, "--subject", "northwind", "--claim", "c-1", "--action", "demote"]
    assert main([*demote, "--steward", "ada", "--reason", "misread"]) == 2
    answer = json.loads(capsys.readouterr().out)
    assert answer["accepted"] is False and "'demote' needs the verdict to demote to" in answer["problems"][0]


def test_gold_backtest_runs_offline_stores_the_result_and_draws_the_diagram(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from reliability_core.validation.backtest import backtest_results_for

    monkeypatch.setenv("RELIABILITY_OFFLINE", "1")
    monkeypatch.setenv("RELIABILITY_NOW", "2026-11-30T12:00:00Z")
    root = str(tmp_path / "warehouse")
    png = tmp_path / "diagram.png"
    assert main(["gold", "backtest", str(STARTER), "--warehouse", root, "--png", str(png), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["error_rates"] == "not yet measured" and summary["offline"] is True
    assert summary["method_version"].endswith("offline-rules")
    assert png.read_bytes().startswith(b"\x89PNG")
    stored = backtest_results_for(Ledger(Warehouse(root)), summary["method_version"])
    assert [r.id for r in stored] == [summary["id"]]


@pytest.mark.parametrize(
    ("url", "code", "outcome", "says"),
    [
        ("https://dailyledger.example/business/2014-06-10-northwind-bets-on-wind", 0, "ok", "robots.txt allows"),
        ("https://dailyledger.example/members/archive", 1, "refused_robots", "disallows this path"),
        ("https://slowpost.example/any", 1, "skipped_crawl_delay", "over the 30 s limit"),
        ("http://dailyledger.example/", 1, "refused_url", "only https"),
        ("https://127.0.0.1/", 1, "refused_url", ""),
    ],
)
def test_fetch_check_says_whether_the_pipeline_would_fetch_a_url_and_why_not(
    url: str, code: int, outcome: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fetch-check", "--offline", url]) == code
    answer = json.loads(capsys.readouterr().out)
    assert (answer["allowed"], answer["outcome"]) == (code == 0, outcome)
    assert says in answer["reason"]


def test_gold_backtest_prints_readable_tables_and_draws_the_confusion_matrix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27: the backtest printed 150 lines of JSON."""
    monkeypatch.setenv("RELIABILITY_OFFLINE", "1")
    monkeypatch.setenv("RELIABILITY_NOW", "2026-11-30T12:00:00Z")
    matrix = tmp_path / "confusion.png"
    args = ["gold", "backtest", str(STARTER), "--warehouse", str(tmp_path / "w"), "--confusion-png", str(matrix)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert not out.lstrip().startswith("{")
    for heading in (
        "Precision and recall per verdict",
        "Confusion matrix (rows: human label; columns: method verdict)",
        "Calibration of judge A's confidence",
        "95% interval",
        "accuracy on shown verdicts",
    ):
        assert heading in out, heading
    confusion = out.split("Confusion matrix", 1)[1]
    assert "human label \\ verdict" in confusion and "label mostly_false" in confusion
    calibration = out.split("Calibration of judge A's confidence", 1)[1].splitlines()
    assert calibration[1].split()[:3] == ["confidence", "bin", "verdicts"]
    assert matrix.read_bytes().startswith(b"\x89PNG")
