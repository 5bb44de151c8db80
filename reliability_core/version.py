"""The method version: ``0.1.0+<hash>``, where the hash covers every prompt,
schema, constant and line of pipeline code ([M] "the exact version string,
including a hash of every prompt, schema, constant and line of pipeline code").

The hash is over the sorted relative paths and the contents (line endings
normalised to ``\\n``) of every ``.py``, prompt and policy file in both packages
(the source policy ships in ``reliability_core/policy``), so it is the same on
every machine for the same tree, installed or checked out, and changes when any
of them changes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from reliability_core.constants import METHOD_BASE_VERSION
from reliability_core.settings import Settings, settings

OFFLINE_SUFFIX = "offline-rules"
# Records made against the rehearsal servers (a scripted model, not a live one).
REHEARSAL_SUFFIX = "rehearsal"
# [#15] rule 9: judges of one family run only as an explicit experiment, which the version records.
SAME_FAMILY_EXPERIMENT = "same-family-judges"
SAME_FAMILY_EXPERIMENT_FLAG = "RELIABILITY_EXPERIMENT_SAME_FAMILY_JUDGES"
_HASH_LENGTH = 8
_SUFFIXES = (".py", ".md", ".yaml", ".yml", ".json", ".txt")
# The directory holding both packages: the checkout, or site-packages when installed.
_PACKAGES_ROOT = Path(__file__).resolve().parent.parent
# What counts as the method: both packages' code, prompts and the source policy
# (reliability_core/policy). Not the corpus, not tests.
_METHOD_TREES = ("reliability_core", "reliability_dagster")
# Shipped with the code but not the method: a price changes what a run costs, never a
# verdict, and the version keys the response cache (a price update must not void it).
_NOT_METHOD = frozenset({"reliability_core/providers/prices.yaml"})


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
                and path.relative_to(root).as_posix() not in _NOT_METHOD
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



def active_experiments(chosen: Settings) -> tuple[str, ...]:
    """The experiments the settings switch on (``RELIABILITY_EXPERIMENT_*``), sorted."""
    return (SAME_FAMILY_EXPERIMENT,) if chosen.experiment_same_family_judges else ()


def compute_method_version(
    root: Path = _PACKAGES_ROOT, offline: bool = False, rehearsal: bool = False, experiments: Iterable[str] = ()
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
    experiments the process's settings switch on."""
    return compute_method_version(
        _PACKAGES_ROOT, offline=offline, rehearsal=rehearsal, experiments=active_experiments(settings())
    )
