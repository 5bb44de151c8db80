"""The subject registry: validated entries with slugified ids, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from reliability_core.registry import (
    DEFAULT_REGISTRY_PATH,
    RegistryError,
    find_entry,
    load_registry,
    parse_registry,
)


def test_ids_are_slugified_from_the_id_or_else_the_name() -> None:
    entries = parse_registry(
        [
            {"name": "Société Générale S.A.", "kind": "company", "urls": ["https://sg.example/"]},
            {"id": "GiveWell, Inc.", "name": "GiveWell", "kind": "nonprofit"},
        ]
    )
    assert [e.id for e in entries] == ["societe-generale-s-a", "givewell-inc"]
    assert find_entry(entries, "GiveWell, Inc.") == entries[1]
    assert find_entry(entries, "nobody") is None


def test_a_mapping_with_a_subjects_list_is_accepted() -> None:
    assert [e.id for e in parse_registry({"subjects": [{"name": "Acme", "kind": "company"}]})] == ["acme"]
    assert parse_registry(None) == []


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"kind": "company"}, "needs a non-empty 'name'"),
        ({"name": "Acme", "kind": "bank"}, "kind"),
        ({"name": "Acme", "kind": "company", "urls": ["http://acme.example/"]}, "not an absolute https URL"),
        ({"name": "Acme", "kind": "company", "colour": "red"}, "colour"),
        ({"name": "!!!", "kind": "company"}, "no usable characters"),
        ("Acme", "expected a mapping"),
    ],
)
def test_a_bad_entry_is_a_clear_error_naming_the_entry_and_field(raw: object, message: str) -> None:
    with pytest.raises(RegistryError, match=message) as caught:
        parse_registry([{"name": "Fine", "kind": "company"}, raw])
    assert "entry 2" in str(caught.value)


def test_duplicate_ids_after_slugifying_are_refused() -> None:
    with pytest.raises(RegistryError, match="already used by entry 1"):
        parse_registry([{"name": "Acme Ltd", "kind": "company"}, {"name": "acme-ltd", "kind": "company"}])


def test_load_registry_names_the_file_in_errors(tmp_path: Path) -> None:
    path = tmp_path / "subjects.yaml"
    path.write_text("- name: Acme\n  kind: company\n- name: Acme\n  kind: company\n", encoding="utf-8")
    with pytest.raises(RegistryError, match=r"subjects\.yaml"):
        load_registry(path)
    path.write_text("- name: [unclosed\n", encoding="utf-8")
    with pytest.raises(RegistryError, match="not valid YAML"):
        load_registry(path)


def test_the_demo_registry_loads() -> None:
    if not DEFAULT_REGISTRY_PATH.exists():
        pytest.skip("data/subjects.yaml not written yet")
    entries = load_registry()
    assert entries
    assert len({e.id for e in entries}) == len(entries)
