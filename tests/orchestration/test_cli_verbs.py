"""[#27 A2, A3] One ``reliability`` command covers the user's verbs and finds the Dagster
instance by itself: DAGSTER_HOME when set, else the checkout's ``.dagster_home``, created
and migrated as ``make home`` does. No verb needs DAGSTER_HOME exported by hand."""

import os
import re
import shlex
from pathlib import Path
from typing import Any

import dagster as dg
import pytest

from reliability_cli import orchestration
from reliability_cli.main import build_parser
from reliability_cli.main import main as reliability
from reliability_dagster.instance import dagster_home, prepare_instance
from tests.conftest import PROJECT_ROOT


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A checkout whose .dagster_home does not exist yet, in a shell without DAGSTER_HOME."""
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    monkeypatch.setattr(orchestration, "_project_root", lambda: tmp_path)
    (tmp_path / "workspace.yaml").write_text((PROJECT_ROOT / "workspace.yaml").read_text())
    return tmp_path


@pytest.fixture
def commands(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The Dagster CLI commands the verbs start (the subprocess seam), not run."""
    started: list[dict[str, Any]] = []

    def start(argv: list[str], home: Path, *, replace: bool) -> int:
        started.append(
            {"argv": argv, "cwd": home, "home": os.environ.get("DAGSTER_HOME"), "replace": replace}
        )
        return 0

    monkeypatch.setattr(orchestration, "_start", start)
    return started


def test_the_instance_is_dagster_home_when_set_else_the_checkouts(checkout: Path, tmp_path: Path) -> None:
    assert orchestration.instance_home({}) == checkout / ".dagster_home"
    assert orchestration.instance_home({"DAGSTER_HOME": ""}) == checkout / ".dagster_home"
    assert orchestration.instance_home({"DAGSTER_HOME": str(tmp_path / "mine")}) == tmp_path / "mine"


def test_a_missing_instance_is_created_migrated_and_usable(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert prepare_instance(home)
    assert (home / "dagster.yaml").read_bytes() == (PROJECT_ROOT / "dagster.yaml").read_bytes()
    with dagster_home(home), dg.DagsterInstance.from_config(str(home)) as instance:
        instance.add_dynamic_partitions("subjects", ["acme"])
    assert not prepare_instance(home), "an instance up to date is left alone"
    (home / "dagster.yaml").write_text((home / "dagster.yaml").read_text() + "\n# the operator's own\n")
    assert not prepare_instance(home, replace_config=False), "an operator's configuration is kept"
    assert prepare_instance(home), "the checkout's own home follows the project's dagster.yaml"


def test_ui_daemon_sensor_and_backfill_run_on_the_found_instance(
    checkout: Path, commands: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = checkout / ".dagster_home"
    workspace = str(checkout / "workspace.yaml")
    assert reliability(["ui", "--port", "3123"]) == 0
    monkeypatch.setenv("UI_PORT", "3999")
    assert reliability(["ui"]) == 0
    assert reliability(["daemon"]) == 0
    assert reliability(["sensor", "start", "first_report_sensor"]) == 0
    assert reliability(["backfill", "northwind-energy", "amara-okafor"]) == 0
    assert all(c["cwd"] == home and c["home"] == str(home) for c in commands)
    # The servers replace the process (a signal to it reaches Dagster); short commands return.
    assert [c["replace"] for c in commands] == [True, True, True, False, False]
    argv = [c["argv"][1:] for c in commands]
    assert argv[0] == ["dev", "-w", workspace, "--host", "127.0.0.1", "--port", "3123"]
    assert argv[1][-1] == "3999"
    assert Path(commands[2]["argv"][0]).name == "dagster-daemon" and argv[2] == ["run", "-w", workspace]
    assert argv[3] == ["sensor", "start", "first_report_sensor", "-w", workspace]
    assert argv[4] == ["job", "backfill", "-w", workspace, "-j", "quick_report",
                       "--partitions", "northwind-energy,amara-okafor", "--noprompt"]  # fmt: skip
    assert (home / "dagster.yaml").exists()
    with dagster_home(home), dg.DagsterInstance.from_config(str(home)) as instance:
        assert instance.event_log_storage.get_concurrency_info("anthropic").slot_count == 16


def test_api_and_rehearse_pass_their_options_on(monkeypatch: pytest.MonkeyPatch) -> None:
    import reliability_api.server
    import reliability_dagster.rehearsal

    seen: dict[str, list[str]] = {}
    monkeypatch.setattr(reliability_api.server, "main", lambda argv: seen.__setitem__("api", argv))
    monkeypatch.setattr(
        reliability_dagster.rehearsal, "main", lambda argv: seen.__setitem__("rehearse", argv) or 0
    )
    monkeypatch.setenv("API_PORT", "8123")
    assert reliability(["api"]) == 0
    assert seen["api"] == ["--host", "127.0.0.1", "--port", "8123"]
    assert reliability(["rehearse", "--seed", "3", "amara-okafor", "--json", "out.json", "--log"]) == 0
    assert seen["rehearse"] == ["--seed", "3", "amara-okafor", "--json", "out.json", "--log"]


def _readme_commands() -> list[list[str]]:
    """Every ``reliability`` command line of the README's code blocks."""
    text = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8").replace("\\\n", " ")
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.DOTALL)
    found = []
    for line in "".join(blocks).splitlines():
        words = shlex.split(line.split("  #")[0], comments=True) if "reliability" in line else []
        if words and os.path.basename(words[0]) == "reliability":
            found.append(words[1:])
    return found


def test_every_reliability_command_in_the_readme_parses() -> None:
    commands = _readme_commands()
    assert len(commands) >= 8
    parser = build_parser()
    for words in (w for w in commands if "--help" not in w):
        args, _ = parser.parse_known_args(words)
        assert callable(args.func), words


def test_a_bad_pool_limit_is_one_error_line(
    checkout: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("POOL_LIMITS", "anthropic=lots")
    assert reliability(["daemon"]) == 2
    assert capsys.readouterr().err.strip().endswith("POOL_LIMITS entry 'anthropic=lots' is not name=number")


def test_pools_sets_the_limits_on_the_found_instance_defaults_or_pool_limits(
    checkout: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = checkout / ".dagster_home"
    monkeypatch.delenv("POOL_LIMITS", raising=False)
    assert reliability(["pools"]) == 0
    defaults = orchestration.pool_limits({})
    assert capsys.readouterr().out.split() == [f"{name}={limit}" for name, limit in defaults.items()]
    monkeypatch.setenv("POOL_LIMITS", "openai=3 web=5")
    assert reliability(["pools"]) == 0
    with dagster_home(home), dg.DagsterInstance.from_config(str(home)) as instance:
        slots = {name: instance.event_log_storage.get_concurrency_info(name).slot_count for name in defaults}
    assert slots == {**defaults, "openai": 3, "web": 5}


def test_the_makefile_takes_the_pool_limits_from_the_cli() -> None:
    """One place for the defaults: `make pools` runs `reliability pools` and writes no limit itself."""
    lines = (PROJECT_ROOT / "Makefile").read_text(encoding="utf-8").splitlines(keepends=True)
    makefile = "".join(line for line in lines if not line.lstrip().startswith("#"))
    recipe = re.search(r"^pools:.*\n((?:\t.*\n)+)", makefile, flags=re.MULTILINE)
    assert recipe is not None and "reliability pools" in recipe.group(1)
    assert not re.search(r"POOL_LIMITS\s*\??=", makefile), "the Makefile sets no default of its own"
    for name in orchestration.pool_limits({}):
        assert not re.search(rf"\b{name}=\d", makefile), name
