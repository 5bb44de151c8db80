"""A persistent Dagster instance in a directory, made as the Makefile's ``home`` target
makes it: the project's ``dagster.yaml`` copied in, then migrated once, before any run
(Dagster's first-time SQLite migration is not safe when several runs race to do it).
Used by ``reliability``'s orchestration verbs and by the rehearsal, whose instance the
UI opens afterwards."""

import contextlib
import filecmp
import io
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg

from reliability_core.settings import project_root


def project_instance_config() -> Path:
    """The project's instance configuration (SQLite storage under ``DAGSTER_HOME``, the run queue, pools)."""
    return project_root() / "dagster.yaml"


@contextmanager
def dagster_home(home: Path) -> Iterator[None]:
    """``DAGSTER_HOME`` set to ``home`` for the block: the project's dagster.yaml puts the
    storage's ``base_dir`` there."""
    previous = os.environ.get("DAGSTER_HOME")
    os.environ["DAGSTER_HOME"] = str(home)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("DAGSTER_HOME", None)
        else:
            os.environ["DAGSTER_HOME"] = previous


def prepare_instance(home: Path, *, replace_config: bool = True) -> bool:
    """Create (or bring up to date) the instance in ``home``: the project's dagster.yaml
    copied in when there is none, or when it differs and ``replace_config`` (the project's
    own homes; a ``DAGSTER_HOME`` of the operator's keeps its configuration), then migrated.
    True when the configuration was written."""
    source = project_instance_config()
    target = home / "dagster.yaml"
    if target.exists() and (
        not replace_config or not source.exists() or filecmp.cmp(source, target, shallow=False)
    ):
        return False
    if not source.exists():
        raise FileNotFoundError(f"no dagster.yaml in {source.parent} to create the instance {home} from")
    home.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    try:
        # The SQLite storages print their migration's progress ("Updating event log storage
        # for 0 runs on disk..."): not the user's business, and not the command's output.
        with (
            dagster_home(home),
            contextlib.redirect_stdout(io.StringIO()),
            dg.DagsterInstance.from_config(str(home)) as instance,
        ):
            instance.upgrade()
    except BaseException:
        target.unlink()  # the next command migrates again instead of trusting a half-made instance
        raise
    return True


@contextmanager
def open_instance(home: Path) -> Iterator[dg.DagsterInstance]:
    """The instance in ``home`` (prepared first), with ``DAGSTER_HOME`` pointing at it."""
    prepare_instance(home)
    with dagster_home(home), dg.DagsterInstance.from_config(str(home)) as instance:
        yield instance
