"""The code location: assets, checks, jobs, sensors, schedules and resources."""

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import dagster as dg

from reliability_core.settings import settings
from reliability_dagster.assets import subject_assets
from reliability_dagster.checks import subject_checks
from reliability_dagster.dead_runs import dead_run_sensor
from reliability_dagster.freshness import report_freshness_sensor, report_is_fresh
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
    steward_rescore_sensor,
    subject_registry_sensor,
)
from reliability_dagster.stage import CODE_REFERENCES
from reliability_dagster.validation import validation_assets


def with_code_references(
    assets: Sequence[dg.AssetsDefinition], *, git_url: str | None = None, git_branch: str = "main"
) -> list[dg.AssetsDefinition]:
    """Each asset links to the function that defines it: a file on this machine, or, given
    the repository's ``git_url`` (a deployment, where the UI's user has no checkout), that
    file on ``git_branch`` in the repository. The per-subject assets already carry their
    body's reference (``reliability_dagster.stage.subject_asset`` wraps the body, and
    Dagster would point at the wrapper), so only the others get one here."""
    referenced: Sequence[object] = [
        asset if CODE_REFERENCES in asset.metadata_by_key.get(asset.key, {}) else dg.with_source_code_references([asset])[0]
        for asset in assets
    ]
    if git_url is not None:
        referenced = dg.link_code_references_to_git(
            [_asset(a) for a in referenced],
            git_url=git_url,
            git_branch=git_branch,
            file_path_mapping=dg.AnchorBasedFilePathMapping(
                local_file_anchor=Path(__file__), file_anchor_path_in_repository="reliability_dagster/definitions.py"
            ),
        )
    return [_asset(a) for a in referenced]


def _asset(definition: object) -> dg.AssetsDefinition:
    # Dagster's code-reference helpers are typed for every kind of asset and return each
    # as it came in: ours are all AssetsDefinitions.
    assert isinstance(definition, dg.AssetsDefinition), definition
    return definition


def build_definitions(
    resources: Mapping[str, Any], *, automation: bool = True, git_url: str | None = None, git_branch: str = "main"
) -> dg.Definitions:
    """Everything in the code location, over the given resources (tests pass
    their own warehouse, clock and providers). Kind badges name the provider that runs
    with these resources (the vendor with its key, "rehearsal", or "offline-rules");
    ``git_url`` and ``git_branch``: where the code references link (``with_code_references``)."""
    providers = resources.get("providers")
    keys = {
        vendor: getattr(providers, f"{vendor}_api_key", None) is not None
        for vendor in ("anthropic", "openai", "perplexity")
    }
    assets = with_provider_kinds(
        [*subject_assets, *validation_assets], keys=keys, rehearsal=bool(getattr(providers, "rehearsal", False))
    )
    return dg.Definitions(
        assets=with_code_references(assets, git_url=git_url, git_branch=git_branch),
        asset_checks=[*subject_checks, report_is_fresh],
        jobs=[quick_report_job, refresh_job, recheck_job, backtest_job, stability_job, steward_job],
        schedules=[steward_schedule] if automation else [],
        sensors=[
            subject_registry_sensor,
            first_report_sensor,
            staleness_sensor,
            due_date_sensor,
            gold_set_sensor,
            dead_run_sensor,
            report_freshness_sensor,
            steward_rescore_sensor,
        ]
        if automation
        else [],
        resources=dict(resources),
        # The one place the executor is set: every job and ad-hoc materialisation runs
        # in process (why: reliability_dagster/jobs.py).
        executor=dg.in_process_executor,
    )


# RELIABILITY_GIT_URL (e.g. https://github.com/<org>/reliability) links the UI's code
# references to the repository instead of this machine's files (docs/DEPLOY.md, section 4).
defs = build_definitions(
    default_resources(),
    git_url=settings().git_url or None,
    git_branch=settings().git_branch,
)
