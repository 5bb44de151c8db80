"""Partitions: one dynamic partition per subject, shared by every per-subject
asset; gold-set backtests partitioned by gold set and judge configuration.

Subject partitions follow the registry (``data/subjects.yaml``): the registry sensor
adds and removes them, and the run coordinator (``runs.RegistryRunCoordinator``)
refuses a run of a partition the registry does not hold. Gold sets are dynamic too:
every ``data/gold/*.jsonl`` file (and the AVeriTeC dev set when present) is one,
added by the gold-set sensor when the file appears."""

import dagster as dg

SUBJECTS_PARTITIONS = "subjects"
GOLD_SETS_PARTITIONS = "gold_sets"

# Keys are slugified subject ids (reliability_core.ids.slugify_subject_id): no
# commas, pipes or brackets, which Dagster reserves for ranges and multi-keys.
subjects_partitions = dg.DynamicPartitionsDefinition(name=SUBJECTS_PARTITIONS)
gold_set_partitions = dg.DynamicPartitionsDefinition(name=GOLD_SETS_PARTITIONS)

JUDGE_CONFIGURATIONS = ("configured",)

backtest_partitions = dg.MultiPartitionsDefinition(
    {
        "gold_set": gold_set_partitions,
        "judges": dg.StaticPartitionsDefinition(list(JUDGE_CONFIGURATIONS)),
    }
)
