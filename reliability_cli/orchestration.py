"""The orchestration verbs of ``reliability``: demo, ui, daemon, pools, api, rehearse, sensor,
backfill. Each finds the Dagster instance by itself (``instance_home``), so every command
works in a fresh shell: no ``DAGSTER_HOME`` to export, no traceback when it is unset.

Only the standard library is imported here: Dagster, the API and the pipeline are
imported inside the verb that needs them, so ``reliability --help`` stays fast."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

# The provider pools' limits (reliability_dagster/pools.py) the instance gets before a
# run; the one place they are written (`make pools` runs `reliability pools`). POOL_LIMITS
# in the environment (or on make's command line) overrides them.
DEFAULT_POOL_LIMITS = "anthropic=16 openai=8 perplexity=8 web=16"
HOME_DIR_NAME = ".dagster_home"


def _project_root() -> Path:
    from reliability_core.settings import project_root

    return project_root()


def instance_home(environ: dict[str, str] | None = None) -> Path:
    """The Dagster instance's directory: ``DAGSTER_HOME`` when set (and not empty), else
    the checkout's ``.dagster_home`` (the Makefile's default), so dynamic partitions and
    runs persist between commands."""
    env = os.environ if environ is None else environ
    chosen = env.get("DAGSTER_HOME", "").strip()
    return Path(chosen).expanduser().resolve() if chosen else _project_root() / HOME_DIR_NAME


def use_instance() -> Path:
    """Find (and if needed create) the instance and point this process and its children at it."""
    from reliability_dagster.instance import prepare_instance

    home = instance_home()
    # The checkout's own home follows the project's dagster.yaml; an operator's DAGSTER_HOME keeps its own.
    if prepare_instance(home, replace_config=home == _project_root() / HOME_DIR_NAME):
        print(f"Dagster instance prepared in {home}", file=sys.stderr)
    os.environ["DAGSTER_HOME"] = str(home)
    return home


def pool_limits(environ: dict[str, str] | None = None) -> dict[str, int]:
    """``POOL_LIMITS`` (``name=n`` separated by spaces), else the defaults."""
    from reliability_core.settings import SettingsError  # a bad value: one line, no traceback

    env = os.environ if environ is None else environ
    text = env.get("POOL_LIMITS", "").strip() or DEFAULT_POOL_LIMITS
    limits = {}
    for entry in text.split():
        name, _, value = entry.partition("=")
        if not name or not value.isdigit():
            raise SettingsError(f"POOL_LIMITS entry {entry!r} is not name=number")
        limits[name] = int(value)
    return limits


def set_pool_limits(home: Path) -> None:
    """Give the instance its provider pools' limits (what `make pools` does)."""
    import dagster as dg

    with dg.DagsterInstance.from_config(str(home)) as instance:
        for name, limit in pool_limits().items():
            instance.event_log_storage.set_concurrency_slots(name, limit)


def _workspace() -> list[str]:
    """The code location: the checkout's workspace.yaml, else the definitions module."""
    workspace = _project_root() / "workspace.yaml"
    if workspace.exists():
        return ["-w", str(workspace)]
    return ["-m", "reliability_dagster.definitions"]


def _tool(name: str) -> str:
    """A console script installed beside this interpreter (``dagster``, ``dagster-daemon``)."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else (shutil.which(name) or name)


def _start(argv: list[str], home: Path, *, replace: bool) -> int:
    """Run ``argv`` from inside ``home``; with ``replace`` this process becomes it (a
    long-running server: a signal to this process id reaches Dagster itself)."""
    if replace:
        os.chdir(home)
        os.execv(argv[0], argv)
    return subprocess.run(argv, cwd=home, env=os.environ.copy(), check=False).returncode


def dagster_command(
    arguments: Sequence[str], home: Path, tool: str = "dagster", *, replace: bool = False
) -> int:
    """Run a Dagster CLI command on the instance, from inside its directory (whose
    dagster.yaml is the one in use: started elsewhere, `dagster dev` warns that another
    dagster.yaml "will not be used")."""
    return _start([_tool(tool), *arguments], home, replace=replace)


def demo(args: argparse.Namespace) -> int:
    home = use_instance()
    set_pool_limits(home)
    from reliability_dagster.demo import main as demo_main

    return demo_main([*args.subjects, *(["--log"] if args.log else [])])


def ui(args: argparse.Namespace) -> int:
    """The Dagster UI (and the daemon, which launches queued runs) on the instance."""
    home = use_instance()
    set_pool_limits(home)
    return dagster_command(
        ["dev", *_workspace(), "--host", args.host, "--port", str(args.port)], home, replace=True
    )


def daemon(args: argparse.Namespace) -> int:
    home = use_instance()
    set_pool_limits(home)
    return dagster_command(["run", *_workspace()], home, tool="dagster-daemon", replace=True)


def pools(args: argparse.Namespace) -> int:
    """Set the provider pools' limits on the instance and print them (`make pools`)."""
    home = use_instance()
    set_pool_limits(home)
    print(" ".join(f"{name}={limit}" for name, limit in pool_limits().items()))
    return 0


def api(args: argparse.Namespace) -> int:
    from reliability_api.server import main as serve

    serve(["--host", args.host, "--port", str(args.port)])
    return 0


def rehearse(args: argparse.Namespace) -> int:
    from reliability_dagster.rehearsal import main as rehearsal_main

    return rehearsal_main(list(args.arguments))


def sensor(args: argparse.Namespace) -> int:
    """``dagster sensor start|stop|list`` on the instance and the project's code location."""
    home = use_instance()
    if args.action == "list":
        return dagster_command(["sensor", "list", *_workspace()], home)
    if not args.names:
        print(
            f"error: name the sensor(s) to {args.action} (`reliability sensor list` shows them)",
            file=sys.stderr,
        )
        return 2
    status = 0
    for name in args.names:
        status = status or dagster_command(["sensor", args.action, name, *_workspace()], home)
    return status


def backfill(args: argparse.Namespace) -> int:
    """Queue runs of a job for some subjects; the daemon (`reliability ui` or `reliability
    daemon`) launches them."""
    home = use_instance()
    partitions = ",".join(args.subjects)
    return dagster_command(
        ["job", "backfill", *_workspace(), "-j", args.job, "--partitions", partitions, "--noprompt"], home
    )


def add_parsers(groups: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The orchestration verbs' parsers."""
    found = "the Dagster instance is DAGSTER_HOME, else the checkout's .dagster_home (created when missing)"
    run = groups.add_parser(
        "demo", help="the demo subjects end to end on the instance (`make demo`)", epilog=found
    )
    run.add_argument("subjects", nargs="*", help="subject ids (default: every registry entry)")
    run.add_argument("--log", action="store_true", help="print Dagster's full event log of every run")
    run.set_defaults(func=demo)

    web = groups.add_parser("ui", help="the Dagster UI and daemon on the instance (`make ui`)", epilog=found)
    web.add_argument(
        "--port", type=int, default=int(os.environ.get("UI_PORT") or 3000), help="default $UI_PORT or 3000"
    )
    web.add_argument("--host", default="127.0.0.1")
    web.set_defaults(func=ui)

    background = groups.add_parser(
        "daemon", help="the Dagster daemon alone: launches queued runs", epilog=found
    )
    background.set_defaults(func=daemon)

    limits = groups.add_parser(
        "pools",
        help=f"set the provider pools' limits on the instance (`make pools`; $POOL_LIMITS, default {DEFAULT_POOL_LIMITS})",
        epilog=found,
    )
    limits.set_defaults(func=pools)

    serve = groups.add_parser("api", help="the read-only Reliability API over the warehouse (`make api`)")
    serve.add_argument(
        "--port", type=int, default=int(os.environ.get("API_PORT") or 8000), help="default $API_PORT or 8000"
    )
    serve.add_argument(
        "--host", default=os.environ.get("API_HOST") or "127.0.0.1", help="default $API_HOST or 127.0.0.1"
    )
    serve.set_defaults(func=api)

    rehearsal = groups.add_parser(
        "rehearse",
        help="the live rehearsal against local vendor servers (`make rehearse`; --help for its options)",
        add_help=False,
    )
    rehearsal.add_argument(
        "arguments", nargs=argparse.REMAINDER, help="passed on: subjects, --seed, --json, --batch, --log"
    )
    rehearsal.set_defaults(func=rehearse)

    sensors = groups.add_parser("sensor", help="start, stop or list the instance's sensors", epilog=found)
    sensors.add_argument("action", choices=["start", "stop", "list"])
    sensors.add_argument("names", nargs="*", help="sensor names (start, stop)")
    sensors.set_defaults(func=sensor)

    queue = groups.add_parser(
        "backfill", help="queue runs of a job for some subjects (a daemon launches them)", epilog=found
    )
    queue.add_argument("subjects", nargs="+", help="subject ids")
    queue.add_argument("--job", default="quick_report")
    queue.set_defaults(func=backfill)
