"""Jobs. Every job runs in process: Dagster's multiprocess executor spends
about 4 s starting a process per step here (a 12-asset chain: 53 s against
1.5 s in process), so parallelism comes from concurrent calls inside a step
and from several subject runs at once (the queued run coordinator). The executor
is set once, as the code location's default in ``definitions.py``, so it covers
these jobs and the UI's ad-hoc materialisations alike."""

import dagster as dg

QUICK_REPORT_JOB = "quick_report"
REFRESH_JOB = "refresh"
RECHECK_JOB = "recheck_due_claims"
BACKTEST_JOB = "backtest_gold_set"
STABILITY_JOB = "stability_check"
STEWARD_JOB = "steward_sampling"

SUBJECT_PIPELINE_GROUP = "subject_report"
VALIDATION_GROUP = "validation"
STEWARD_GROUP = "stewardship"

# The report's freshness is judged as the clock passes, by report_freshness_sensor
# (reliability_dagster/freshness.py), not by the runs that build the report.
_REPORT_FRESH = dg.AssetCheckKey(dg.AssetKey("subject_report"), "report_is_fresh")
_subject_assets = dg.AssetSelection.groups(SUBJECT_PIPELINE_GROUP) - dg.AssetSelection.checks(_REPORT_FRESH)

quick_report_job = dg.define_asset_job(
    QUICK_REPORT_JOB,
    selection=_subject_assets,
    description="All stages of the method for the selected subject partitions: a quick report.",
)

refresh_job = dg.define_asset_job(
    REFRESH_JOB,
    selection=_subject_assets,
    tags={"reliability/kind": "refresh"},
    description="Refresh of a stale report: identity and evidence searched afresh; candidate lists younger than 90 days are reused.",
)

recheck_job = dg.define_asset_job(
    RECHECK_JOB,
    selection=_subject_assets,
    tags={"reliability/kind": "recheck"},
    description="Re-triage and re-check a subject whose not-yet-due claims are falling due.",
)

backtest_job = dg.define_asset_job(
    BACKTEST_JOB,
    selection=dg.AssetSelection.assets("gold_set_backtest"),
    description="Run the configured judges and gates over a gold set and measure them against human labels; each "
    "gate is an asset check. Its partitions (gold set x judges) exist only once gold_set_sensor has added the gold "
    "sets: start that sensor (it adds a partition per data/gold/*.jsonl file within 5 minutes) or add the partition "
    "in the UI (gold_sets: the file's name without .jsonl); `reliability gold backtest FILE` runs one without Dagster.",
)

stability_job = dg.define_asset_job(
    STABILITY_JOB,
    selection=dg.AssetSelection.assets("rerun_stability"),
    description="Re-run research and judging k times with fresh calls in their own cache namespace; report verdict stability.",
)

steward_job = dg.define_asset_job(
    STEWARD_JOB,
    selection=dg.AssetSelection.groups(STEWARD_GROUP),
    description="Queue every disputed or held claim plus a random 10% of last week's verdicts (a fresh seed each build, recorded).",
)

steward_schedule = dg.ScheduleDefinition(
    job=steward_job,
    cron_schedule="0 6 * * 1",
    execution_timezone="UTC",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Weekly steward spot checks ([V] §04).",
)
