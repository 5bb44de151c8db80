"""A pipeline over the real demo corpus and registry, in a throwaway warehouse,
cache and Dagster instance, with the clock pinned to the corpus date."""

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import dagster as dg
import pytest

from reliability_core.models import Report
from reliability_core.scores.publication import latest_report
from reliability_core.stand_in.corpus import DEMO_CORPUS_NOW
from reliability_core.warehouse import Warehouse, tables
from reliability_dagster.definitions import build_definitions
from reliability_dagster.resources import (
    ClockResource,
    FetcherResource,
    ProvidersResource,
    WarehouseResource,
)
from tests.conftest import PROJECT_ROOT

CORPUS = PROJECT_ROOT / "data" / "corpus"


@dataclass
class Pipeline:
    root: Path
    instance: dg.DagsterInstance
    resources: dict[str, Any]

    @property
    def warehouse(self) -> Warehouse:
        return Warehouse(str(self.root / "warehouse"))

    def run(self, subject: str, job: str = "quick_report", **provider_config: Any) -> dg.ExecuteInProcessResult:
        resources = dict(self.resources)
        if provider_config:
            resources["providers"] = make_providers(self.root, **provider_config)
        if not self.instance.has_dynamic_partition("subjects", subject):
            self.instance.add_dynamic_partitions("subjects", [subject])
        definitions = build_definitions(resources)
        return definitions.resolve_job_def(job).execute_in_process(
            instance=self.instance, partition_key=subject, raise_on_error=False
        )

    def report(self, subject: str) -> Report:
        reports = self.warehouse.read(tables.REPORTS, subject, Report)
        assert reports, f"no report stored for {subject}"
        latest = latest_report(reports)
        assert latest is not None
        return latest


def make_providers(root: Path, **config: Any) -> ProvidersResource:
    return ProvidersResource(corpus_dir=str(CORPUS), cache_dir=str(root / "cache"), **config)


def make_resources(root: Path) -> dict[str, Any]:
    return {
        "warehouse": WarehouseResource(root=str(root / "warehouse")),
        "clock": ClockResource(fixed_now=DEMO_CORPUS_NOW),
        "providers": make_providers(root),
        "fetcher": FetcherResource(mode="offline", corpus_dir=str(CORPUS)),
    }


@pytest.fixture
def pipeline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Pipeline]:
    for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PERPLEXITY_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    with dg.DagsterInstance.ephemeral() as instance:
        yield Pipeline(root=tmp_path, instance=instance, resources=make_resources(tmp_path))


# --- Sensors evaluated directly (build_sensor_context), as the daemon would ------------------
REPORT_GENERATED = datetime(2026, 1, 10, 9, tzinfo=UTC)  # a report served until 2026-04-10


def stored_report(subject: str, generated: datetime = REPORT_GENERATED) -> Report:
    """A covered subject's report generated at ``generated``, served for 90 days."""
    return Report(
        id=f"rpt_{subject}_{generated:%Y%m%d}",
        subject_id=subject,
        subject_name=subject,
        covered=True,
        coverage_reasons=[],
        generated_at=generated,
        served_until=generated + timedelta(days=90),
        method_version="0.1.0+test",
    )


@dataclass
class SensorWorld:
    """An ephemeral instance and a warehouse under ``root``, with the clock set per tick."""

    root: Path
    instance: dg.DagsterInstance

    @property
    def warehouse(self) -> Warehouse:
        return Warehouse(str(self.root / "warehouse"))

    def resources(self, now: datetime, root: Path | None = None) -> dict[str, Any]:
        return {
            "warehouse": WarehouseResource(root=str((root or self.root) / "warehouse")),
            "clock": ClockResource(fixed_now=now.isoformat()),
        }

    def context(
        self, now: datetime | None = None, cursor: str | None = None, *, root: Path | None = None
    ) -> dg.SensorEvaluationContext:
        """A tick's context: the warehouse and the clock at ``now`` (none without ``now``)."""
        resources = None if now is None else self.resources(now, root)
        return dg.build_sensor_context(instance=self.instance, cursor=cursor, resources=resources)


@pytest.fixture
def sensor_world(tmp_path: Path) -> Iterator[SensorWorld]:
    with dg.DagsterInstance.ephemeral() as instance:
        yield SensorWorld(root=tmp_path, instance=instance)
