"""The type matrix in MySQL (MariaDB here): the values of tests/integration/type_matrix.py, written
by Spark in Spark's types and by MySQL in MySQL's own, with MySQL's quirks as extra columns, and
the same Spark table copied into PostgreSQL.

What MySQL cannot hold is left out honestly: its DOUBLE and FLOAT hold no NaN and no infinity, so
those cells are NULL in this matrix's every copy, Spark's included (the type matrix keeps them).
Every instant goes into DATETIME, whose range (years 1000 to 9999; MariaDB stores year 1 too)
holds the matrix's; TIMESTAMP, which holds 1970-01-01 00:00:01 to 2038-01-19 03:14:07.999999 UTC
only, has a column of its own whose values stay in that range.

Quirk columns: `at_ts`, TIMESTAMP(6), an instant stored as UTC, against Spark's timestamp;
`flag`, TINYINT(1) (MySQL's BOOLEAN), against Spark's boolean; `padded`, utf8mb4 text in a
case-insensitive PAD SPACE collation, which holds 'a' = 'a ' = 'A' where parity must not;
`wide`, DECIMAL(65,30), against Spark's widest decimal at that scale.
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal

import psycopg
from pyspark.sql import SparkSession

from tests.integration import type_matrix as matrix
from tests.integration.mariadb_server import client

MYSQL_ENV = "PARITY_TEST_MATRIX_MYSQL"
PG_ENV = "PARITY_TEST_MYSQL_MATRIX_PG"
TABLE = "mysql_matrix"
CHANGED = "mysql_matrix_changed"
UTC = dt.timezone.utc

# The MySQL type of each column of the type matrix.
MYSQL_TYPES = {
    "small": "smallint",
    "big": "bigint",
    "amount": "decimal(18,4)",
    "ratio": "double",
    "ratio32": "float",
    "narrowed": "float",
    "flag": "tinyint(1)",
    "flag_int": "tinyint",
    "flag_text": "char(1)",
    "code": "char(8)",
    "note": "text",
    "day": "date",
    "at": "datetime(6)",
    "at_ms": "datetime(3)",
    "wall": "datetime(6)",
    "wall_s": "datetime",
    "uid": "char(36)",
    "blob": "varbinary(16)",
    "tiny": "tinyint",
    "medium": "int",
}
# name: (Spark type, MySQL type, PostgreSQL type); the type matrix's columns first.
COLUMNS = {
    **{name: (types[0], MYSQL_TYPES[name], types[1]) for name, types in matrix.COLUMNS.items()},
    "at_ts": ("timestamp", "timestamp(6) null", "timestamptz"),
    "padded": ("string", "varchar(20) collate utf8mb4_general_ci", "text"),
    "wide": ("decimal(38,30)", "decimal(65,30)", "numeric(65,30)"),
}

# The quirk columns' values, by id: TIMESTAMP's first and last instants and ties to round,
# trailing and leading spaces and case, and 38 digits.
QUIRKS = {
    1: (dt.datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC), "a", "0"),
    2: (dt.datetime(2020, 1, 1, 0, 0, 5, 999600, tzinfo=UTC), "a ", "1." + "0" * 29 + "1"),
    3: (dt.datetime(2038, 1, 19, 3, 14, 7, 999999, tzinfo=UTC), "A", "-0." + "0" * 29 + "1"),
    4: (dt.datetime(1999, 12, 31, 23, 59, 59, 500, tzinfo=UTC), "a  ", "9" * 8 + "." + "9" * 30),
    5: (None, "", "-" + "9" * 8 + "." + "9" * 30),
    6: (dt.datetime(2000, 1, 1, 0, 0, 0, 500, tzinfo=UTC), " ", "12345678." + "1234567890" * 3),
    7: (dt.datetime(2024, 3, 10, 7, 30, tzinfo=UTC), " a", None),
    8: (None, None, "0.5" + "0" * 29),
    9: (dt.datetime(1970, 1, 1, 0, 0, 1, 1, tzinfo=UTC), "é ", "-7"),
    10: (dt.datetime(2038, 1, 19, 3, 14, 7, tzinfo=UTC), "É", "3.141592653589793238462643383279"),
}

# The type matrix's planted changes (all values MySQL holds), and one per quirk column: a
# trailing space that MySQL's collation ignores, a case, a microsecond, the 30th decimal.
PLANTED = [
    *matrix.PLANTED,
    ("at_ts", 10, dt.datetime(2038, 1, 19, 3, 14, 6, 999999, tzinfo=UTC)),
    ("padded", 1, "a "),
    ("padded", 3, "a"),
    ("wide", 2, "1.000000000000000000000000000002"),
]
NOT_DIFFERENCES = matrix.NOT_DIFFERENCES

SOURCES = f"""
version: 2
sources:
  - name: mysql_matrix_lake
    schema: "{{{{ env_var('PARITY_SCHEMA') }}}}"
    tables:
      - name: {TABLE}
  - name: mysql_matrix_mysql
    schema: parity
    meta:
      parity: {{dialect: mysql, connection_env: {MYSQL_ENV}}}
    tables:
      - name: {TABLE}
      - name: {CHANGED}
  - name: mysql_matrix_pg
    schema: public
    meta:
      parity: {{dialect: postgres, connection_env: {PG_ENV}}}
    tables:
      - name: {TABLE}
"""


def _held(value):
    """None for a float MySQL cannot hold (NaN, infinities), the value otherwise."""
    return None if isinstance(value, float) and not math.isfinite(value) else value


def rows() -> list[dict]:
    """The type matrix's rows as Spark is given them, MySQL's unholdable floats NULL, with the
    quirk columns."""
    found = []
    for row in matrix.spark_rows():
        at_ts, padded, wide = QUIRKS[row["id"]]
        held = {name: _held(value) for name, value in row.items()}
        found.append({**held, "at_ts": at_ts, "padded": padded, "wide": _decimal(wide)})
    return found


def _decimal(text: str | None) -> Decimal | None:
    return None if text is None else Decimal(text)


def write_spark_table(spark: SparkSession, schema: str) -> None:
    columns = ", ".join(f"`{name}` {types[0]}" for name, types in COLUMNS.items())
    frame_types = {n: "string" if t[0] == "char(8)" else t[0] for n, t in COLUMNS.items()}
    spark.sql(f"drop table if exists {schema}.{TABLE}")
    spark.sql(f"create table {schema}.{TABLE} (id bigint, {columns}) using parquet")
    frame = spark.createDataFrame(
        [tuple(row.values()) for row in rows()],
        ", ".join(["id bigint", *(f"{name} {frame_types[name]}" for name in COLUMNS)]),
    )
    frame.write.insertInto(f"{schema}.{TABLE}")


def _mysql_value(name: str, value):
    """A Python value as MySQL's column takes it: instants as their UTC wall clock, booleans as
    MySQL writes them into each column."""
    if value is None:
        return None
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return value.astimezone(UTC).replace(tzinfo=None)
    if name == "flag_text":
        return "t" if value else "f"
    if name in ("flag", "flag_int"):
        return int(value)
    if name in ("amount", "wide"):
        return Decimal(value)
    return value


def copy_to_mysql(url: str) -> None:
    """Row by row (instants as UTC, into TIMESTAMP too), each value converted by MySQL into its
    column's type: a finer fraction of a second truncated (MariaDB's default; MySQL
    rounds it half up), a decimal rounded to the column's scale, a double
    narrowed to FLOAT."""
    names = ["id", *COLUMNS]
    definition = ", ".join(["id bigint primary key", *(f"`{n}` {COLUMNS[n][1]}" for n in COLUMNS)])
    values = [tuple(_mysql_value(n, row[n]) for n in names) for row in rows()]
    utc = client(url, init_command="set time_zone = '+00:00'")
    with utc as connection, connection.cursor() as cursor:
        for table in (TABLE, CHANGED):
            cursor.execute(f"drop table if exists {table}")
            cursor.execute(f"create table {table} ({definition}) character set utf8mb4")
            cursor.executemany(
                f"insert into {table} values ({', '.join(['%s'] * len(names))})", values
            )
        for column, key, value in PLANTED + NOT_DIFFERENCES:
            cursor.execute(
                f"update {CHANGED} set `{column}` = %s where id = %s",
                (_mysql_value(column, value), key),
            )


def _postgres_value(name: str, value):
    if value is None:
        return None
    if name == "flag_int":
        return int(value)
    if name == "flag_text":
        return "t" if value else "f"
    return value


def copy_to_postgres(url: str) -> None:
    """The same rows into PostgreSQL's types, each rounded by PostgreSQL's own rules."""
    names = ["id", *COLUMNS]
    definition = ", ".join(["id bigint primary key", *(f'"{n}" {COLUMNS[n][2]}' for n in COLUMNS)])
    casts = ", ".join(["%s", *(f"cast(%s as {COLUMNS[n][2]})" for n in COLUMNS)])
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"drop table if exists {TABLE}")
        connection.execute(f"create table {TABLE} ({definition})")
        with connection.cursor() as cursor:
            cursor.executemany(
                f"insert into {TABLE} values ({casts})",
                [tuple(_postgres_value(n, row[n]) for n in names) for row in rows()],
            )
