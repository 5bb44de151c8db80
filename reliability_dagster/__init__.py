"""Orchestration of the reliability method: assets, resources, sensors, jobs, checks."""

import warnings

import dagster as dg

# Code references (local and linked to git) are "beta" in dagster 1.13; we pin the release,
# so the warning would only be noise on every command. Set here, before any module of the
# package defines an asset with one (reliability_dagster.stage, .definitions).
warnings.filterwarnings(
    "ignore",
    message=".*(source_code_references|CodeReference|link_code_references_to_git|FilePathMapping).*",
    category=dg.BetaWarning,
)
