"""The Spark schema of a result record, derived from its dataclass: one field per dataclass
field, in order, named as it is; nullable where its type admits None; a list of records an
array of their struct. A record becomes a row by the same walk, so the two cannot disagree. A
field marked ``IN_SPARK`` holds what stays in Spark (a DataFrame): it is no column of the row."""

from __future__ import annotations

from dataclasses import Field, fields, is_dataclass
from datetime import datetime
from types import NoneType, UnionType
from typing import Any, get_args, get_origin, get_type_hints

from pyspark.sql import types as T

# The metadata of a field that is no column of the record's row.
IN_SPARK = {"in_spark": True}
SCALARS = {
    str: T.StringType(),
    int: T.LongType(),
    float: T.DoubleType(),
    bool: T.BooleanType(),
    datetime: T.TimestampType(),
}


def schema_of(record: type) -> T.StructType:
    hints = get_type_hints(record)
    return T.StructType([_field(f.name, hints[f.name]) for f in _columns(record)])


def row_of(record: Any) -> tuple[Any, ...]:
    """The record's values in its schema's order, records nested in lists as rows too."""
    return tuple(_value(getattr(record, f.name)) for f in _columns(record))


def _columns(record: Any) -> list[Field]:
    return [f for f in fields(record) if not f.metadata.get("in_spark")]


def _field(name: str, hint: Any) -> T.StructField:
    nullable = isinstance(hint, UnionType)
    if nullable:
        (hint,) = (arg for arg in get_args(hint) if arg is not NoneType)
    return T.StructField(name, _type(hint), nullable)


def _type(hint: Any) -> T.DataType:
    if get_origin(hint) is list:
        (element,) = get_args(hint)
        return T.ArrayType(schema_of(element), False)
    return SCALARS[hint]


def _value(value: Any) -> Any:
    if isinstance(value, list):
        return [row_of(item) if is_dataclass(item) else item for item in value]
    return value
