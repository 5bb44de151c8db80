"""The code location: assets, checks, jobs, sensors, schedules and resources."""

import warnings
from collections.abc import Mapping
from typing import Any

import dagster as dg

from reliability_dagster.assets import subject_assets
from reliability_dagster.checks import subject_checks
from reliability_dagster.jobs import (
    backtest_job,
    quick_report_job,
    recheck_job,
    refresh_job,
    stability_job,
    steward_job,
    steward_schedule,
)
from reliability_dagster.metadata import with_provider_kinds
from reliability_dagster.resources import default_resources
from reliability_dagster.sensors import (
    due_date_sensor,
    first_report_sensor,
    gold_set_sensor,
    staleness_sensor,
    subject_registry_sensor,
)
from reliability_dagster.validation import validation_assets

# Source code references are "beta" in dagster 1.13; we pin the release, so the warning
# would only be noise on every command.
warnings.filterwarnings("ignore", message=".*(source_code_references|CodeReference).*", category=dg.BetaWarning)


def build_definitions(resources: Mapping[str, Any], *, automation: bool = True) -> dg.Definitions:
    """Everything in the code location, over the given resources (tests pass
    their own warehouse, clock and providers). Kind badges name the provider that runs
    with these resources (the vendor with its key, "rehearsal", or "offline-rules")."""
    providers = resources.get("providers")
    keys = {
        vendor: getattr(providers, f"{vendor}_api_key", None) is not None
        for vendor in ("anthropic", "openai", "perplexity")
    }
    assets = with_provider_kinds(
        [*subject_assets, *validation_assets], keys=keys, rehearsal=bool(getattr(providers, "rehearsal", False))
    )
    return dg.Definitions(
        # Code references: each asset links to the function that defines it.
        assets=dg.with_source_code_references(assets),
        asset_checks=subject_checks,
        jobs=[quick_report_job, refresh_job, recheck_job, backtest_job, stability_job, steward_job],
        schedules=[steward_schedule] if automation else [],
        sensors=[subject_registry_sensor, first_report_sensor, staleness_sensor, due_date_sensor, gold_set_sensor]
        if automation
        else [],
        resources=dict(resources),
        executor=dg.in_process_executor,
    )


defs = build_definitions(default_resources())
