"""Cost of the fast steering screen per text ([#16] the screen runs on every claim and
every evidence text that could reach a judge, so its cost per text must stay small).

Run: ``.venv/bin/python -m benchmarks.bench_steering_screen``. Screens the visible text of
every demo-corpus page (whole pages, as evidence reaches the screen) and a set of
claim-length sentences, uncached, and reports milliseconds per text and per kilobyte.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import yaml

from reliability_core.verdicts.steering import find_by_classifier
from reliability_core.verdicts.steering_screen import default_model
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


def timed(texts: list[str]) -> list[float]:
    out = []
    for text in texts:
        start = time.perf_counter()
        find_by_classifier(text, "bench")
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    default_model()  # load the artefact once, outside the timings
    pages = corpus_texts()
    claims = [s for page in pages for s in page.split(". ") if 40 <= len(s) <= 200][:500]
    for name, texts in (("evidence pages", pages), ("claim-length texts", claims)):
        seconds = timed(texts)
        kb = sum(len(t.encode("utf-8")) for t in texts) / 1024
        print(
            f"{name}: {len(texts)} texts, {kb:.0f} KB; per text median "
            f"{1000 * statistics.median(seconds):.2f} ms, max {1000 * max(seconds):.1f} ms; "
            f"{1000 * sum(seconds) / kb:.2f} ms per KB"
        )


if __name__ == "__main__":
    main()
