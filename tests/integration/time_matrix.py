"""Timestamps finer than a microsecond, and naive timestamps written in a time zone: the same
values in Spark, PostgreSQL and DuckDB, each copy stored by its own engine.

Nanoseconds: DuckDB holds them (TIMESTAMP_NS, TIMESTAMPTZ_NS); its own microsecond copy is cast
by DuckDB, PostgreSQL's is read by PostgreSQL from the 9-digit text, and Spark's is read from
the Parquet file DuckDB wrote (Spark 4 refuses a nanosecond Parquet timestamp unless
spark.sql.legacy.parquet.nanosAsLong reads it as a count, which is then cut to microseconds).

Time zones: a legacy table holds the wall-clock times in Europe/Paris of instants that a lake
table holds as UTC instants (or as their UTC wall clocks), around both 2024 DST transitions.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import psycopg
import yaml
from pyspark.sql import SparkSession

PG_ENV = "PARITY_TEST_TIME_PG"
DUCKDB_ENV = "PARITY_TEST_TIME_DUCKDB"
PARIS = "Europe/Paris"

# id: 9-digit text (a naive wall clock, and the same in UTC as an instant). Ties at half a
# microsecond either side of 1970 and 2000, and ties that round to odd and even; carries across
# a second, a day and a year.
NANOS = {
    1: "2020-01-01 00:00:00.000000500",
    2: "2020-01-01 00:00:00.000001500",
    3: "2020-01-01 00:00:00.000002500",
    4: "1969-12-31 23:59:59.999999500",
    5: "2020-12-31 23:59:59.999999500",
    6: "2021-06-30 23:59:59.999999999",
    7: "1999-12-31 23:59:59.123456789",
    8: "1999-12-31 23:59:59.999999500",
    9: "1700-03-01 12:00:00.000000999",
    10: "2024-03-10 07:30:00.000000001",
    11: None,
}
# One nanosecond more in one row of each column: (column, id).
NANO_PLANTED = [("wall", 7), ("instant", 2)]

# id: (wall clock in Europe/Paris, the instant in UTC it names).
ZONED = {
    1: ("2024-07-14 14:00:00.123456", "2024-07-14 12:00:00.123456"),
    2: ("2024-01-15 08:30:00", "2024-01-15 07:30:00"),
    3: ("2000-01-01 00:00:00", "1999-12-31 23:00:00"),
    4: ("2024-03-31 01:59:59.999999", "2024-03-31 00:59:59.999999"),
    # In the spring gap: read with the offset before it (+01:00).
    5: ("2024-03-31 02:30:00", "2024-03-31 01:30:00"),
    6: ("2024-03-31 03:00:00", "2024-03-31 01:00:00"),
    7: ("2024-10-27 01:59:59", "2024-10-26 23:59:59"),
    # In the autumn overlap: the later of its two readings (+01:00).
    8: ("2024-10-27 02:30:00", "2024-10-27 01:30:00"),
    9: ("2024-10-27 03:00:00", "2024-10-27 02:00:00"),
    10: (None, None),
}
# Single-value changes of the legacy wall clocks: (id, new wall clock).
ZONE_PLANTED = [(4, "2024-03-31 01:59:59.999998"), (8, "2024-10-27 02:31:00")]

SOURCES = f"""
version: 2
sources:
  - name: time_lake
    schema: "{{{{ env_var('PARITY_SCHEMA') }}}}"
    tables:
      - name: ns_lake
      - name: instants_lake
      - name: utc_walls_lake
      - name: paris_walls_lake
  - name: time_pg
    schema: public
    meta:
      parity: {{dialect: postgres, connection_env: {PG_ENV}}}
    tables:
      - name: us_values
      - name: paris_walls
      - name: paris_walls_changed
      - name: instants
  - name: time_duckdb
    schema: main
    meta:
      parity: {{dialect: duckdb, connection_env: {DUCKDB_ENV}}}
    tables:
      - name: ns_values
      - name: ns_changed
      - name: us_values
      - name: paris_walls
      - name: paris_walls_ns
"""


def _parsed(text: str | None, zone: dt.tzinfo | None = None) -> dt.datetime | None:
    return None if text is None else dt.datetime.fromisoformat(text).replace(tzinfo=zone)


def _zoned(text: str | None) -> str | None:
    return None if text is None else text + "+00"


def write_duckdb(folder: Path) -> tuple[Path, Path]:
    """The nanosecond tables, DuckDB's microsecond copy, and the Paris wall clocks (also as
    TIMESTAMP_NS); the nanosecond table also as Parquet, for Spark. Returns the database and the
    Parquet file."""
    database, parquet = folder / "time.duckdb", folder / "ns_values.parquet"
    with duckdb.connect(str(database)) as connection:
        connection.execute("set TimeZone = 'UTC'")
        connection.execute(
            "create table ns_values (id bigint, wall timestamp_ns, instant timestamptz_ns)"
        )
        connection.executemany(
            "insert into ns_values values (?, cast(? as timestamp_ns), cast(? as timestamptz_ns))",
            [(key, text, _zoned(text)) for key, text in NANOS.items()],
        )
        connection.execute("create table ns_changed as select * from ns_values")
        for column, key in NANO_PLANTED:
            # DuckDB's intervals stop at microseconds: through the count.
            connection.execute(
                f"update ns_changed set {column} = make_timestamp_ns(epoch_ns({column}) + 1)"
                " where id = ?",
                [key],
            )
        connection.execute(
            "create table us_values as select id, cast(wall as timestamp) as wall,"
            " cast(instant as timestamptz) as instant from ns_values"
        )
        connection.execute(f"copy ns_values to '{parquet}'")
        connection.execute("create table paris_walls (id bigint, moment timestamp)")
        connection.executemany(
            "insert into paris_walls values (?, cast(? as timestamp))",
            [(key, wall) for key, (wall, _) in ZONED.items()],
        )
        connection.execute(
            "create table paris_walls_ns as select id, cast(moment as timestamp_ns) as moment"
            " from paris_walls"
        )
    return database, parquet


def write_postgres(url: str) -> None:
    """PostgreSQL's microsecond copy, read from the 9-digit texts; the Paris wall clocks of a
    legacy table (and a copy with the planted changes); the UTC instants."""
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("drop table if exists us_values")
        connection.execute(
            "create table us_values (id bigint, wall timestamp, instant timestamptz)"
        )
        with connection.cursor() as cursor:
            cursor.executemany(
                "insert into us_values values (%s, cast(%s as text)::timestamp,"
                " cast(%s as text)::timestamptz)",
                [
                    (key, text, None if text is None else text + "+00")
                    for key, text in NANOS.items()
                ],
            )
        for table in ("paris_walls", "paris_walls_changed"):
            connection.execute(f"drop table if exists {table}")
            connection.execute(f"create table {table} (id bigint, moment timestamp)")
            with connection.cursor() as cursor:
                cursor.executemany(
                    f"insert into {table} values (%s, cast(%s as text)::timestamp)",
                    [(key, wall) for key, (wall, _) in ZONED.items()],
                )
        for key, wall in ZONE_PLANTED:
            connection.execute(
                "update paris_walls_changed set moment = cast(%s as text)::timestamp where id = %s",
                (wall, key),
            )
        connection.execute("drop table if exists instants")
        connection.execute("create table instants (id bigint, moment timestamptz)")
        with connection.cursor() as cursor:
            cursor.executemany(
                "insert into instants values (%s, cast(%s as text)::timestamptz)",
                [(key, _zoned(utc)) for key, (_, utc) in ZONED.items()],
            )


def write_spark(spark: SparkSession, schema: str, parquet: Path) -> None:
    """The nanosecond Parquet file read as counts and cut to microseconds (floor); the UTC
    instants, as zoned timestamps and as UTC wall clocks; the Paris wall clocks."""
    spark.conf.set("spark.sql.legacy.parquet.nanosAsLong", "true")
    try:
        spark.read.parquet(str(parquet)).createOrReplaceTempView("parity_ns_counts")
        spark.sql(f"drop table if exists {schema}.ns_lake")
        # Floor to microseconds, never through a double: ns - pmod(ns, 1000) divides exactly.
        spark.sql(
            f"create table {schema}.ns_lake using parquet as select cast(id as bigint) as id,"
            " timestampadd(microsecond, (wall - pmod(wall, 1000)) div 1000,"
            " timestamp_ntz'1970-01-01 00:00:00') as wall,"
            " timestamp_micros((instant - pmod(instant, 1000)) div 1000) as instant"
            " from parity_ns_counts"
        )
    finally:
        spark.conf.unset("spark.sql.legacy.parquet.nanosAsLong")
    tables = {
        "instants_lake": (
            "timestamp",
            {k: _parsed(u, dt.timezone.utc) for k, (_, u) in ZONED.items()},
        ),
        "utc_walls_lake": ("timestamp_ntz", {k: _parsed(u) for k, (_, u) in ZONED.items()}),
        "paris_walls_lake": ("timestamp_ntz", {k: _parsed(w) for k, (w, _) in ZONED.items()}),
    }
    for table, (spark_type, values) in tables.items():
        spark.sql(f"drop table if exists {schema}.{table}")
        spark.createDataFrame(list(values.items()), f"id bigint, moment {spark_type}").write.format(
            "parquet"
        ).saveAsTable(f"{schema}.{table}")


def write_ns_file(folder: Path) -> str:
    """A Parquet file DuckDB wrote with a timestamp in nanoseconds, in ``folder``; returns the
    source that declares it as a file relation (`ns_files.ns`)."""
    folder.mkdir()
    with duckdb.connect() as connection:
        connection.execute(
            "copy (select 1::bigint as id, timestamp_ns '2020-01-01 00:00:00.123456789' as wall)"
            f" to '{folder}/part-0.parquet'"
        )
    files = {"format": "parquet"}
    table = {"name": "ns", "meta": {"parity": {"path": str(folder)}}}
    return yaml.safe_dump(
        {
            "version": 2,
            "sources": [{"name": "ns_files", "meta": {"parity": files}, "tables": [table]}],
        }
    )
