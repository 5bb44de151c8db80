"""The trained part of the steering screen: a logistic regression over hashed character and
word n-gram TF-IDF features (its naive-Bayes scaling folded into the weights), read from a
small committed artefact with numpy (no scikit-learn at run time, nothing downloaded).
``tools/train_steering_screen.py`` builds the artefact reproducibly from the repository's
data and the shared steering data; the artefact records the hashes of what it was trained on
and its measured figures.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from reliability_core.verdicts.steering_screen.concepts import ConceptLexicon, default_lexicon
from reliability_core.verdicts.steering_screen.features import (
    FEATURE_BITS,
    Sparse,
    UnitFeatures,
    Window,
    tfidf,
)

ARTEFACT_PATH = Path(__file__).resolve().parent / "screen_model.npz"
# [issue 28] The meta key of an artefact that runs with a second model (a different training,
# its own threshold): its file, beside the first, and the digest of its fitted arrays, so a
# first artefact never runs with a second it was not measured with.
SECOND_MEMBER_KEY = "second_member"


@dataclass(frozen=True)
class ScreenModel:
    """Weights, inverse document frequencies, bias and the decision threshold."""

    weights: NDArray[np.float32]
    idf: NDArray[np.float32]
    bias: float
    threshold: float
    meta: dict[str, Any]
    lexicon: ConceptLexicon | None = None  # the concept lexicon it was trained with, if any

    def probability(self, counts: Sparse) -> float:
        """P(steering) of one text's n-gram counts."""
        index, values = tfidf(counts, self.idf)
        z = float(np.dot(self.weights[index], values)) + self.bias
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

    def probabilities(self, texts: list[str]) -> list[float]:
        """P(steering) for each text on its own."""
        return [self.probability(UnitFeatures(text, self.lexicon).whole()) for text in texts]


@dataclass(frozen=True)
class WindowScore:
    window: Window
    probability: float


@dataclass(frozen=True)
class Screen:
    """What the product runs: one trained model, or two trained apart and run together, each
    at its own threshold (``tools/steering_loso.py --pair``: the second, trained on every
    public writer, catches attacks in other writers' styles that the first, trained to keep
    the project's own judge-directed attacks, misses). A window is flagged when any member's
    probability reaches that member's threshold. The members share the features (one concept
    lexicon), so a text is featurised once."""

    members: tuple[ScreenModel, ...]

    def __post_init__(self) -> None:
        if not self.members:
            raise ValueError("a steering screen needs at least one model")
        if len({m.meta.get("concept_lexicon_sha256") for m in self.members}) > 1:
            raise ValueError("the models of one steering screen must share a concept lexicon")

    def flagged_windows(self, text: str) -> list[WindowScore]:
        """The windows some member flags, in the text's order, each with the highest
        probability among the members that flag it."""
        units = UnitFeatures(text, self.members[0].lexicon)
        out: list[WindowScore] = []
        for w, i, j in units.windows():
            counts = units.run(i, j)
            flagging = [p for m in self.members if (p := m.probability(counts)) >= m.threshold]
            if flagging:
                out.append(WindowScore(w, max(flagging)))
        return out


def as_screen(model: ScreenModel | Screen) -> Screen:
    return model if isinstance(model, Screen) else Screen((model,))


def save_model(
    path: Path,
    *,
    weights: NDArray[np.float32],
    idf: NDArray[np.float32],
    bias: float,
    threshold: float,
    meta: dict[str, Any],
) -> None:
    """Write the artefact (float16 keeps it small; the scores move by < 1e-3)."""
    np.savez_compressed(
        path,
        weights=weights.astype(np.float16),
        idf=idf.astype(np.float16),
        bias=np.array([bias], dtype=np.float64),
        threshold=np.array([threshold], dtype=np.float64),
        meta=np.array(json.dumps(meta, sort_keys=True, ensure_ascii=False)),
    )


def load_model(path: Path) -> ScreenModel:
    with np.load(path, allow_pickle=False) as data:
        weights = data["weights"].astype(np.float32)
        idf = data["idf"].astype(np.float32)
        if weights.shape != (1 << FEATURE_BITS,) or idf.shape != weights.shape:
            raise ValueError(f"steering screen artefact {path} does not match {FEATURE_BITS}-bit features")
        meta = json.loads(str(data["meta"]))
        return ScreenModel(
            weights=weights,
            idf=idf,
            bias=float(data["bias"][0]),
            threshold=float(data["threshold"][0]),
            meta=meta,
            lexicon=lexicon_for(meta, path),
        )


def lexicon_for(meta: dict[str, Any], path: Path) -> ConceptLexicon | None:
    """The concept lexicon an artefact was trained with. Its weights for concept features are
    meaningful only with the same lexicon: a changed lexicon with an old artefact would score
    with features the weights were not fitted on, so it is refused, not scored."""
    digest = meta.get("concept_lexicon_sha256")
    if digest is None:
        return None
    lexicon = default_lexicon()
    if lexicon.digest != digest:
        raise ValueError(
            f"steering screen artefact {path} was trained with concept lexicon {digest[:12]}, but "
            f"reliability_core/verdicts/steering_screen/lexicon/ is {lexicon.digest[:12]}: retrain with "
            "tools/train_steering_screen.py"
        )
    return lexicon


def load_screen(path: Path) -> Screen:
    """The screen an artefact defines: the model at ``path``, and the second model its meta
    names (``SECOND_MEMBER_KEY``), which must be present and be the one it was measured with."""
    return screen_of(load_model(path), path)


def member_paths(first: ScreenModel, path: Path) -> tuple[Path, ...]:
    """The files of the screen whose first model, read from ``path``, is ``first``: that file,
    and its second model's where its meta names one."""
    second = first.meta.get(SECOND_MEMBER_KEY)
    return (path, path.with_name(str(second["file"]))) if second else (path,)


def screen_of(first: ScreenModel, path: Path) -> Screen:
    """``first`` (read from ``path``) with the second model its meta names, if any."""
    paths = member_paths(first, path)
    if len(paths) == 1:
        return Screen((first,))
    second, second_path = first.meta[SECOND_MEMBER_KEY], paths[1]
    if not second_path.exists():
        raise ValueError(
            f"steering screen artefact {path} runs with {second_path.name}, which is missing: "
            "retrain with tools/train_steering_screen.py --threshold-from-loso --member second"
        )
    partner = load_model(second_path)
    if partner.meta.get("fitted_sha256") != second.get("fitted_sha256"):
        raise ValueError(
            f"steering screen artefact {path} was measured with another {second_path.name} "
            f"(fitted {str(second.get('fitted_sha256'))[:12]}, found "
            f"{str(partner.meta.get('fitted_sha256'))[:12]}): retrain the first artefact"
        )
    return Screen((first, partner))


@functools.lru_cache(maxsize=1)
def default_model() -> ScreenModel:
    """The committed artefact's first model, read once per process."""
    return load_model(ARTEFACT_PATH)


@functools.lru_cache(maxsize=1)
def default_screen() -> Screen:
    """The committed screen (the first model and, where it names one, its second), read once
    per process; its first member is ``default_model()``."""
    return screen_of(default_model(), ARTEFACT_PATH)


def score_windows(text: str, model: ScreenModel | None = None) -> list[WindowScore]:
    """Every window of ``text`` with its probability of being a steering attempt."""
    model = model or default_model()
    units = UnitFeatures(text, model.lexicon)
    return [WindowScore(w, model.probability(units.run(i, j))) for w, i, j in units.windows()]


METRICS_PATH = ARTEFACT_PATH.with_name("screen_metrics.json")
# Leave-one-source-out figures (tools/steering_loso.py) and the product figure of the demo
# (benchmarks/bench_steering_screen.py --product), published beside the screen's figures.
LOSO_FILE = "loso_metrics.json"
PRODUCT_FIGURE_PATH = ARTEFACT_PATH.with_name("product_figure.json")
NEVER_TRAINED_KEYS = ("liar2_never_trained", "web_never_trained", "documentation_never_trained")


def published_figures(path: Path = METRICS_PATH) -> dict[str, Any]:
    """[#16] "Measured and published": the screen's figures on its development split (recall
    on attacks, false positives on clean items and clean evidence pages, by language and by
    attack kind), as the training script measured them with the committed artefact; and,
    apart from them under ``heldout``, its figures on the independent held-out set
    (``data/steering/heldout/``, never trained on or chosen on) once there is one, and
    under ``heldout_earlier`` every earlier held-out figure as it was measured."""
    if not path.exists():
        return {"status": "not yet measured"}
    measured = json.loads(path.read_text(encoding="utf-8"))
    development = measured.get("development", {})
    figures = {
        "split": measured.get("split", ""),
        "threshold": measured.get("model", {}).get("threshold"),
        "classifier": measured.get("model", {}).get("classifier"),
        "features": measured.get("model", {}).get("features"),
        **development,
    }
    if measured.get("model", {}).get(SECOND_MEMBER_KEY):
        # [issue 28] The screen runs a second model at its own threshold; every figure here
        # is of the two together (a text is flagged when either flags it).
        # Its training files' hashes stay in the metrics file, as the first model's do.
        figures["second_model"] = {
            k: v for k, v in measured["model"][SECOND_MEMBER_KEY].items() if k != "trained_on"
        }
    if measured.get("heldout"):
        figures["heldout"] = measured["heldout"]
    if measured.get("heldout_earlier"):
        # Held-out figures of earlier artefacts or earlier sets (a set measured, then trained
        # on and replaced): kept so every figure ever published stays visible beside the
        # current one.
        figures["heldout_earlier"] = measured["heldout_earlier"]
    for key in NEVER_TRAINED_KEYS:
        # [issue 28] Ordinary prose by people the artefact was never fitted on (LIAR2's
        # fact-check justifications, web paragraphs and manual pages in the screen's
        # languages), by language: the false positives a claim's evidence pages would meet.
        if measured.get(key):
            figures[key] = measured[key]
    loso = path.with_name(LOSO_FILE)
    if loso.exists():
        # [issue 28] Measured on writers the screen was not trained on: each attack source by
        # a screen trained on the others; published beside the same-writer figures above.
        figures["leave_one_source_out"] = json.loads(loso.read_text(encoding="utf-8"))
    product = path.with_name(PRODUCT_FIGURE_PATH.name)
    if product.exists():
        figures["product_figure"] = json.loads(product.read_text(encoding="utf-8"))
    return figures
