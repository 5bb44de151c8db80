"""[#18] Adding a real subject is one command that validates the entry; the registry
sensor then picks it up."""

import json
import shutil
from pathlib import Path

import dagster as dg
import pytest

from reliability_cli.main import main as reliability_cli
from reliability_core.subjects.registry import load_registry
from reliability_dagster.sensors import subject_registry_sensor
from tests.conftest import PROJECT_ROOT


@pytest.fixture
def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(PROJECT_ROOT / "data" / "subjects.yaml", data / "subjects.yaml")
    monkeypatch.setenv("RELIABILITY_DATA_DIR", str(data))
    return data / "subjects.yaml"


def test_a_subject_added_by_command_is_validated_written_and_picked_up_by_the_registry_sensor(
    registry: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = registry.read_text(encoding="utf-8")
    code = reliability_cli(
        ["subjects", "add", "--name", "Ørsted A/S", "--id", "orsted", "--kind", "company", "--url", "https://orsted.com/",
         "--alias", "Orsted", "--time-zone", "Europe/Copenhagen", "--description", "Danish energy company"]
    )  # fmt: skip
    assert code == 0
    added = json.loads(capsys.readouterr().out)["added"]
    assert added["id"] == "orsted" and added["name"] == "Ørsted A/S"
    text = registry.read_text(encoding="utf-8")
    assert text.startswith(before), "existing entries and comments are kept as they were"
    entry = next(e for e in load_registry(registry) if e.id == added["id"])
    assert entry.urls == ["https://orsted.com/"] and entry.time_zone == "Europe/Copenhagen"

    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("subjects", [e.id for e in load_registry(registry) if e.id != entry.id])
        result = subject_registry_sensor(dg.build_sensor_context(instance=instance))
    (request,) = result.dynamic_partitions_requests
    assert list(request.partition_keys) == [entry.id]


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        (["--name", "Acme", "--kind", "company", "--url", "http://acme.example/"], "https"),
        (["--name", "Northwind Energy", "--id", "northwind-energy", "--kind", "company"], "already"),
        (["--name", "Acme", "--kind", "company", "--time-zone", "Mars/Olympus"], "time zone"),
        (["--name", "   ", "--kind", "company"], "name"),
    ],
    ids=["not https", "duplicate id", "unknown time zone", "blank name"],
)
def test_a_bad_entry_is_refused_with_the_reason_and_the_registry_is_untouched(
    registry: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], problem: str
) -> None:
    before = registry.read_bytes()
    assert reliability_cli(["subjects", "add", *arguments]) == 2
    assert problem in capsys.readouterr().err
    assert registry.read_bytes() == before


def test_an_unknown_kind_is_refused_by_the_command_line(registry: Path) -> None:
    with pytest.raises(SystemExit):
        reliability_cli(["subjects", "add", "--name", "Acme", "--kind", "celebrity"])
