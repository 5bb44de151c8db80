"""``make demo`` or ``make rehearse`` with the method hash pinned to another tree's, to show
that a change which should not change behaviour (a refactor, a move) does not.

Seeded choices (documents, the claim sample, the rehearsal's scripted mistakes) follow the
method version, whose hash covers every line of pipeline code, so any edit draws another
sample and the figures move. With the hash pinned to the base tree's, an unchanged method
writes reports with the same content hashes (and the rehearsal the same cost table) as the
base tree's run:

    .venv/bin/python -c "from pathlib import Path; from reliability_core.version import tree_hash; \\
        print(tree_hash(Path('<base checkout>')))"
    DAGSTER_HOME=... .venv/bin/python tools/pinned_run.py <that hash> demo
    .venv/bin/python tools/pinned_run.py <that hash> rehearse --json figures.json

then compare ``content_hash`` in ``data/warehouse/reports`` (or the cost tables) with the
base run's.
"""

import sys
from collections.abc import Iterable
from pathlib import Path

import reliability_core.version as version


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[1] not in ("demo", "rehearse"):
        print(__doc__)
        return 2
    pinned, command, rest = argv[0], argv[1], argv[2:]

    def pinned_hash(root: Path, trees: Iterable[str] = ()) -> str:
        return pinned

    version.tree_hash = pinned_hash
    version.method_version.cache_clear()
    if command == "demo":
        from reliability_dagster.demo import main as run
    else:
        from reliability_dagster.rehearsal import main as run
    return run(rest)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
