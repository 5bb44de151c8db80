"""Partitions: one dynamic partition per subject, shared by every per-subject
asset; gold-set backtests partitioned by gold set and judge configuration."""

import dagster as dg

# Keys are slugified subject ids (reliability_core.ids.slugify_subject_id): no
# commas, pipes or brackets, which Dagster reserves for ranges and multi-keys.
subjects_partitions = dg.DynamicPartitionsDefinition(name="subjects")

GOLD_SETS = ("starter", "averitec-dev")
JUDGE_CONFIGURATIONS = ("configured",)

backtest_partitions = dg.MultiPartitionsDefinition(
    {
        "gold_set": dg.StaticPartitionsDefinition(list(GOLD_SETS)),
        "judges": dg.StaticPartitionsDefinition(list(JUDGE_CONFIGURATIONS)),
    }
)
