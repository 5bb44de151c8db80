"""The code location: assets, checks, jobs, sensors, schedules and resources."""

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
from reliability_dagster.resources import default_resources
from reliability_dagster.sensors import (
    due_date_sensor,
    first_report_sensor,
    gold_set_sensor,
    staleness_sensor,
    subject_registry_sensor,
)
from reliability_dagster.validation import validation_assets


def build_definitions(resources: Mapping[str, Any]) -> dg.Definitions:
    """Everything in the code location, over the given resources (tests pass
    their own warehouse, clock and providers)."""
    return dg.Definitions(
        assets=[*subject_assets, *validation_assets],
        asset_checks=subject_checks,
        jobs=[quick_report_job, refresh_job, recheck_job, backtest_job, stability_job, steward_job],
        schedules=[steward_schedule],
        sensors=[subject_registry_sensor, first_report_sensor, staleness_sensor, due_date_sensor, gold_set_sensor],
        resources=dict(resources),
        executor=dg.in_process_executor,
    )


defs = build_definitions(default_resources())
