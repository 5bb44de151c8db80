"""The method version: ``0.1.0+<hash>``, where the hash covers every prompt,
schema, constant and line of pipeline code ([M] "the exact version string,
including a hash of every prompt, schema, constant and line of pipeline code").

The hash is over the sorted relative paths and the contents (line endings
normalised to ``\\n``) of every ``.py`` and prompt file in both packages, plus
the method's data policy files, so it is the same on every machine for the
same tree and changes when any of them changes.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path

from reliability_core.constants import METHOD_BASE_VERSION

OFFLINE_SUFFIX = "offline-rules"
# Records made against the rehearsal servers (a scripted model, not a live one).
REHEARSAL_SUFFIX = "rehearsal"
# [#15] rule 9: judges of one family run only as an explicit experiment, which the version records.
SAME_FAMILY_EXPERIMENT = "same-family-judges"
SAME_FAMILY_EXPERIMENT_FLAG = "RELIABILITY_EXPERIMENT_SAME_FAMILY_JUDGES"
_EXPERIMENT_FLAGS = {SAME_FAMILY_EXPERIMENT_FLAG: SAME_FAMILY_EXPERIMENT}
_HASH_LENGTH = 8
_SUFFIXES = (".py", ".md", ".yaml", ".yml", ".json", ".txt")
_PROJECT_ROOT = Path(__file__).resolve().parent.parent
# What counts as the method: both packages' code and prompts, and the policy
# files in data/policy that decide source classes. Not the corpus, not tests.
_METHOD_TREES = ("reliability_core", "reliability_dagster", "data/policy")


def method_files(root: Path, trees: Iterable[str] = _METHOD_TREES) -> list[Path]:
    """Every file that is part of the method, sorted by relative path."""
    found: list[Path] = []
    for tree in trees:
        base = root / tree
        if not base.exists():
            continue
        for path in base.rglob("*"):
            if (
                path.is_file()
                and path.suffix in _SUFFIXES
                and "__pycache__" not in path.parts
                and not any(part.startswith(".") for part in path.relative_to(root).parts)
            ):
                found.append(path)
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def tree_hash(root: Path, trees: Iterable[str] = _METHOD_TREES) -> str:
    """SHA-256 over (relative path, normalised content) of every method file."""
    digest = hashlib.sha256()
    for path in method_files(root, trees):
        rel = path.relative_to(root).as_posix()
        content = path.read_bytes().replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        digest.update(rel.encode("utf-8") + b"\0")
        digest.update(hashlib.sha256(content).digest())
    return digest.hexdigest()



def active_experiments(env: Mapping[str, str]) -> tuple[str, ...]:
    """The experiments switched on in ``env`` (a flag set to 1/true/yes/on), sorted."""
    on = {"1", "true", "yes", "on"}
    return tuple(sorted(name for flag, name in _EXPERIMENT_FLAGS.items() if env.get(flag, "").strip().lower() in on))


def compute_method_version(
    root: Path = _PROJECT_ROOT, offline: bool = False, rehearsal: bool = False, experiments: Iterable[str] = ()
) -> str:
    """``0.1.0+<8 hex>``; with ``offline=True`` the local label says
    ``offline-rules`` so no output of the deterministic offline model can be
    mistaken for a live one, and with ``rehearsal=True`` it says ``rehearsal``
    (live provider classes against the local vendor servers' scripted model);
    each experiment adds ``.experiment-<name>`` so a result made outside the
    method (e.g. two judges of one family, [#15] rule 9) says so."""
    version = f"{METHOD_BASE_VERSION}+{tree_hash(root)[:_HASH_LENGTH]}"
    labels = [f"experiment-{name}" for name in sorted(experiments)]
    labels += [OFFLINE_SUFFIX] if offline else []
    labels += [REHEARSAL_SUFFIX] if rehearsal else []
    return ".".join([version, *labels])


@lru_cache(maxsize=4)
def method_version(offline: bool = False, rehearsal: bool = False) -> str:
    """The method version of the installed tree (computed once per process), with the
    experiments the process environment switches on at start-up."""
    return compute_method_version(
        _PROJECT_ROOT, offline=offline, rehearsal=rehearsal, experiments=active_experiments(os.environ)
    )
