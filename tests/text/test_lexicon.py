"""The concept-lexicon reader (text.lexicon): entry syntax, scripts without word gaps, and
clear errors for a bad file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reliability_core.text.lexicon import LexiconError, area_lexicon, entry_pattern
from tests.conftest import PROJECT_ROOT


def _area(root: Path, files: dict[str, dict[str, list[str]]], area: str = "demo") -> Path:
    folder = root / area
    folder.mkdir(parents=True)
    for lang, concepts in files.items():
        (folder / f"{lang}.json").write_text(
            json.dumps({"lang": lang, "area": area, "concepts": concepts}, ensure_ascii=False),
            encoding="utf-8",
        )
    return root


def test_words_stems_prefixes_and_phrases(tmp_path: Path) -> None:
    root = _area(
        tmp_path,
        {
            "en": {"ill": ["cancer", "treated for", "hospital*"]},
            "de": {"ill": ["erkrank*"]},
            "ar": {"ill": ["*مستشفى"]},
            "ja": {"ill": ["入院"]},
            "ko": {"ill": ["병원"]},
        },
    )
    lexicon = area_lexicon("demo", root)
    assert lexicon.has("She was treated  for a year", "ill")
    assert lexicon.has("Er ist schwer erkrankt.", "ill")
    assert lexicon.has("hospitalised in May", "ill")
    assert not lexicon.has("the cancerous growth of bureaucracy", "ill")  # a whole word only
    assert lexicon.has("دخل بالمستشفى", "ill")  # an attached prefix
    assert lexicon.has("社長は先月入院した", "ill")  # no word gaps in Japanese
    assert lexicon.has("병원에 입원했다", "ill")  # a particle after the Hangul word
    hits = lexicon.find("Cancer, then treated for it", "ill")
    assert [h.text for h in hits] == ["Cancer", "treated for"]
    assert lexicon.languages("ill") == ("ar", "de", "en", "ja", "ko")


def test_typographic_apostrophe_matches_plain(tmp_path: Path) -> None:
    lexicon = area_lexicon("demo", _area(tmp_path, {"fr": {"speech": ["a déclaré qu'"]}}))
    assert lexicon.has("Il a déclaré qu’il partirait", "speech")


def test_longer_entry_wins_at_one_position(tmp_path: Path) -> None:
    lexicon = area_lexicon("demo", _area(tmp_path, {"en": {"op": ["more than", "no more than"]}}))
    assert [h.text for h in lexicon.find("no more than 5", "op")] == ["no more than"]


def test_bad_files_are_named(tmp_path: Path) -> None:
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "de.json").write_text(
        json.dumps({"lang": "fr", "area": "broken", "concepts": {}}), encoding="utf-8"
    )
    with pytest.raises(LexiconError, match=r"de\.json"):
        area_lexicon("broken", tmp_path)
    (folder / "de.json").write_bytes(b"\xff{")
    area_lexicon.cache_clear()
    with pytest.raises(LexiconError, match=r"de\.json"):
        area_lexicon("broken", tmp_path)
    with pytest.raises(LexiconError, match="no lexicon files"):
        area_lexicon("missing", tmp_path)


def test_unknown_concept_is_a_clear_error(tmp_path: Path) -> None:
    lexicon = area_lexicon("demo", _area(tmp_path, {"en": {"a": ["x"]}}))
    with pytest.raises(KeyError, match="no concept 'b'"):
        lexicon.has("x", "b")


def test_entry_pattern_rejects_empty_words() -> None:
    with pytest.raises(ValueError):
        entry_pattern("*")


def test_an_entry_that_is_not_a_regular_expression_is_named_with_its_file(tmp_path: Path) -> None:
    root = _area(tmp_path, {"en": {"a": ["fine", "re:[0-9"]}, "de": {"a": ["gut"]}}, area="badre")
    with pytest.raises(LexiconError, match=r"en\.json: concept 'a', entry 're:\[0-9'"):
        area_lexicon("badre", root)


def test_compiled_concepts_are_reused_only_for_the_same_entries(tmp_path: Path) -> None:
    """Issue 29: an area's compiled concepts are kept beside its files and reused by the next
    process only while its entries are the same (checked by hash); an edited entry is
    compiled again, and a damaged file is only a miss."""
    root = _area(tmp_path, {"en": {"ill": ["cancer", "hospital*"]}, "ja": {"ill": ["入院"]}})
    first = area_lexicon.__wrapped__("demo", root)
    stored = root / ".compiled" / "demo.marshal"
    assert stored.exists()
    text = "Hospitalised with cancer; 社長は先月入院した"
    spans = [(h.start, h.end) for h in first.find(text, "ill")]
    assert len(spans) == 3
    again = area_lexicon.__wrapped__("demo", root)  # as a new process would read it
    assert [(h.start, h.end) for h in again.find(text, "ill")] == spans
    assert again.pattern("ill").pattern == first.pattern("ill").pattern

    (root / "demo" / "en.json").write_text(
        json.dumps({"lang": "en", "area": "demo", "concepts": {"ill": ["cancer", "clinic"]}}),
        encoding="utf-8",
    )
    edited = area_lexicon.__wrapped__("demo", root)
    assert not edited.has("Hospitalised", "ill") and edited.has("at the clinic", "ill")

    stored.write_bytes(stored.read_bytes()[:100])  # truncated
    damaged = area_lexicon.__wrapped__("demo", root)
    assert damaged.has("at the clinic", "ill") and not damaged.has("Hospitalised", "ill")


def test_an_area_compiles_to_the_same_pattern_in_every_process() -> None:
    """Entries of equal pattern length used to keep a set's order, which differs between
    processes (string hashing): the same lexicon compiled to different alternations."""
    code = (
        "from reliability_core.text.lexicon import alternation\n"
        "print(alternation(['cat', 'dog', 'owl', 'ant', 'bee', 'cow', 'elk', 'fox', 'gnu', 'hen']))"
    )
    outputs = set()
    for seed in ("1", "2", "3", "4"):
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(PROJECT_ROOT)},
            check=True,
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1


def test_has_any_is_false_exactly_when_no_concept_is_said(tmp_path: Path) -> None:
    """``has_any`` is the one-scan question rules ask before their per-concept scans: it may
    only be False where every concept's own scan finds nothing (and is True otherwise)."""
    root = _area(
        tmp_path,
        {
            "en": {"ill": ["cancer", "hospital*"], "home": ["lives in"], "other": ["weekend"]},
            "ja": {"ill": ["入院"]},
            "da": {"home": ["bor i"]},
        },
    )
    lexicon = area_lexicon("demo", root)
    texts = [
        "She lives in Aarhus.",
        "Han bor i Aarhus.",
        "社長は先月入院した",
        "Hospitalised in May",
        "the cancerous growth of bureaucracy",
        "Revenue rose 5% over the weekend.",
        "",
    ]
    concepts = ("ill", "home")
    for text in texts:
        said = any(lexicon.has(text, c) or lexicon.find(text, c) for c in concepts)
        assert lexicon.has_any(text, concepts) is said, text
    with pytest.raises(KeyError, match="no concept 'nope'"):
        lexicon.has_any("text", ("ill", "nope"))
