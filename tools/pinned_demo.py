"""``make demo`` with the method hash pinned to another tree's, to show that a change
which should not change behaviour (a refactor, a move) does not.

Seeded choices (documents, the claim sample) follow the method version, whose hash
covers every line of pipeline code, so any edit draws another sample and the demo's
scores move. With the hash pinned to the base tree's, an unchanged method writes
reports with the same content hashes as the base tree's demo:

    .venv/bin/python -c "from pathlib import Path; from reliability_core.version import tree_hash; \\
        print(tree_hash(Path('<base checkout>')))"
    DAGSTER_HOME=... .venv/bin/python tools/pinned_demo.py <that hash>

then compare ``content_hash`` in ``data/warehouse/reports`` with the base run's.
"""

import sys
from collections.abc import Iterable
from pathlib import Path

import reliability_core.version as version


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    pinned = argv[0]

    def pinned_hash(root: Path, trees: Iterable[str] = ()) -> str:
        return pinned

    version.tree_hash = pinned_hash
    version.method_version.cache_clear()
    from reliability_dagster.demo import main as demo_main

    return demo_main(argv[1:])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
