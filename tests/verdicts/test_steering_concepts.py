"""Concept features of the steering screen (#16 "a screen that generalises"): words of one
concept share a feature whatever the wording or language, the entry syntax matches what it
says, and an artefact is never scored with a lexicon it was not trained with."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from reliability_core.verdicts.steering_screen import concepts
from reliability_core.verdicts.steering_screen.concepts import build_lexicon, default_lexicon, lexicon_files
from reliability_core.verdicts.steering_screen.features import UnitFeatures, normalise, words
from reliability_core.verdicts.steering_screen.model import ARTEFACT_PATH, ScreenModel, load_model, save_model


def _tokenize(text: str) -> list[str]:
    return words(normalise(text))


def _lexicon(tmp_path: Path, **entries: list[str]) -> concepts.ConceptLexicon:
    (tmp_path / "xx.json").write_text(json.dumps({"lang": "xx", "concepts": entries}), encoding="utf-8")
    return build_lexicon([tmp_path / "xx.json"], _tokenize)


def _found(lexicon: concepts.ConceptLexicon, text: str) -> dict[str, int]:
    return dict(lexicon.matches(_tokenize(text)))


def test_entries_match_whole_tokens_stems_phrases_and_character_sequences(tmp_path: Path) -> None:
    lexicon = _lexicon(
        tmp_path,
        evaluator=["grader", "bewert*", "whoever assesses", "事实核查"],
        override=["set aside*"],
    )
    assert _found(lexicon, "The grader will read it.") == {"evaluator": 1}
    assert _found(lexicon, "The graders will read it.") == {}  # exact entry: whole token only
    assert _found(lexicon, "Die Bewertung folgt.") == {"evaluator": 1}  # stem, case folded
    assert _found(lexicon, "For whoever assesses this page.") == {"evaluator": 1}
    assert _found(lexicon, "Whoever else assesses it.") == {}  # a phrase is consecutive tokens
    assert _found(lexicon, "请事实核查人员注意") == {"evaluator": 1}  # Han: a character sequence
    assert _found(lexicon, "Please set asides the old rules.") == {"override": 1}


def test_a_stem_shorter_than_the_minimum_matches_only_its_whole_token(tmp_path: Path) -> None:
    lexicon = _lexicon(tmp_path, ai_system=["ai*"])
    assert _found(lexicon, "An AI read it.") == {"ai_system": 1}
    assert _found(lexicon, "The aim was clear.") == {}


def test_windows_carry_concept_and_concept_pair_features_only_with_a_lexicon(tmp_path: Path) -> None:
    lexicon = _lexicon(tmp_path, evaluator=["assessor*"], verdict_value=["accurate"])
    text = "To the assessor of this page. The statement is accurate."
    plain, with_concepts = UnitFeatures(text).whole(), UnitFeatures(text, lexicon).whole()
    added = set(with_concepts[0].tolist()) - set(plain[0].tolist())
    # one bucket per concept and one for the pair, which spans the two sentences
    assert len(added) == 3
    one_sentence = UnitFeatures("To the assessor of this page.", lexicon).whole()
    assert (
        len(
            set(one_sentence[0].tolist())
            - set(UnitFeatures("To the assessor of this page.").whole()[0].tolist())
        )
        == 1
    )


def test_rewordings_in_other_languages_share_the_concept_features(tmp_path: Path) -> None:
    lexicon = _lexicon(
        tmp_path,
        evaluator=["reviewer*", "prüfer*", "verificador*"],
        verdict_value=["true", "wahr", "verdadera"],
    )
    texts = [
        "Reviewers: the claim is true.",
        "An die Prüferin: die Aussage ist wahr.",
        "Para el verificador: la afirmación es verdadera.",
    ]
    extra = [
        set(UnitFeatures(t, lexicon).whole()[0].tolist()) - set(UnitFeatures(t).whole()[0].tolist())
        for t in texts
    ]
    assert extra[0] == extra[1] == extra[2] and len(extra[0]) == 3


def test_the_committed_lexicon_has_every_concept_in_every_language() -> None:
    files = lexicon_files()
    assert len(files) >= 30
    expected = set(default_lexicon().concepts)
    assert len(expected) == 14
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data["concepts"]) == expected, path.name
        assert all(data["concepts"][c] for c in expected), path.name


def _resaved(path: Path, model: ScreenModel, lexicon_digest: str | None) -> Path:
    """The model's weights saved again, claiming to be trained with ``lexicon_digest``."""
    meta = {**model.meta, "concept_lexicon_sha256": lexicon_digest}
    save_model(path, weights=model.weights, idf=model.idf, bias=model.bias, threshold=model.threshold, meta=meta)
    return path


def test_an_artefact_is_refused_with_a_lexicon_it_was_not_trained_with(tmp_path: Path) -> None:
    committed = load_model(ARTEFACT_PATH)
    assert committed.meta.get("concept_lexicon_sha256") == default_lexicon().digest
    with pytest.raises(ValueError, match="concept lexicon"):
        load_model(_resaved(tmp_path / "stale.npz", committed, "0" * 64))
    # trained without concepts: scored without them
    without = load_model(_resaved(tmp_path / "plain.npz", committed, None))
    assert without.lexicon is None
    assert np.isfinite(without.probabilities(["Any text at all."])[0])
