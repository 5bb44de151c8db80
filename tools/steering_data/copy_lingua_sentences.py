"""Copy the sentence test data of the lingua language detector into ``<shared>`` for the
steering screen's ordinary web prose (issue 28; ``train_steering_screen.web_documents``).

Source: the repository pemistahl/lingua-py (Apache-2.0), ``language-testdata/sentences/
<lang>.txt``: 1,000 sentences a language drawn by lingua's author from the Leipzig Corpora
Collection's corpora of arbitrarily chosen websites (Wortschatz, Leipzig University; cite
Goldhahn, Eckart and Quasthoff, LREC 2012). The sentences are read in place, like AVeriTeC
and LIAR2, and never copied into this repository. Run once by hand on a git directory of
that repository (a clone or mirror; nothing of lingua is imported or run):

    python tools/steering_data/copy_lingua_sentences.py <lingua-py git dir> [--shared ../shared]

Only the languages of the screen's concept lexicon are copied. The commit copied is written
beside them (``SOURCE_COMMIT``); the artefact records each file's hash in ``trained_on``, so
a copy from another commit is seen as other data.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from train_steering_screen import WEB_DIR, WEB_FILE_LANGUAGES, screen_languages  # noqa: E402

COMMIT = "754ce21"  # the commit the committed figures were measured on


def git_show(git_dir: Path, rev: str, path: str) -> bytes:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{rev}:{path}"], check=True, capture_output=True
    ).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("git_dir", type=Path, help="the .git directory of pemistahl/lingua-py")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--rev", default=COMMIT)
    args = parser.parse_args()
    out = args.shared / WEB_DIR
    out.mkdir(parents=True, exist_ok=True)
    file_of = {v: k for k, v in WEB_FILE_LANGUAGES.items()}
    for lang in sorted(screen_languages()):
        name = f"{file_of.get(lang, lang)}.txt"
        (out / name).write_bytes(git_show(args.git_dir, args.rev, f"language-testdata/sentences/{name}"))
    (out.parent / "LICENSE-lingua-py-Apache-2.0.txt").write_bytes(
        git_show(args.git_dir, args.rev, "LICENSE.txt")
    )
    full = subprocess.run(
        ["git", f"--git-dir={args.git_dir}", "rev-parse", args.rev],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (out.parent / "SOURCE_COMMIT").write_text(f"pemistahl/lingua-py {full}\n", encoding="utf-8")
    print(f"{len(screen_languages())} languages into {out}")


if __name__ == "__main__":
    main()
