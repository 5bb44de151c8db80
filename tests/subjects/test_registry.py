"""The subject registry: validated entries with slugified ids, clear errors."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from reliability_core.ids import _NOT_DECOMPOSED, slugify_subject_id
from reliability_core.settings import settings
from reliability_core.subjects.registry import (
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


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Ørsted A/S", "orsted-a-s"),  # Danish
        ("Bjørn Dæhlie", "bjorn-daehlie"),  # Norwegian
        ("Œuvre d'Orient", "oeuvre-d-orient"),  # French
        ("Straße der Einheit GmbH", "strasse-der-einheit-gmbh"),  # German
        ("Łódź Wschodnia", "lodz-wschodnia"),  # Polish: Ł, and ó and ź by decomposition
        ("Đoković Foundation", "dokovic-foundation"),  # Serbian / Croatian
        ("Þóra Sigurðardóttir", "thora-sigurdardottir"),  # Icelandic: Þ and ð
        ("Kırıkkale Enerji", "kirikkale-enerji"),  # Turkish dotless ı
        ("Ħal Qormi", "hal-qormi"),  # Maltese
    ],
)
def test_letters_that_do_not_decompose_are_transliterated_not_dropped(name: str, slug: str) -> None:
    assert slugify_subject_id(name) == slug


def test_only_letters_that_decomposition_loses_are_transliterated_so_existing_ids_stay() -> None:
    """A subject id is a partition key and the name of its stored files: a name that slugified
    whole before must give the same id now. Every transliterated letter is one the old rule
    (decompose, keep ASCII) dropped, so no other name can change."""
    for code in _NOT_DECOMPOSED:
        letter = chr(code)
        assert not unicodedata.normalize("NFKD", letter).encode("ascii", "ignore"), letter
    for name in ("Northwind Energy A/S", "Société Générale S.A.", "Müller & Söhne", "Ångström Labs", "São Paulo"):
        old_rule = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
        assert slugify_subject_id(name) == slugify_subject_id(old_rule)


def test_a_name_in_another_script_needs_an_ascii_id() -> None:
    with pytest.raises(RegistryError, match="no usable characters"):
        parse_registry([{"name": "Москва", "kind": "company"}])
    [entry] = parse_registry([{"id": "moskva", "name": "Москва", "kind": "company"}])
    assert entry.id == "moskva"


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
    if not settings().registry_path.exists():
        pytest.skip("data/subjects.yaml not written yet")
    entries = load_registry()
    assert entries
    assert len({e.id for e in entries}) == len(entries)
