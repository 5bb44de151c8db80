"""What every per-subject asset needs: its subject, the warehouse, the clock,
the providers and the method version, built once from the resources."""

import asyncio
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

import dagster as dg

from reliability_core.clock import Clock
from reliability_core.models import CoverageDecision, RegistryEntry
from reliability_core.providers.errors import ProviderUnreachableError
from reliability_core.settings import settings
from reliability_core.subjects.registry import find_entry, load_registry
from reliability_core.warehouse import Ledger, Warehouse, tables
from reliability_dagster.jobs import REFRESH_JOB
from reliability_dagster.resources import (
    ClockResource,
    ProvidersResource,
    WarehouseResource,
)

T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a core coroutine from a (synchronous) asset body; calls inside it
    run concurrently, bounded per provider by the gateway."""
    try:
        return asyncio.run(coroutine)
    except ProviderUnreachableError as exc:
        # Every item would fail the same way: the asset fails with one clear line
        # (a refusal or bad output for one item never gets here: it stays with the item).
        raise dg.Failure(description=str(exc).splitlines()[0] if str(exc) else repr(exc)) from exc


@dataclass
class Stage:
    subject_id: str
    entry: RegistryEntry
    warehouse: Warehouse
    ledger: Ledger
    clock: Clock
    method_version: str
    offline: bool
    rehearsal: bool = False
    refresh: bool = False  # a run of the refresh job: research is searched afresh

    def coverage(self) -> CoverageDecision | None:
        decisions = self.warehouse.read(tables.COVERAGE, self.subject_id, CoverageDecision)
        return decisions[-1] if decisions else None

    def covered(self) -> bool:
        decision = self.coverage()
        return bool(decision and decision.covered)


def stage_for(
    context: dg.AssetExecutionContext,
    warehouse: WarehouseResource,
    clock: ClockResource,
    providers: ProvidersResource,
) -> Stage:
    subject_id = context.partition_key
    entry = find_entry(load_registry(settings().registry_path), subject_id)
    if entry is None:
        raise dg.Failure(
            description=f"subject {subject_id!r} is a partition but not in the registry data/subjects.yaml",
        )
    store = warehouse.warehouse()
    return Stage(
        subject_id=subject_id,
        entry=entry,
        warehouse=store,
        ledger=Ledger(store),
        clock=clock.clock(),
        method_version=providers.method_version(),
        offline=providers.offline,
        rehearsal=providers.rehearsal,
        refresh=context.run.job_name == REFRESH_JOB,
    )
