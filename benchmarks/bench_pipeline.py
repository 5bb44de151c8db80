"""Pipeline wall time against the critical-path lower bound.

Three runs of the same subjects: the offline rules with no latency (recording
every model answer); those answers replayed after the simulated model latency
with no local compute, as a remote model would answer (this is the run the
1.25x target is about: it measures the orchestration, not the offline rules'
CPU); and the offline rules computing locally with the latency added on top.

Materialises demo subjects through Dagster (in-process executor, ephemeral
instance, throwaway warehouse) with providers that add simulated latency —
model 1.0 s, search 0.5 s, fetch 0.3 s per call by default — and reports:

* wall time per subject and per stage;
* the critical-path lower bound: the latency chain of the method's sequential
  steps with unlimited parallelism inside a step (below), and the ratio
  (target: wall time within 1.25x of the bound for one subject);
* model calls per report;
* Dagster's overhead per run with the offline providers and no latency
  (run wall time minus the time spent inside the asset bodies).

Run: ``.venv/bin/python -m benchmarks.bench_pipeline [--subjects N] [--model 1.0 --search 0.5 --fetch 0.3]``
"""

import argparse
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import dagster as dg

# Sequential calls on the critical path of each stage, with unlimited parallelism
# inside a stage (what cannot overlap because one call needs the previous answer):
CRITICAL_PATH = {
    "subject_coverage": {"search": 1, "model": 2},  # identity searches || ; confirm_identity -> decide_coverage
    "candidate_documents": {"search": 1},  # all candidate queries at once
    "page_snapshots": {"fetch": 2},  # robots.txt, then the page
    # extract_statements -> classify_statements, all documents at once; once more per
    # wave of replacements (the rule needs to know a document lacks statements first)
    "statements": {"model": 2},
    "resolution_criteria": {"model": 1},  # write_criteria, all claims at once
    "evidence": {"model": 2, "search": 1, "fetch": 2},  # plan_research -> search -> robots -> page -> read_evidence
    "verdicts": {"model": 1},  # judge_a || judge_b, all claims at once
}


@dataclass
class Latency:
    model: float
    search: float
    fetch: float

    def bound(self, extraction_rounds: int = 1) -> float:
        total = 0.0
        for stage, calls in CRITICAL_PATH.items():
            repeat = extraction_rounds if stage == "statements" else 1
            total += repeat * calls.get("model", 0) * self.model + calls.get("search", 0) * self.search
            total += calls.get("fetch", 0) * self.fetch
        return total


def _resources(root: Path, latency: Latency, recording: Path | None = None) -> dict[str, object]:
    from reliability_core.corpus import DEMO_CORPUS_NOW
    from reliability_dagster.resources import (
        ClockResource,
        FetcherResource,
        ProvidersResource,
        WarehouseResource,
    )

    corpus = Path(__file__).resolve().parent.parent / "data" / "corpus"
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


def run_subjects(subjects: list[str], latency: Latency, recording: Path | None = None) -> list[dict[str, object]]:
    from reliability_dagster.definitions import build_definitions
    from reliability_dagster.demo import model_usage

    rows = []
    with tempfile.TemporaryDirectory() as tmp, dg.DagsterInstance.ephemeral() as instance:
        definitions = build_definitions(_resources(Path(tmp), latency, recording))
        job = definitions.resolve_job_def("quick_report")
        instance.add_dynamic_partitions("subjects", subjects)
        for subject in subjects:
            started = time.perf_counter()
            result = job.execute_in_process(instance=instance, partition_key=subject)
            wall = time.perf_counter() - started
            steps: dict[str, float] = {}
            for event in result.all_events:
                if event.event_type == dg.DagsterEventType.STEP_SUCCESS and event.step_key:
                    data = event.event_specific_data
                    steps[event.step_key] = getattr(data, "duration_ms", 0.0) / 1000.0
            calls, _ = model_usage(result)
            rounds = int(result.asset_materializations_for_node("statements")[0].metadata["extraction_rounds"].value)  # type: ignore[arg-type]
            rows.append({"subject": subject, "wall": wall, "steps": steps, "model_calls": calls, "rounds": rounds})
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subjects", type=int, default=1, help="how many covered demo subjects (1-3)")
    parser.add_argument("--model", type=float, default=1.0)
    parser.add_argument("--search", type=float, default=0.5)
    parser.add_argument("--fetch", type=float, default=0.3)
    parser.add_argument("--concurrency", type=int, default=1024, help="concurrent calls allowed to the simulated model")
    args = parser.parse_args(argv)
    for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PERPLEXITY_API_KEY"):
        os.environ.pop(key, None)
    # "Unlimited parallelism within a step" for the simulated provider; a live
    # deployment bounds it per provider (RELIABILITY_CONCURRENCY_ANTHROPIC, ...).
    os.environ.setdefault("RELIABILITY_CONCURRENCY_OFFLINE_RULES", str(args.concurrency))
    subjects = ["northwind-energy", "clearwater-evaluators", "amara-okafor"][: args.subjects]
    latency = Latency(args.model, args.search, args.fetch)

    with tempfile.TemporaryDirectory() as recording_dir:
        recording = Path(recording_dir)
        # 1. Offline rules, no latency: records every model answer, measures Dagster's overhead.
        recorded = run_subjects(subjects, Latency(0.0, 0.0, 0.0), recording)
        first = recorded[0]
        in_assets = sum(first["steps"].values())  # type: ignore[union-attr]
        print(
            f"offline rules, no latency: run {first['wall']:.2f} s, asset bodies {in_assets:.2f} s, "
            f"Dagster overhead {float(first['wall']) - in_assets:.2f} s per run"  # type: ignore[arg-type]
        )
        print(f"\nsimulated latency: model {latency.model} s, search {latency.search} s, fetch {latency.fetch} s")
        # 2. The recorded answers replayed after the model latency, with no local compute:
        #    a remote model's stand-in, so the wall time measures the orchestration.
        _report("replayed model answers (remote-model stand-in)", run_subjects(subjects, latency, recording), latency)
        # 3. The offline rules computing locally on top of the latency (their CPU is not in the bound).
        _report("offline rules computing locally, plus latency", run_subjects(subjects, latency), latency)


def _report(label: str, rows: list[dict[str, object]], latency: Latency) -> None:
    print(f"\n-- {label}")
    for row in rows:
        wall = float(row["wall"])  # type: ignore[arg-type]
        bound = max(latency.bound(int(row["rounds"])), 1e-9)  # type: ignore[call-overload]
        print(
            f"{row['subject']}: wall {wall:.1f} s; critical-path bound {bound:.1f} s "
            f"({row['rounds']} extraction round(s)) -> {wall / bound:.2f}x (target <= 1.25x); "
            f"model calls per report {row['model_calls']}"
        )
        for step, seconds in sorted(row["steps"].items(), key=lambda kv: -kv[1]):  # type: ignore[union-attr]
            if seconds >= 0.3:
                print(f"  {step:<55} {seconds:6.2f} s")


if __name__ == "__main__":
    main()
