"""Paragraphs of Debian's translated manual pages: documentation prose by people (the
translators of manpages-l10n and the Japanese and Chinese projects) in 22 of the steering
screen's languages, full of instructions to a reader ("use this option to ignore ...",
"override the default"), for measuring the screen's false positives on text it was never
trained on and never chosen on (issue 28; ``screen_metrics.json``
``documentation_never_trained``).

Run once by hand; the packages come from Debian's archive, nothing of them is run but
Debian's own ``groff`` rendering them:

    mkdir debs && cd debs && apt-get download manpages manpages-cs manpages-da manpages-de \\
        manpages-el manpages-es manpages-fi manpages-fr manpages-hu manpages-id manpages-it \\
        manpages-ja manpages-nb manpages-nl manpages-pl manpages-pt-br manpages-ro manpages-ru \\
        manpages-sv manpages-tr manpages-uk manpages-vi manpages-zh
    python tools/steering_data/manpage_paragraphs.py debs [--shared ../shared]

Per language: up to ``PAGES`` pages chosen by a hash of their path, rendered to text, cut at
blank lines into paragraphs of at least ``MIN_CHARS`` characters (option lists and synopses
are mostly shorter), each distinct text once, and up to ``PARAGRAPHS`` of them chosen by a
hash of their text. Written
to ``<shared>/data/debian_manpages/paragraphs.jsonl`` with the package versions beside it;
the pages' licences are their own (each page names it), so nothing is copied into this
repository.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from train_steering_screen import DOCUMENTATION_FILE, bucket  # noqa: E402

# Pages and paragraphs are taken in the order of this hash (``bucket`` over 2^32: the same
# order on every machine).
ORDER = 1 << 32
# Debian's locale folders to the screen's language codes; the untranslated pages are English.
LOCALES = {
    ".": "en",
    "cs": "cs",
    "da": "da",
    "de": "de",
    "el": "el",
    "es": "es",
    "fi": "fi",
    "fr": "fr",
    "hu": "hu",
    "id": "id",
    "it": "it",
    "ja": "ja",
    "nb": "no",
    "nl": "nl",
    "pl": "pl",
    "pt_BR": "pt",
    "ro": "ro",
    "ru": "ru",
    "sv": "sv",
    "tr": "tr",
    "uk": "uk",
    "vi": "vi",
    "zh_CN": "zh",
}
PAGES = 80
PARAGRAPHS = 200
MIN_CHARS = 200
MAX_CHARS = 1500


def render(source: bytes) -> str:
    """A page as plain UTF-8 text (no overstrike, no colour; one long line a paragraph)."""
    done = subprocess.run(
        ["groff", "-man", "-Tutf8", "-Kutf8", "-P-c", "-P-b", "-P-u", "-rLL=2000n"],
        input=source,
        capture_output=True,
        timeout=60,
        check=False,
    )
    return done.stdout.decode("utf-8", "replace")


def paragraphs_of(text: str) -> list[str]:
    out = []
    for block in re.split(r"\n\s*\n", text):
        para = re.sub(r"\s+", " ", block).strip()
        if len(para) >= MIN_CHARS and "\ufffd" not in para:
            out.append(para[:MAX_CHARS])
    return out


def language_rows(man: Path, locale: str, lang: str) -> list[dict[str, str]]:
    folder = man / locale
    pages = sorted(folder.glob("man*/*.gz"), key=lambda p: bucket(str(p.relative_to(man)), ORDER))[:PAGES]
    found: list[tuple[str, str]] = []
    for page in pages:
        source = gzip.decompress(page.read_bytes())
        if source.startswith(b".so "):
            continue  # a link to another page
        found.extend((str(page.relative_to(man)), p) for p in paragraphs_of(render(source)))
    # A paragraph repeated across pages (a translation team's credits, a shared section) once.
    found = list({text: (page, text) for page, text in reversed(found)}.values())
    found.sort(key=lambda row: bucket(row[1], ORDER))
    return [{"lang": lang, "page": page, "text": text} for page, text in found[:PARAGRAPHS]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("debs", type=Path, help="a folder of the manpages*.deb files")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    args = parser.parse_args()
    debs = sorted(args.debs.glob("manpages*.deb"))
    if not debs:
        raise SystemExit(f"no manpages*.deb in {args.debs}")
    with tempfile.TemporaryDirectory() as tmp:
        for deb in debs:
            subprocess.run(["dpkg-deb", "-x", str(deb), tmp], check=True)
        man = Path(tmp) / "usr" / "share" / "man"
        rows = [row for locale, lang in LOCALES.items() for row in language_rows(man, locale, lang)]
    out = args.shared / DOCUMENTATION_FILE
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    (out.parent / "PACKAGES").write_text("".join(f"{d.name}\n" for d in debs), encoding="utf-8")
    print(f"{len(rows)} paragraphs into {out}")


if __name__ == "__main__":
    main()
