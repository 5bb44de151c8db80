"""[#18] Adding a real subject is one command that validates the entry; the registry
sensor then picks it up."""

import json
import shutil
from pathlib import Path

import dagster as dg
import pytest

from reliability_cli.main import main as reliability_cli
from reliability_core.settings import settings
from reliability_core.subjects.registry import RegistryError, load_registry
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
        # Issue 26 §10: what the fetcher would refuse is refused at the door, by the fetcher's rule.
        (["--name", "Acme", "--kind", "company", "--url", "https://user:secret@acme.example/"], "credentials"),
        (["--name", "Acme", "--kind", "company", "--url", "https://127.0.0.1/"], "numeric IP address"),
        (["--name", "Acme", "--kind", "company", "--url", "https://[::1]:8443/"], "numeric IP address"),
        (["--name", "Acme", "--kind", "company", "--url", "https://10.0.0.7/admin"], "numeric IP address"),
        (["--name", "Acme", "--kind", "company", "--url", "https://2130706433/"], "numeric IP address"),
        (["--name", "Acme", "--kind", "company", "--url", "https://localhost/"], "internal"),
        (["--name", "Acme", "--kind", "company", "--url", "https://intranet.corp/"], "internal-only name"),
    ],
    ids=[
        "not https", "duplicate id", "unknown time zone", "blank name", "credentials", "loopback",
        "loopback ipv6", "private", "decimal loopback", "localhost", "internal name",
    ],
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


def test_a_malformed_registry_is_one_error_line_without_a_traceback_unless_debugging(
    registry: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 26 §7: a malformed subjects.yaml printed 25 lines of traceback before the message.
    registry.write_text("- id: acme\n  name: [unclosed\n", encoding="utf-8")
    assert reliability_cli(["subjects", "list"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {registry}: not valid YAML") and "Traceback" not in err
    with pytest.raises(RegistryError, match="not valid YAML"):
        reliability_cli(["--debug", "subjects", "list"])
    monkeypatch.setenv("RELIABILITY_DEBUG", "1")
    settings.cache_clear()  # the settings are read once per process
    with pytest.raises(RegistryError, match="not valid YAML"):
        reliability_cli(["subjects", "list"])


def test_a_registry_with_a_byte_that_is_not_utf8_names_its_line(
    registry: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry.write_bytes(registry.read_bytes() + b"- name: Caf\xe9\n  kind: company\n")
    lines = registry.read_bytes().count(b"\n")
    assert reliability_cli(["subjects", "list"]) == 2
    assert f"not UTF-8: byte 0xe9 on line {lines - 1}" in capsys.readouterr().err
