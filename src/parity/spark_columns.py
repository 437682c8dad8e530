"""Spark relations' columns as the plan reads them (macros/plan/pair_plan.sql): each column's
name, its type as Spark's `describe` spells it, whether it may be NULL, and its nested fields,
read from the session's catalog.

Through SQL the plan asks two statements per relation for the same (`describe extended`, which
spells char and varchar, and `describe extended ... as json`, which alone gives nullability and
nested fields; macros/plan/spark_column_details.sql): tens of milliseconds each, with dbt's own
work around them, for every relation of every pair. In dbt's own SparkSession
(dbt_parity.spark_columns) the plan reads every relation of the session catalog at once, one
metastore call per database (spark_columns_of), and each other relation in one lookup
(spark_columns). Both ways give the same columns, field for field, as `describe` reads them
from the catalog (tests/integration/test_spark_columns.py).
"""

from __future__ import annotations

import json
from typing import Any

from py4j.protocol import Py4JJavaError
from pyspark.errors import AnalysisException
from pyspark.sql import SparkSession
from pyspark.sql import types as T

from parity.scala_seq import scala_items
from parity.sides.fingerprints import SESSION_CATALOG

NOT_FOUND = "TABLE_OR_VIEW_NOT_FOUND"
# Formats whose tables the metastore holds with their columns (`hive`: Hive's own tables).
METASTORE_FORMATS = {"parquet", "orc", "csv", "json", "avro", "text", "hive"}


def spark_columns(spark: SparkSession, relation_name: str) -> list[dict[str, Any]]:
    """The relation's columns, [] when no such relation exists (as dbt-spark's
    get_columns_in_relation gives it); any other error is raised."""
    found = spark_columns_of(spark, [relation_name])
    if relation_name in found:
        return found[relation_name]
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
    return _columns(frame.schema, raw)


def spark_columns_of(spark: SparkSession, relation_names: list[str]) -> dict[str, list[dict]]:
    """The columns of each of these relations that the session catalog describes itself, by
    name, read in one metastore call per database (a lookup each took 40 to 50 ms, a hundred of
    them most of a 50-pair plan's time). Left out, for spark_columns to read alone: a relation
    that does not exist, a temporary view, one in another catalog, and a table whose format
    keeps its schema outside the metastore (Delta's, Iceberg's and Hudi's, which the metastore
    holds without columns)."""
    if not relation_names or spark.catalog.currentCatalog() != SESSION_CATALOG:
        return {}
    jvm = spark._jvm
    state = spark._jsparkSession.sessionState()
    by_database: dict[str, dict[str, str]] = {}
    for name in relation_names:
        parts = _name_parts(state, name)
        if len(parts) == 3 and parts[0].lower() == SESSION_CATALOG:
            parts = parts[1:]
        if len(parts) == 2:
            by_database.setdefault(parts[0].lower(), {})[parts[1].lower()] = name
    identifier, some = jvm.org.apache.spark.sql.catalyst.TableIdentifier, jvm.scala.Some
    as_scala = jvm.scala.jdk.javaapi.CollectionConverters.asScala
    raw_schema = jvm.org.apache.spark.sql.catalyst.util.CharVarcharUtils.getRawSchema
    found: dict[str, list[dict]] = {}
    for database, tables in by_database.items():
        listed = jvm.java.util.ArrayList([identifier(table, some(database)) for table in tables])
        try:
            described = state.catalog().getTablesByName(as_scala(listed).toSeq())
        except (AnalysisException, Py4JJavaError):
            continue  # no such database: each relation is looked up alone
        for table in scala_items(described):
            schema = table.schema()
            if not _schema_in_metastore(table) or schema.isEmpty():
                continue
            name = tables.get(table.identifier().table().lower())
            if name is not None:
                parsed = T.StructType.fromJson(json.loads(schema.json()))
                found[name] = _columns(parsed, raw_schema(schema))
    return found


def _name_parts(state: Any, name: str) -> list[str]:
    """A relation name's parts as Spark parses them (backquotes removed), [] if it cannot."""
    try:
        parts = state.sqlParser().parseMultipartIdentifier(name)
    except (AnalysisException, Py4JJavaError):
        return []
    return scala_items(parts)


def _schema_in_metastore(table: Any) -> bool:
    """Whether the metastore holds the table's columns: a view's, or a table's in a format whose
    schema lives there."""
    if table.tableType().name() == "VIEW":
        return True
    provider = table.provider()
    return provider.isDefined() and provider.get().lower() in METASTORE_FORMATS


def _columns(schema: T.StructType, raw: Any) -> list[dict[str, Any]]:
    """Each column of ``schema``, its type spelled from ``raw``, the same schema as the catalog
    holds it (char and varchar kept)."""
    spelled = [field.dataType().simpleString() for field in raw.fields()]
    return [
        {
            "name": field.name,
            "data_type": data_type,
            "nullable": field.nullable,
            "fields": _nested_fields(field.dataType, field.name),
        }
        for field, data_type in zip(schema.fields, spelled, strict=True)
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
