"""The concept-lexicon reader (text.lexicon): entry syntax, scripts without word gaps, and
clear errors for a bad file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reliability_core.text.lexicon import LexiconError, area_lexicon, entry_pattern


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
