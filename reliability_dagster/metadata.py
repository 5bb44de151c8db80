"""What the Dagster UI shows about each asset, in Dagster's standard metadata: the
column schema of the table it writes (``dagster/column_schema``, from the record's
pydantic model), the row count (``dagster/row_count``), owners, the scores as a table
and the report's claims as a table; and kind badges naming the provider that runs."""

import datetime as dt
import types
from collections.abc import Sequence
from typing import Any, Union, get_args, get_origin

import dagster as dg
from pydantic import BaseModel

from reliability_core.models import Report
from reliability_core.scores.render import CLAIM_ROW_COLUMNS, claim_rows
from reliability_core.stewardship.queue_table import queue_markdown
from reliability_core.stewardship.steward import StewardQueue

OWNERS = ["team:reliability"]
ROW_COUNT = "dagster/row_count"
COLUMN_SCHEMA = "dagster/column_schema"
# Provider kinds in asset definitions; replaced by the provider that actually runs.
VENDOR_KINDS = ("anthropic", "openai", "perplexity")

_SCALARS: dict[type, str] = {
    str: "string",
    int: "int",
    float: "float",
    bool: "bool",
    dt.datetime: "timestamp",
    dt.date: "date",
}


def _column_type(annotation: Any) -> str:
    """How the warehouse stores a field: scalars as columns, anything nested as JSON text."""
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        kinds = [_column_type(a) for a in get_args(annotation) if a is not type(None)]
        return kinds[0] if len(set(kinds)) == 1 else "json"
    if origin is not None and str(origin).endswith("Literal"):
        return "string"
    if str(annotation).startswith("typing.Literal"):
        return "string"
    return _SCALARS.get(annotation, "json")


def column_schema(model: type[BaseModel]) -> dg.TableSchema:
    """The table a record model is stored as (``reliability_core.warehouse.store``): one
    column per field, nested values as JSON text, plus ``_json`` (the whole record)."""
    columns = [
        dg.TableColumn(name, _column_type(field.annotation), description=field.description)
        for name, field in model.model_fields.items()
    ]
    columns.append(dg.TableColumn("_json", "json", description="the whole record, as written"))
    return dg.TableSchema(columns=columns)


def table_metadata(
    model: type[BaseModel], table: str, also: Sequence[tuple[str, type[BaseModel]]] = ()
) -> dict[str, Any]:
    """Definition metadata of an asset writing ``table`` of ``model`` records: its column
    schema (Dagster's standard key, the one the UI's Columns view shows) and, for an asset
    that writes more tables (``also``), every table it writes (``warehouse_tables``) and
    each further table's schema under ``table.<name>``."""
    metadata: dict[str, Any] = {COLUMN_SCHEMA: column_schema(model), "warehouse_table": table}
    if also:
        metadata["warehouse_tables"] = dg.MetadataValue.json([table, *(name for name, _ in also)])
        for name, other in also:
            metadata[f"table.{name}"] = dg.MetadataValue.table_schema(column_schema(other))
    return metadata


def measure(key: str, value: float | None, digits: int) -> dict[str, float]:
    """A measure that may be missing, under one type for every partition: ``key`` holds a
    float when there is a value and is left out when there is none (a gap in the UI's plot
    of ``key``), never a word in its place: Dagster plots a key only while its type holds."""
    return {} if value is None else {key: float(round(value, digits))}


def rows(count: int) -> dict[str, int]:
    """The row count of what a materialisation wrote (standard Dagster metadata)."""
    return {ROW_COUNT: count}


def scores_table(report: Report) -> dg.TableMetadataValue:
    """Per-type and overall scores rounded to one decimal, with 80% intervals and counts."""
    schema = dg.TableSchema(
        columns=[
            dg.TableColumn("score", "string"),
            dg.TableColumn("value", "float"),
            dg.TableColumn("interval_80", "string"),
            dg.TableColumn("checked_claims", "int"),
            dg.TableColumn("documents", "int"),
            dg.TableColumn("confidence", "string"),
        ]
    )

    def _row(name: str, score: float | None, low: float | None, high: float | None, n: int, docs: int, conf: str) -> dg.TableRecord:
        return dg.TableRecord(
            {
                "score": name,
                "value": round(score, 1) if score is not None else None,
                "interval_80": f"{low:.1f}-{high:.1f}" if low is not None and high is not None else "insufficient record",
                "checked_claims": n,
                "documents": docs,
                "confidence": conf,
            }
        )

    records = [
        _row(t.claim_type, t.score, t.interval_low, t.interval_high, t.n, t.documents, t.confidence)
        for t in report.type_scores
    ]
    if report.overall is not None:
        o = report.overall
        records.append(_row("overall", o.score, o.interval_low, o.interval_high, o.n, o.documents, o.confidence))
    return dg.MetadataValue.table(records=records, schema=schema)


def scores_metadata(report: Report) -> dict[str, Any]:
    """The figures ``subject_scores`` shows: the scores table, each score and its count,
    the overall score and confidence, the checkable share; also what a steward's re-score
    records for it (``sensors.steward_rescore_sensor``), so the UI's latest figures are the
    served ones."""
    metadata: dict[str, Any] = {"covered": report.covered}
    if report.covered:
        metadata["scores"] = scores_table(report)
    # Scores are floats or absent, with the record's state beside them as text: an
    # "insufficient record" in place of a number would stop the UI plotting the key.
    for score in report.type_scores:
        metadata.update(measure(f"score.{score.claim_type}", score.score, 1))
        metadata[f"record.{score.claim_type}"] = "insufficient record" if score.score is None else "scored"
        metadata[f"n.{score.claim_type}"] = score.n
    if report.overall is not None:
        metadata.update(measure("score.overall", report.overall.score, 1))
        metadata["record.overall"] = "insufficient record" if report.overall.score is None else "scored"
        metadata["confidence.overall"] = report.overall.confidence
    metadata.update(measure("checkable_share", report.checkable_share, 3))
    return metadata


def claims_table(report: Report) -> dg.TableMetadataValue:
    """The report's claims as a table a person can scan (``render.claim_rows``)."""
    schema = dg.TableSchema(columns=[dg.TableColumn(c, "string") for c in CLAIM_ROW_COLUMNS])
    return dg.MetadataValue.table(records=[dg.TableRecord(r) for r in claim_rows(report)], schema=schema)


def steward_queue_metadata(queue: StewardQueue) -> dict[str, Any]:
    """What a steward queue build shows in the UI: the counts, what the sample can detect,
    and the queue itself as a Markdown table (claim, quote, both judges, gate, evidence
    links, why queued)."""
    return {
        "queued": len(queue.items),
        **rows(len(queue.items)),
        "disputed": queue.disputed,
        "held": queue.held,
        "sampled": queue.sampled,
        "eligible_for_sample": queue.eligible_for_sample,
        "sample_seed": str(queue.seed),
        "detection_probability": dg.MetadataValue.json({str(k): v for k, v in queue.detection_probability.items()}),
        "queue": dg.MetadataValue.md(queue_markdown(queue.items)),
    }


def provider_kind(vendor: str, *, has_key: bool, rehearsal: bool) -> str:
    """The kind badge of a step: the vendor when its key is set, "rehearsal" against the
    local vendor servers, else "offline-rules" (the labelled stand-in that runs then)."""
    if rehearsal:
        return "rehearsal"
    return vendor if has_key else "offline-rules"


def with_provider_kinds(
    assets: list[dg.AssetsDefinition], *, keys: dict[str, bool], rehearsal: bool
) -> list[dg.AssetsDefinition]:
    """The assets with each vendor kind replaced by the provider that actually runs."""

    def relabel(spec: dg.AssetSpec) -> dg.AssetSpec:
        kinds = {
            provider_kind(k, has_key=keys.get(k, False), rehearsal=rehearsal) if k in VENDOR_KINDS else k
            for k in spec.kinds
        }
        return spec.replace_attributes(kinds=kinds)

    return [a.map_asset_specs(relabel) for a in assets]
