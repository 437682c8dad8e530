"""A Spark relation's columns as the plan reads them (macros/plan/pair_plan.sql): each column's
name, its type as Spark's `describe` spells it, whether it may be NULL, and its nested fields,
read from the session's catalog in one lookup.

Through SQL the plan asks two statements per relation for the same (`describe extended`, which
spells char and varchar, and `describe extended ... as json`, which alone gives nullability and
nested fields; macros/plan/spark_column_details.sql): tens of milliseconds each, with dbt's own
work around them, for every relation of every pair. In dbt's own SparkSession
(dbt_parity.spark_columns) this reads them at once. Both ways give the same columns, field for
field (tests/integration/test_spark_columns.py).
"""

from __future__ import annotations

from typing import Any

from pyspark.errors import AnalysisException
from pyspark.sql import SparkSession
from pyspark.sql import types as T

NOT_FOUND = "TABLE_OR_VIEW_NOT_FOUND"


def spark_columns(spark: SparkSession, relation_name: str) -> list[dict[str, Any]]:
    """The relation's columns, [] when no such relation exists (as dbt-spark's
    get_columns_in_relation gives it); any other error is raised."""
    try:
        frame = spark.table(relation_name)
    except AnalysisException as error:
        if error.getCondition() == NOT_FOUND:
            return []
        raise
    # describe spells each column's type from the catalog's schema, char and varchar kept:
    # the frame's schema reads them as strings.
    jvm = spark._jvm
    raw = jvm.org.apache.spark.sql.catalyst.util.CharVarcharUtils.getRawSchema(frame._jdf.schema())
    spelled = [field.dataType().simpleString() for field in raw.fields()]
    return [
        {
            "name": field.name,
            "data_type": data_type,
            "nullable": field.nullable,
            "fields": _nested_fields(field.dataType, field.name),
        }
        for field, data_type in zip(frame.schema.fields, spelled, strict=True)
    ]


def _nested_fields(data_type: T.DataType, path: str) -> list[dict[str, Any]]:
    """Every struct field, array element and map key and value under a column, named by its
    path (`address.city`, `tags[]`, `totals{value}.amount`), as spark_column_details names
    them from the JSON description."""
    if isinstance(data_type, T.StructType):
        children = [(f"{path}.{f.name}", f.dataType, f.nullable) for f in data_type.fields]
    elif isinstance(data_type, T.ArrayType):
        children = [(f"{path}[]", data_type.elementType, data_type.containsNull)]
    elif isinstance(data_type, T.MapType):
        children = [
            (f"{path}{{key}}", data_type.keyType, False),
            (f"{path}{{value}}", data_type.valueType, data_type.valueContainsNull),
        ]
    else:
        return []
    fields = []
    for child_path, child_type, nullable in children:
        fields.append(
            {"path": child_path, "data_type": _type_text(child_type), "nullable": nullable}
        )
        fields.extend(_nested_fields(child_type, child_path))
    return fields


def _type_text(data_type: T.DataType) -> str:
    """A nested field's type as spark_column_details spells it from the JSON description:
    Spark's plain spelling, without a string's collation or an interval's units."""
    if isinstance(data_type, T.StructType):
        members = ",".join(f"{f.name}:{_type_text(f.dataType)}" for f in data_type.fields)
        return f"struct<{members}>"
    if isinstance(data_type, T.ArrayType):
        return f"array<{_type_text(data_type.elementType)}>"
    if isinstance(data_type, T.MapType):
        return f"map<{_type_text(data_type.keyType)},{_type_text(data_type.valueType)}>"
    if isinstance(data_type, T.StringType):
        return "string"
    if isinstance(data_type, (T.DayTimeIntervalType, T.YearMonthIntervalType)):
        return "interval"
    return data_type.simpleString()
