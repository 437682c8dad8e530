"""Copies a generated table from Spark into PostgreSQL with COPY, value for value, keyed by a
primary key as a production table is: its columns' types follow the Spark schema."""

from __future__ import annotations

import psycopg
from psycopg import sql
from pyspark.sql import SparkSession
from pyspark.sql import types as T

ROWS_PER_SLICE = 50_000
# PostgreSQL's type for each Spark type the generated tables hold (decimals keep their precision).
POSTGRES_TYPES = {
    T.LongType: "bigint",
    T.IntegerType: "integer",
    T.StringType: "text",
    T.DoubleType: "double precision",
    T.TimestampType: "timestamptz",
    T.DateType: "date",
    T.BooleanType: "boolean",
}


def copy_table(
    spark: SparkSession,
    schema: str,
    url: str,
    name: str = "bench_source",
    key: tuple[str, ...] = ("id",),
) -> None:
    """Spark's ``schema.name`` as PostgreSQL's table ``name``, dropped first if it exists, with
    ``key`` as its primary key."""
    fields = spark.table(f"{schema}.{name}").schema.fields
    columns = [sql.SQL("{} {}").format(sql.Identifier(f.name), sql.SQL(_type(f))) for f in fields]
    primary = sql.SQL("primary key ({})").format(sql.SQL(", ").join(map(sql.Identifier, key)))
    table = sql.Identifier(name)
    # In key order, a slice of the table at a time: one partition whole would reach the driver
    # as a single task's result, which a loaded machine's block manager may drop.
    frame = spark.table(f"{schema}.{name}")
    slices = max(1, frame.count() // ROWS_PER_SLICE)
    rows = (
        frame.repartitionByRange(slices, *key)
        .sortWithinPartitions(*key)
        .selectExpr(*map(_as_copied, fields))
        .toLocalIterator()
    )
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(sql.SQL("drop table if exists {}").format(table))
        connection.execute(
            sql.SQL("create table {} ({})").format(table, sql.SQL(", ").join([*columns, primary]))
        )
        copy = sql.SQL("copy {} from stdin").format(table)
        with connection.cursor() as cursor, cursor.copy(copy) as writer:
            for row in rows:
                writer.write_row(tuple(row))
        connection.execute(sql.SQL("vacuum analyze {}").format(table))


def _type(field: T.StructField) -> str:
    if isinstance(field.dataType, T.DecimalType):
        return f"numeric({field.dataType.precision}, {field.dataType.scale})"
    return POSTGRES_TYPES[type(field.dataType)]


def _as_copied(field: T.StructField) -> str:
    """The Spark expression of a column as COPY reads it: timestamps as UTC text with an explicit
    offset, decimals as exact decimal text, dates as ISO text, anything else as it is."""
    column = f"`{field.name}`"
    if isinstance(field.dataType, T.TimestampType):
        return (
            f"concat(cast(timestampadd(microsecond, unix_micros({column}),"
            f" timestamp_ntz'1970-01-01 00:00:00') as string), '+00') as {column}"
        )
    if isinstance(field.dataType, T.DecimalType | T.DateType):
        return f"cast({column} as string) as {column}"
    return column
