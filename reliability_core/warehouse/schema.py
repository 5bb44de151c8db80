"""Each warehouse table's one Arrow schema, derived from its pydantic record model.

Every partition of a table has the table's schema, whatever the subject's outcome: a
subject refused coverage gets an empty partition with the same columns and types as a
covered one, so DuckDB (``Warehouse.connect``, or a plain ``read_parquet`` glob over the
files) reads the table as one relation. A column is typed from the field's annotation as
the record is stored (``model_dump(mode="json")``): ``str``, ``int``, ``float`` and
``bool`` fields as those types; dates, times, literals and anything nested (models,
lists, dicts, unions of several kinds) as text, nested values as JSON. Every column is
nullable: an absent value (``None``) is a null of the column's type, never a column of
another type.
"""

from __future__ import annotations

import datetime as dt
import enum
import json
import types
from collections.abc import Sequence
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import pyarrow as pa
from pydantic import BaseModel

JSON_COLUMN = "_json"  # the whole record, so reading back gives exactly the model written
SUBJECT_COLUMN = "subject_id"  # added when the model has no field of that name

_SCALARS: dict[type, pa.DataType] = {
    bool: pa.bool_(),
    int: pa.int64(),
    float: pa.float64(),
    str: pa.string(),
}


def _column_type(annotation: Any) -> pa.DataType:
    """The Arrow type a field is stored as: its scalar type, else text."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _column_type(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        kinds = {_column_type(a) for a in get_args(annotation) if a is not type(None)}
        if kinds == {pa.int64(), pa.float64()}:
            return pa.float64()  # a number that may be whole: JSON keeps it a number
        return kinds.pop() if len(kinds) == 1 else pa.string()
    if origin is Literal:
        values = {type(v) for v in get_args(annotation)}
        return _SCALARS.get(values.pop(), pa.string()) if len(values) == 1 else pa.string()
    if isinstance(annotation, type):
        if issubclass(annotation, enum.Enum):
            return _column_type(type(next(iter(annotation)).value)) if len(annotation) else pa.string()
        if issubclass(annotation, dt.date | dt.time | dt.timedelta):
            return pa.string()  # ISO 8601 text, as the JSON dump writes it
        for scalar, arrow_type in _SCALARS.items():
            if annotation is scalar:
                return arrow_type
    return pa.string()


def arrow_schema(model: type[BaseModel]) -> pa.Schema:
    """The table a record model is stored as: one nullable column per field, ``_json``
    (the whole record), and ``subject_id`` when the model has no such field."""
    fields = [pa.field(name, _column_type(info.annotation)) for name, info in model.model_fields.items()]
    fields.append(pa.field(JSON_COLUMN, pa.string()))
    if SUBJECT_COLUMN not in model.model_fields:
        fields.append(pa.field(SUBJECT_COLUMN, pa.string()))
    return pa.schema(fields)


def _cell(value: Any, arrow_type: pa.DataType) -> Any:
    """A dumped value in its column's type: nested values (and, in a text column, a number
    or flag of a mixed union) as JSON text."""
    if value is None:
        return None
    if pa.types.is_string(arrow_type):
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    if pa.types.is_floating(arrow_type):
        return float(value)
    return value


def records_to_arrow(records: Sequence[BaseModel], subject_id: str, model: type[BaseModel]) -> pa.Table:
    """``records`` (instances of ``model``) as an Arrow table in ``model``'s schema; no
    records give an empty table with the same schema."""
    schema = arrow_schema(model)
    dumped = [r.model_dump(mode="json") for r in records]
    columns: dict[str, list[Any]] = {}
    for field in schema:
        if field.name == JSON_COLUMN:
            columns[field.name] = [r.model_dump_json() for r in records]
        elif field.name == SUBJECT_COLUMN and SUBJECT_COLUMN not in model.model_fields:
            columns[field.name] = [subject_id] * len(records)
        else:
            columns[field.name] = [_cell(d.get(field.name), field.type) for d in dumped]
    return pa.table(
        {name: pa.array(values, schema.field(name).type) for name, values in columns.items()}, schema=schema
    )


def schema_differences(found: pa.Schema, declared: pa.Schema) -> list[str]:
    """How a stored partition's columns differ from its table's declared schema (empty: none)."""
    differences = []
    for field in declared:
        index = found.get_field_index(field.name)
        if index < 0:
            differences.append(f"{field.name} missing")
        elif not found.field(index).type.equals(field.type):
            differences.append(f"{field.name} is {found.field(index).type}, not {field.type}")
    differences.extend(f"{name} not declared" for name in found.names if declared.get_field_index(name) < 0)
    return differences
