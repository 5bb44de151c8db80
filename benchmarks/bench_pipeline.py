"""Pipeline wall time against a critical-path lower bound that respects the shipped limits.

Every timed run is the first and only run of a fresh Python process, on a SQLite
Dagster instance made from the shipped ``dagster.yaml`` (as ``make demo`` uses),
with the shipped per-provider concurrency limit for model calls (8, the live
default of ``providers.gateway.DEFAULT_CONCURRENCY``; ``--concurrency`` to change),
and providers that add simulated latency (model 1.0 s, search 0.5 s, fetch 0.3 s
per call by default). Three phases, one process per subject each:

1. the offline rules with no latency, recording every model answer (untimed set-up
   for phase 2; its run also gives Dagster's overhead: run wall time minus the time
   spent inside asset bodies);
2. those answers replayed after the simulated model latency with no local compute,
   as a remote model would answer: the run the 1.25x target is about (it measures
   the orchestration, not the offline rules' CPU);
3. the offline rules computing locally with the latency on top.

The bound: the stages run one after another, and each stage takes at least the
longer of (a) its chain of calls that cannot overlap (below) and (b) its model
calls divided among the concurrency limit: ``ceil(calls / limit) x model latency``
(calls counted from the run's own metadata). Both are printed, with the bound with
unlimited concurrency (what this benchmark measured before issue 19) beside it.

Run: ``.venv/bin/python -m benchmarks.bench_pipeline [--subjects N] [--concurrency 8]
[--model 1.0 --search 0.5 --fetch 0.3] [--no-local]``. Importing this module runs nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SHIPPED_MODEL_CONCURRENCY = 8  # providers.gateway.DEFAULT_CONCURRENCY for anthropic and openai
SUBJECTS = ["northwind-energy", "clearwater-evaluators", "amara-okafor"]

# Sequential calls on the critical path of each stage (what cannot overlap because one
# call needs the previous answer):
CRITICAL_PATH = {
    "subject_coverage": {"search": 1, "model": 2},  # identity searches || ; confirm_identity -> decide_coverage
    "candidate_documents": {"search": 1},  # all candidate queries at once
    # robots.txt, then the page; extract_statements -> classify_statements, all documents at
    # once; once more per wave of replacements (the rule needs to know a document lacks
    # statements first). page_snapshots only indexes what this step stored.
    "statements": {"fetch": 2, "model": 2},
    "resolution_criteria": {"model": 1},  # write_criteria, all claims at once
    "evidence": {"model": 2, "search": 1, "fetch": 2},  # plan_research -> search -> robots -> page -> read_evidence
    "verdicts": {"model": 1},  # judge_a || judge_b, all claims at once
}


@dataclass(frozen=True)
class Latency:
    model: float
    search: float
    fetch: float

    def chain(self, stage: str, extraction_rounds: int = 1) -> float:
        """The stage's sequential chain of calls, in seconds."""
        calls = CRITICAL_PATH.get(stage, {})
        repeat = extraction_rounds if stage == "statements" else 1
        return (
            repeat * calls.get("model", 0) * self.model
            + calls.get("search", 0) * self.search
            + calls.get("fetch", 0) * self.fetch
        )

    def bound(self, model_calls: dict[str, int], concurrency: int | None, extraction_rounds: int = 1) -> float:
        """Sum over stages of max(chain, ceil(model calls / concurrency) x model latency);
        ``concurrency=None`` is unlimited (the chain alone)."""
        total = 0.0
        for stage in sorted(set(CRITICAL_PATH) | set(model_calls)):
            chain = self.chain(stage, extraction_rounds)
            calls = model_calls.get(stage, 0)
            shared = math.ceil(calls / concurrency) * self.model if concurrency else 0.0
            total += max(chain, shared)
        return total


# --- One run in this (fresh) process --------------------------------------------------------


def _resources(root: Path, latency: Latency, recording: Path | None) -> dict[str, object]:
    from reliability_core.stand_in.corpus import DEMO_CORPUS_NOW
    from reliability_dagster.resources import (
        ClockResource,
        FetcherResource,
        ProvidersResource,
        WarehouseResource,
    )

    corpus = PROJECT_ROOT / "data" / "corpus"
    return {
        "warehouse": WarehouseResource(root=str(root / "warehouse")),
        "clock": ClockResource(fixed_now=DEMO_CORPUS_NOW),
        "providers": ProvidersResource(
            corpus_dir=str(corpus),
            cache_dir=str(root / "cache"),
            simulated_model_latency=latency.model,
            simulated_search_latency=latency.search,
            model_recording_dir=str(recording) if recording else "",
            bypass_cache=True,  # every call reaches the (simulated) provider
        ),
        "fetcher": FetcherResource(mode="offline", corpus_dir=str(corpus), simulated_latency=latency.fetch),
    }


def run_once(subject: str, latency: Latency, recording: Path | None, work: Path) -> dict[str, Any]:
    """Materialise one subject on a SQLite instance under ``work``: the only run of this process."""
    import dagster as dg

    from reliability_dagster.definitions import build_definitions

    home = work / "dagster_home"
    home.mkdir(parents=True)
    shutil.copy(PROJECT_ROOT / "dagster.yaml", home / "dagster.yaml")
    os.environ["DAGSTER_HOME"] = str(home)
    with dg.DagsterInstance.get() as instance:
        definitions = build_definitions(_resources(work, latency, recording))
        job = definitions.resolve_job_def("quick_report")
        instance.add_dynamic_partitions("subjects", [subject])
        started = time.perf_counter()
        result = job.execute_in_process(instance=instance, partition_key=subject)
        wall = time.perf_counter() - started
        steps: dict[str, float] = {}
        for event in result.all_events:
            if event.event_type == dg.DagsterEventType.STEP_SUCCESS and event.step_key:
                steps[event.step_key] = getattr(event.event_specific_data, "duration_ms", 0.0) / 1000.0
        model_calls: dict[str, int] = {}
        for event in result.get_asset_materialization_events():
            materialization = event.step_materialization_data.materialization
            calls = 0
            for key, value in materialization.metadata.items():
                number = getattr(value, "value", None)
                if key.endswith(".calls") and isinstance(number, int | float):
                    calls += int(number)
            model_calls[materialization.asset_key.path[-1]] = calls
        rounds_value = result.asset_materializations_for_node("statements")[0].metadata["extraction_rounds"].value
        return {
            "subject": subject,
            "wall": wall,
            "steps": steps,
            "model_calls": model_calls,
            "rounds": int(rounds_value) if isinstance(rounds_value, int | float) else 1,
            "instance": type(instance.run_storage).__name__,
        }


def run_in_fresh_process(
    subject: str, latency: Latency, recording: Path | None, concurrency: int
) -> dict[str, Any]:
    """``run_once`` in a new interpreter (no warm-up in the measured process); also its whole wall time."""
    env = {k: v for k, v in os.environ.items() if k not in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PERPLEXITY_API_KEY")}
    env["RELIABILITY_CONCURRENCY_OFFLINE_RULES"] = str(concurrency)  # the simulated provider gets the live limit
    env["PYTHONPATH"] = str(PROJECT_ROOT)
    with tempfile.TemporaryDirectory(prefix="bench-pipeline-") as tmp:
        args = [
            sys.executable, "-m", "benchmarks.bench_pipeline", "--one", subject, "--work", tmp,
            "--model", str(latency.model), "--search", str(latency.search), "--fetch", str(latency.fetch),
        ]  # fmt: skip
        if recording is not None:
            args += ["--recording", str(recording)]
        started = time.perf_counter()
        done = subprocess.run(args, env=env, cwd=PROJECT_ROOT, capture_output=True, text=True, check=False)
        process_wall = time.perf_counter() - started
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"the run of {subject} failed:\n{done.stderr[-3000:]}")
    row: dict[str, Any] = json.loads(lines[-1].removeprefix("RESULT "))
    row["process_wall"] = process_wall
    return row


# --- Reporting ------------------------------------------------------------------------------


def report_line(row: dict[str, Any], latency: Latency, concurrency: int) -> str:
    wall = float(row["wall"])
    limited = max(latency.bound(row["model_calls"], concurrency, row["rounds"]), 1e-9)
    unlimited = max(latency.bound(row["model_calls"], None, row["rounds"]), 1e-9)
    return (
        f"{row['subject']}: run wall {wall:.1f} s (fresh process {float(row['process_wall']):.1f} s, "
        f"{row['instance']}); bound with {concurrency} concurrent model calls {limited:.1f} s -> "
        f"{wall / limited:.2f}x (target <= 1.25x); bound with unlimited concurrency {unlimited:.1f} s -> "
        f"{wall / unlimited:.2f}x; model calls {sum(row['model_calls'].values())}, "
        f"{row['rounds']} extraction round(s)"
    )


def _print_phase(label: str, rows: list[dict[str, Any]], latency: Latency, concurrency: int) -> None:
    print(f"\n-- {label}")
    for row in rows:
        print(report_line(row, latency, concurrency))
        for step, seconds in sorted(row["steps"].items(), key=lambda kv: -kv[1]):
            if seconds >= 0.3:
                calls = row["model_calls"].get(step, 0)
                floor = max(latency.chain(step, row["rounds"]), math.ceil(calls / concurrency) * latency.model)
                print(f"  {step:<22} {seconds:6.2f} s  (bound {floor:5.1f} s, {calls} model calls)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--subjects", type=int, default=1, help="how many covered demo subjects (1-3)")
    parser.add_argument("--model", type=float, default=1.0)
    parser.add_argument("--search", type=float, default=0.5)
    parser.add_argument("--fetch", type=float, default=0.3)
    parser.add_argument(
        "--concurrency", type=int, default=SHIPPED_MODEL_CONCURRENCY, help="concurrent model calls (shipped: 8)"
    )
    parser.add_argument("--no-local", action="store_true", help="skip phase 3 (the offline rules computing locally)")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: the child process's single run
    parser.add_argument("--work", help=argparse.SUPPRESS)
    parser.add_argument("--recording", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    latency = Latency(args.model, args.search, args.fetch)
    if args.one:
        recording = Path(args.recording) if args.recording else None
        print("RESULT " + json.dumps(run_once(args.one, latency, recording, Path(args.work))), flush=True)
        return

    subjects = SUBJECTS[: args.subjects]
    no_latency = Latency(0.0, 0.0, 0.0)
    with tempfile.TemporaryDirectory(prefix="bench-recording-") as recording_dir:
        recording = Path(recording_dir)
        # 1. Offline rules, no latency: records every model answer for phase 2.
        recorded = [run_in_fresh_process(s, no_latency, recording, args.concurrency) for s in subjects]
        first = recorded[0]
        in_assets = sum(first["steps"].values())
        print(
            f"offline rules, no latency (fresh process, {first['instance']}): run {first['wall']:.2f} s, asset bodies "
            f"{in_assets:.2f} s, Dagster overhead {float(first['wall']) - in_assets:.2f} s per run"
        )
        print(
            f"\nsimulated latency: model {latency.model} s, search {latency.search} s, fetch {latency.fetch} s; "
            f"{args.concurrency} concurrent model calls"
        )
        # 2. The recorded answers replayed after the model latency, with no local compute.
        replayed = [run_in_fresh_process(s, latency, recording, args.concurrency) for s in subjects]
        _print_phase("replayed model answers (remote-model stand-in)", replayed, latency, args.concurrency)
        # 3. The offline rules computing locally on top of the latency (their CPU is not in the bound).
        if args.no_local:
            return
        local = [run_in_fresh_process(s, latency, None, args.concurrency) for s in subjects]
        _print_phase("offline rules computing locally, plus latency", local, latency, args.concurrency)


if __name__ == "__main__":
    main()
