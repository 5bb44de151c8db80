"""What every per-subject asset needs: its subject, the warehouse, the clock,
the providers and the method version, built once from the resources; and the
skeleton every per-subject asset shares (its stage, the coverage stop, the empty
partitions of a subject not covered), so an asset's body is only its step."""

import asyncio
import inspect
from collections import Counter
from collections.abc import Callable, Coroutine, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import dagster as dg

from reliability_core.clock import Clock
from reliability_core.models import CoverageDecision, RegistryEntry
from reliability_core.providers.errors import ProviderUnreachableError
from reliability_core.providers.recording import RecordingSearch
from reliability_core.settings import settings
from reliability_core.subjects.registry import find_entry, load_registry
from reliability_core.warehouse import Ledger, Warehouse, tables
from reliability_core.web.fetch import SafeFetcher
from reliability_dagster.jobs import REFRESH_JOB
from reliability_dagster.metadata import rows
from reliability_dagster.resources import (
    ClockResource,
    FetcherResource,
    ProvidersResource,
    WarehouseResource,
)

T = TypeVar("T")

# Dagster's metadata key for code references (``dg.with_source_code_references`` writes the same).
CODE_REFERENCES = "dagster/code_references"


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
    providers: ProvidersResource
    rehearsal: bool = False
    refresh: bool = False  # a run of the refresh job: research is searched afresh
    pages: FetcherResource | None = None  # only for the assets that fetch pages

    def search(self) -> RecordingSearch:
        """The search provider for this stage (a refresh searches afresh)."""
        return self.providers.search(self.clock, refresh=self.refresh)

    def fetcher(self) -> SafeFetcher:
        """The safe fetcher, on this stage's clock; only an asset declared ``fetches`` has one."""
        if self.pages is None:
            raise RuntimeError("this asset does not fetch pages: declare it with fetches=True")
        return self.pages.fetcher(self.clock)

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
    fetcher: FetcherResource | None = None,
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
        providers=providers,
        rehearsal=providers.rehearsal,
        refresh=context.run.job_name == REFRESH_JOB,
        pages=fetcher,
    )


StageBody = Callable[[dg.AssetExecutionContext, Stage], dg.MaterializeResult[None]]


def write_not_covered(stage: Stage, *table_names: str) -> dg.MaterializeResult[None]:
    """A subject refused coverage: ``table_names`` get empty partitions and the asset says why."""
    for name in table_names:
        stage.warehouse.write(name, stage.subject_id, [])
    return dg.MaterializeResult(
        metadata={"covered": False, "note": "subject not covered: see its coverage decision", **rows(0)}
    )


def counted(prefix: str, values: Iterable[Hashable]) -> dict[str, int]:
    """``{"<prefix>.<value>": how many}`` for each value seen, in value order: the per-outcome
    counts an asset's metadata shows."""
    return {f"{prefix}.{value}": n for value, n in sorted(Counter(values).items(), key=lambda item: str(item[0]))}


def subject_asset(
    *, not_covered: Sequence[str] | None, fetches: bool = False, **asset: Any
) -> Callable[[StageBody], dg.AssetsDefinition]:
    """A per-subject asset whose body takes the run's context and the subject's ``Stage``.

    The resources every such asset reads are declared here once (plus the fetcher when
    ``fetches``). With ``not_covered`` (the tables the asset writes), a subject refused
    coverage gets empty partitions of those tables and the body does not run; with None the
    body runs for every subject (coverage itself, and the report of a subject not covered).
    ``asset`` is passed on to ``dg.asset``. The asset's code reference is its body's, not
    this wrapper's, so the UI opens the step itself."""
    resource_keys = {"warehouse", "clock", "providers", *(["fetcher"] if fetches else [])}
    table_metadata = asset.pop("metadata", {})

    def define(body: StageBody) -> dg.AssetsDefinition:
        def materialize(context: dg.AssetExecutionContext) -> dg.MaterializeResult[None]:
            resources = context.resources
            stage = stage_for(
                context,
                resources.warehouse,
                resources.clock,
                resources.providers,
                resources.fetcher if fetches else None,
            )
            if not_covered is not None and not stage.covered():
                return write_not_covered(stage, *not_covered)
            return body(context, stage)

        source = dg.LocalFileCodeReference(
            file_path=inspect.getsourcefile(body) or "", line_number=inspect.getsourcelines(body)[1]
        )
        metadata = {**table_metadata, CODE_REFERENCES: dg.CodeReferencesMetadataValue(code_references=[source])}
        decorated: dg.AssetsDefinition = dg.asset(required_resource_keys=resource_keys, metadata=metadata, **asset)(
            materialize
        )
        return decorated

    return define
