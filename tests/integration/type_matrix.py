"""The type matrix: one table of hard values, written by Spark in Spark's types, then read back and
written by PostgreSQL and by DuckDB in their own types, so each copy holds that engine's own
rounding (numeric scale, float32, millisecond and second timestamps, char padding).

Every column name says what it holds; the `*_ms`, `*_s`, `narrowed` and `amount` copies are
coarser in the other engines than in Spark, and the pair must still match.
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal
from pathlib import Path

import duckdb
import psycopg
from pyspark.sql import SparkSession

PG_ENV = "PARITY_TEST_MATRIX_PG"
DUCKDB_ENV = "PARITY_TEST_MATRIX_DUCKDB"
TABLE = "type_matrix"
CHANGED = "type_matrix_changed"
DRIFTED = "type_matrix_drifted"
COMPOUND = "compound_keys"
# (a, b, value): the keys (1, 11) and (11, 1) must not be confused, as a key concatenated
# without separators would; their values are swapped in the Spark copy.
COMPOUND_ROWS = [(1, 11, "x"), (11, 1, "y"), (1, 1, "z")]
COMPOUND_SPARK_ROWS = [(1, 11, "y"), (11, 1, "x"), (1, 1, "z")]

# name: (Spark type, PostgreSQL type, DuckDB type)
COLUMNS = {
    "small": ("smallint", "smallint", "smallint"),
    "big": ("bigint", "bigint", "bigint"),
    "amount": ("decimal(18,6)", "numeric(18,4)", "decimal(18,4)"),
    "ratio": ("double", "double precision", "double"),
    "ratio32": ("float", "real", "float"),
    "narrowed": ("double", "real", "float"),
    "flag": ("boolean", "boolean", "boolean"),
    "flag_int": ("boolean", "smallint", "tinyint"),
    "flag_text": ("boolean", "char(1)", "varchar"),
    "code": ("char(8)", "char(8)", "varchar"),
    "note": ("string", "text", "varchar"),
    "day": ("date", "date", "date"),
    "at": ("timestamp", "timestamptz", "timestamptz"),
    "at_ms": ("timestamp", "timestamptz(3)", "timestamp_ms"),
    "wall": ("timestamp_ntz", "timestamp", "timestamp"),
    "wall_s": ("timestamp_ntz", "timestamp(0)", "timestamp_s"),
    "uid": ("string", "uuid", "uuid"),
    "blob": ("binary", "bytea", "blob"),
    "tiny": ("tinyint", "smallint", "tinyint"),
    "medium": ("int", "integer", "integer"),
}

UTC = dt.timezone.utc


def _at(*parts: int) -> dt.datetime:
    return dt.datetime(*parts, tzinfo=UTC)


ROWS = [
    # id, small, big, amount, ratio, ratio32, narrowed, flag (x3), code, note, day,
    # at (x2), wall (x2), uid, blob
    (
        1,
        0,
        0,
        "0.000000",
        0.0,
        0.0,
        0.0,
        False,
        "a",
        "plain",
        dt.date(1970, 1, 1),
        _at(1970, 1, 1),
        dt.datetime(1970, 1, 1),
        "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11",
        b"",
    ),
    (
        2,
        -32768,
        -(2**63),
        "1.234550",
        -0.0,
        -0.0,
        -0.0,
        True,
        "ab",
        "café",
        dt.date(1969, 7, 20),
        _at(2020, 1, 1, 0, 0, 5, 999600),
        dt.datetime(2020, 1, 1, 0, 0, 5, 999600),
        "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12",
        b"\x00\xff",
    ),
    (
        3,
        32767,
        2**63 - 1,
        "-1.234550",
        0.1,
        0.1,
        0.1,
        None,
        "x y",
        "cafe\u0301",
        dt.date(1900, 1, 1),
        _at(1969, 12, 31, 23, 59, 59, 500),
        dt.datetime(1969, 12, 31, 23, 59, 59, 500_000),
        None,
        None,
    ),
    (
        4,
        None,
        None,
        "-0.000050",
        math.nan,
        math.nan,
        math.nan,
        True,
        None,
        "",
        dt.date(2038, 1, 20),
        _at(1999, 12, 31, 23, 59, 59, 500),
        dt.datetime(1999, 12, 31, 23, 59, 59, 500_000),
        "00000000-0000-0000-0000-000000000000",
        b"parity",
    ),
    (
        5,
        1,
        42,
        None,
        math.inf,
        math.inf,
        math.inf,
        False,
        "12345678",
        None,
        dt.date(2100, 2, 28),
        _at(2000, 1, 1, 0, 0, 0, 500),
        dt.datetime(2000, 1, 1, 0, 0, 0, 500_000),
        "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
        b"\x01",
    ),
    (
        6,
        -1,
        -42,
        "999999999999.999949",
        -math.inf,
        -math.inf,
        -math.inf,
        True,
        " lead",
        "1:a",
        dt.date(1, 1, 1),
        _at(2038, 1, 19, 3, 14, 8, 123456),
        dt.datetime(2038, 1, 19, 3, 14, 7, 999_999),
        "123e4567-e89b-12d3-a456-426614174000",
        b"a:b",
    ),
    (
        7,
        7,
        7,
        "0.000049",
        1e25,
        3.4028234663852886e38,
        1e25,
        False,
        "-",
        "-",
        dt.date(9999, 12, 31),
        _at(2100, 12, 31, 23, 59, 59, 999999),
        dt.datetime(2100, 12, 31, 23, 59, 59, 999_999),
        None,
        b"-",
    ),
    (
        8,
        8,
        8,
        "12.500000",
        1e25 + 2**31,
        1e-45,
        16777217.0,
        None,
        "tab\tx",
        "a\tb\nc 👩\u200d👩\u200d👧",
        None,
        None,
        None,
        "123E4567-E89B-12D3-A456-426614174001",
        None,
    ),
    (
        9,
        9,
        9,
        "-12.500000",
        5e-324,
        -1.5,
        1 / 3,
        True,
        "",
        "😀 emoji",
        dt.date(2000, 2, 29),
        _at(1900, 3, 1, 12, 0, 0, 1),
        dt.datetime(1900, 3, 1, 12, 0, 0, 1),
        "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a19",
        b"\xe2\x82\xac",
    ),
    (
        10,
        10,
        10,
        "3.141593",
        1.7976931348623157e308,
        123456.789,
        -2.5e-40,
        False,
        "UPPER",
        "NULL",
        dt.date(2024, 3, 10),
        _at(2024, 3, 10, 7, 30),
        dt.datetime(2024, 3, 10, 2, 30),
        "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1a",
        b"\x00",
    ),
]

# The integer widths the rows above leave out, by id: (tiny, medium).
NARROW_INTEGERS = {
    1: (0, 0),
    2: (-128, -(2**31)),
    3: (127, 2**31 - 1),
    4: (None, None),
    5: (1, -1),
    6: (-1, 1),
    7: (7, 7),
    8: (8, 8),
    9: (9, 9),
    10: (10, 10),
}

# One single-value change per column, each in a row of its own: (column, id, new value), written
# through the same casts as the copy. Each must be found, and nothing else.
PLANTED = [
    ("small", 7, 6),
    ("big", 8, 9),
    ("amount", 9, "-12.500100"),
    ("ratio", 10, 1.7976931348623155e308),
    ("ratio32", 9, -1.4999998807907104),
    ("narrowed", 8, 16777220.0),
    ("flag", 2, False),
    ("flag_int", 1, True),
    ("flag_text", 4, False),
    ("code", 5, "12345679"),
    ("note", 2, "cafe\u0301"),
    ("day", 6, dt.date(1, 1, 2)),
    ("at", 9, _at(1900, 3, 1, 12, 0, 0, 2)),
    ("at_ms", 7, _at(2100, 12, 31, 23, 59, 59, 998000)),
    ("wall", 10, dt.datetime(2024, 3, 10, 2, 30, 0, 1)),
    ("wall_s", 3, dt.datetime(1969, 12, 31, 23, 59, 58)),
    ("uid", 4, "00000000-0000-0000-0000-000000000001"),
    ("blob", 1, b"\x00"),
    ("tiny", 3, 126),
    ("medium", 2, -(2**31) + 1),
]

# Changes that are no difference by the spec: -0.0 is 0, and a char's padding.
NOT_DIFFERENCES = [("ratio", 1, -0.0), ("code", 2, "ab  ")]

SOURCES = f"""
version: 2
sources:
  - name: matrix_lake
    schema: "{{{{ env_var('PARITY_SCHEMA') }}}}"
    tables:
      - name: {TABLE}
      - name: {CHANGED}
      - name: {DRIFTED}
      - name: {COMPOUND}
  - name: matrix_pg
    schema: public
    meta:
      parity: {{dialect: postgres, connection_env: {PG_ENV}}}
    tables:
      - name: {TABLE}
      - name: {CHANGED}
      - name: {COMPOUND}
  - name: matrix_duckdb
    schema: main
    meta:
      parity: {{dialect: duckdb, connection_env: {DUCKDB_ENV}}}
    tables:
      - name: {TABLE}
      - name: {CHANGED}
"""


def spark_rows() -> list[dict]:
    """The rows as Spark is given them: each source value in every column derived from it."""
    derived = {"flag_int": "flag", "flag_text": "flag", "at_ms": "at", "wall_s": "wall"}
    fields = ["id", *(n for n in COLUMNS if n not in derived and n not in ("tiny", "medium"))]
    rows = []
    for values in ROWS:
        row = dict(zip(fields, values, strict=True))
        row["tiny"], row["medium"] = NARROW_INTEGERS[row["id"]]
        row["amount"] = None if row["amount"] is None else Decimal(row["amount"])
        rows.append({"id": row["id"], **{n: row[derived.get(n, n)] for n in COLUMNS}})
    return rows


def changed_spark_rows() -> list[dict]:
    """spark_rows with the planted changes, and the changes that are none, made in Spark."""
    rows = spark_rows()
    by_id = {row["id"]: row for row in rows}
    for column, key, value in PLANTED + NOT_DIFFERENCES:
        by_id[key][column] = Decimal(value) if column == "amount" else value
    return rows


def write_spark_table(spark: SparkSession, schema: str) -> None:
    columns = ", ".join(f"`{name}` {types[0]}" for name, types in COLUMNS.items())
    # char(8) is a string to a DataFrame; the table pads it.
    frame_types = {
        name: "string" if types[0] == "char(8)" else types[0] for name, types in COLUMNS.items()
    }
    for table, rows in ((TABLE, spark_rows()), (CHANGED, changed_spark_rows())):
        spark.sql(f"drop table if exists {schema}.{table}")
        spark.sql(f"create table {schema}.{table} (id bigint, {columns}) using parquet")
        frame = spark.createDataFrame(
            [tuple(row.values()) for row in rows],
            ", ".join(["id bigint", *(f"{name} {frame_types[name]}" for name in COLUMNS)]),
        )
        frame.write.insertInto(f"{schema}.{table}")
    spark.createDataFrame(COMPOUND_SPARK_ROWS, "a int, b int, value string").write.mode(
        "overwrite"
    ).saveAsTable(f"{schema}.{COMPOUND}")
    # Schema drift: `blob` dropped, `extra` added, `day` become a day number.
    spark.sql(f"drop table if exists {schema}.{DRIFTED}")
    spark.sql(
        f"create table {schema}.{DRIFTED} using parquet as select * except (blob, day),"
        f" unix_date(day) as day, 1 as extra from {schema}.{TABLE}"
    )


def _wall_clock_micros(column: str) -> str:
    """Spark's timestampdiff on timestamp_ntz depends on the session time zone: use fields."""
    return (
        f"(unix_date(cast({column} as date)) * 86400000000 + hour({column}) * 3600000000"
        f" + cast(minute({column}) as bigint) * 60000000"
        f" + cast(date_part('SECOND', {column}) * 1000000 as bigint))"
    )


def _transported(spark: SparkSession, schema: str) -> list[dict]:
    """The Spark table's values as exact Python values: timestamps through microseconds."""
    epoch = dt.datetime(1970, 1, 1)
    rows = spark.sql(
        f"select *, unix_micros(at) as at_us, unix_micros(at_ms) as at_ms_us,"
        f" {_wall_clock_micros('wall')} as wall_us, {_wall_clock_micros('wall_s')} as wall_s_us,"
        f" cast(amount as string) as amount_text from {schema}.{TABLE} order by id"
    ).collect()
    found = []
    for row in rows:
        values = row.asDict()
        for name in ("at", "at_ms", "wall", "wall_s"):
            micros = values.pop(f"{name}_us")
            instant = None if micros is None else epoch + dt.timedelta(microseconds=micros)
            values[name] = (
                instant
                if name.startswith("wall") or instant is None
                else instant.replace(tzinfo=UTC)
            )
        values["amount"] = values.pop("amount_text")
        found.append(values)
    return found


def _postgres_cast(name: str) -> str:
    """How PostgreSQL takes a Spark value into its own type of the column."""
    pg_type = COLUMNS[name][1]
    if name == "flag_int":
        return "cast(cast(%s as boolean) as integer)::smallint"
    if name == "flag_text":
        return "left(cast(cast(%s as boolean) as text), 1)::char(1)"
    if name in ("ratio32", "narrowed"):
        return "cast(cast(%s as double precision) as real)"
    return f"cast(%s as {pg_type})"


def copy_to_postgres(spark: SparkSession, schema: str, url: str) -> None:
    rows = _transported(spark, schema)
    names = ["id", *COLUMNS]
    definition = ", ".join(["id bigint primary key", *(f'"{n}" {COLUMNS[n][1]}' for n in COLUMNS)])
    placeholders = ", ".join(["%s", *(_postgres_cast(n) for n in COLUMNS)])
    with psycopg.connect(url, autocommit=True) as connection:
        for table in (TABLE, CHANGED):
            connection.execute(f"drop table if exists {table}")
            connection.execute(f"create table {table} ({definition})")
            with connection.cursor() as cursor:
                cursor.executemany(
                    f"insert into {table} values ({placeholders})",
                    [tuple(row[n] for n in names) for row in rows],
                )
        connection.execute(f"drop table if exists {COMPOUND}")
        connection.execute(f"create table {COMPOUND} (a integer, b integer, value text)")
        with connection.cursor() as cursor:
            cursor.executemany(f"insert into {COMPOUND} values (%s, %s, %s)", COMPOUND_ROWS)
        for column, key, value in PLANTED + NOT_DIFFERENCES:
            connection.execute(
                f'update {CHANGED} set "{column}" = {_postgres_cast(column)} where id = %s',
                (value, key),
            )


def _duckdb_cast(name: str) -> str:
    duck_type = COLUMNS[name][2]
    if name == "flag_int":
        return f'cast("{name}" as tinyint)'
    if name == "flag_text":
        return f'left(cast("{name}" as varchar), 1)'
    return f'cast("{name}" as {duck_type})'


def copy_to_duckdb(spark: SparkSession, schema: str, folder: Path) -> Path:
    """Through Parquet written by Spark, cast by DuckDB into its own types; returns the
    database."""
    spark.table(f"{schema}.{TABLE}").write.parquet(str(folder / "matrix.parquet"))
    database = folder / "matrix.duckdb"
    casts = ", ".join(["id", *(f'{_duckdb_cast(n)} as "{n}"' for n in COLUMNS)])
    with duckdb.connect(str(database)) as connection:
        connection.execute("set TimeZone = 'UTC'")
        for table in (TABLE, CHANGED):
            connection.execute(
                f"create table {table} as select {casts}"
                f" from read_parquet('{folder}/matrix.parquet/*.parquet')"
            )
        for column, key, value in PLANTED + NOT_DIFFERENCES:
            value = str(value).lower()[0] if column == "flag_text" else value
            connection.execute(
                f'update {CHANGED} set "{column}" = cast(? as {COLUMNS[column][2]}) where id = ?',
                [value, key],
            )
    return database
