"""What a new process imports before it does any work (issue 29): a queued run and each CLI
call pay a process start, so the code location, the offline providers and ``reliability
--help`` must not import what they do not use. These are assertions on imports, not on
time (the time is measured by ``benchmarks/bench_demo_speed.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import PROJECT_ROOT

# Heavy modules a run reaches its first provider call without: the scoring quantiles
# (scipy.stats), charts (matplotlib), and the vendor SDKs of providers an offline run
# does not use.
NOT_BEFORE_FIRST_CALL = ("scipy", "matplotlib", "anthropic", "openai", "perplexity")

_RUN_PATH = """
import asyncio, json, sys
from pathlib import Path
import reliability_dagster.definitions  # the code location every run process loads
from reliability_core.providers.base import SearchQuery
from reliability_core.wiring import build_gateway, build_search
gateway = build_gateway({}, None)
search = build_search({}, Path(sys.argv[1]))
asyncio.run(search.search("northwind-energy", "identity", SearchQuery(query="Northwind Energy"), "test"))
print(json.dumps(sorted(sys.modules)))
"""

_CLI_HELP = """
import json, runpy, sys
sys.argv = ["reliability", "--help"]
try:
    runpy.run_module("reliability_cli", run_name="__main__")
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""


def _modules_after(code: str, *args: str) -> set[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PERPLEXITY_API_KEY"):
        env.pop(key, None)
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=PROJECT_ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def _loaded(modules: set[str], roots: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in roots)


def test_an_offline_run_process_reaches_its_providers_without_scipy_matplotlib_or_vendor_sdks() -> None:
    modules = _modules_after(_RUN_PATH, str(PROJECT_ROOT / "data" / "corpus"))
    assert "reliability_dagster.definitions" in modules  # the check ran where it should
    assert _loaded(modules, NOT_BEFORE_FIRST_CALL) == []


def test_reliability_help_imports_no_scipy_matplotlib_or_vendor_sdk() -> None:
    modules = _modules_after(_CLI_HELP)
    assert "reliability_cli.main" in modules
    assert _loaded(modules, NOT_BEFORE_FIRST_CALL) == []
