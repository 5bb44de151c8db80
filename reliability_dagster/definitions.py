"""The code location: assets, checks, jobs, sensors, schedules and resources."""

import dagster as dg

from reliability_dagster.assets import subject_assets
from reliability_dagster.checks import subject_checks
from reliability_dagster.jobs import (
    quick_report_job,
    recheck_job,
    refresh_job,
)
from reliability_dagster.resources import default_resources
from reliability_dagster.sensors import due_date_sensor, staleness_sensor, subject_registry_sensor

defs = dg.Definitions(
    assets=[*subject_assets],
    asset_checks=subject_checks,
    jobs=[quick_report_job, refresh_job, recheck_job],
    sensors=[subject_registry_sensor, staleness_sensor, due_date_sensor],
    resources=default_resources(),
    executor=dg.in_process_executor,
)
