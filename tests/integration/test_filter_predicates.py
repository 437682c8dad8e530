"""The filters the plan accepts run on their engines: every ordinary predicate of
tests/filter_predicates.py (dates, intervals, `in` lists, `like`, `case`, casts, `coalesce`, each
dialect's own syntax), pasted as the plan pastes a `where`, on a small table of orders in each
engine, read through parity's own read-only sessions (Spark: the tests' session, configured as
dbt configures it). DuckDB's, which needs no server, is tests/unit/test_duckdb_filters.py."""

from __future__ import annotations

import psycopg

from tests.filter_predicates import COLUMNS, ROWS, SQL_TABLE, failures, remote_failures
from tests.integration.mariadb_server import client


def test_spark_runs_every_filter(spark):
    frame = spark.createDataFrame(
        ROWS,
        "id int, status string, note string, amount decimal(12,2), d date,"
        " ordered_at timestamp, is_gift boolean",
    )
    frame.createOrReplaceTempView("filter_orders")
    try:
        assert failures("spark", lambda sql: spark.sql(sql).collect()) == {}
    finally:
        spark.catalog.dropTempView("filter_orders")


def test_postgres_runs_every_filter(postgres_url, monkeypatch):
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute("drop table if exists filter_orders")
        connection.execute(SQL_TABLE.format(timestamp="timestamp"))
        with connection.cursor() as cursor:
            cursor.executemany(
                f"insert into filter_orders ({COLUMNS}) values (%s, %s, %s, %s, %s, %s, %s)", ROWS
            )
    assert remote_failures("postgres", postgres_url, monkeypatch) == {}


def test_mysql_runs_every_filter(mariadb_url, monkeypatch):
    with client(mariadb_url) as connection, connection.cursor() as cursor:
        cursor.execute("drop table if exists filter_orders")
        cursor.execute(SQL_TABLE.format(timestamp="datetime(6)"))
        cursor.executemany(
            f"insert into filter_orders ({COLUMNS}) values (%s, %s, %s, %s, %s, %s, %s)", ROWS
        )
    assert remote_failures("mysql", mariadb_url, monkeypatch) == {}
