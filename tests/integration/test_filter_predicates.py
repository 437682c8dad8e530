"""The filters the plan accepts run on their engines: every ordinary predicate of
tests/filter_predicates.py (dates, intervals, `in` lists, `like`, `case`, casts, `coalesce`, each
dialect's own syntax), pasted as the plan pastes a `where`, on a small table of orders in each
engine, read through parity's own read-only sessions (Spark: the tests' session, configured as
dbt configures it)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import duckdb
import psycopg
import pytest

from parity.predicates import predicate_problem
from parity.sides.connections import connect
from tests.filter_predicates import OWN, PORTABLE
from tests.integration.mariadb_server import client

ROWS = [
    (1, "shipped", None, Decimal("12.50"), dt.date(2024, 7, 1), dt.datetime(2024, 7, 1, 9), True),
    (2, "open", "gift wrap", Decimal("-3.25"), dt.date(2023, 1, 5), dt.datetime(2023, 1, 5), False),
    (
        15,
        "cancelled",
        "",
        Decimal("999.99"),
        dt.date(2024, 12, 31),
        dt.datetime(2024, 12, 31),
        None,
    ),
]
COLUMNS = "id, status, note, amount, d, ordered_at, is_gift"
SQL_TABLE = (
    "create table filter_orders (id integer, status varchar(20), note varchar(40),"
    " amount decimal(12, 2), d date, ordered_at {timestamp}, is_gift boolean)"
)
VARIABLE = "PARITY_TEST_FILTER_ENGINE"


def failures(dialect: str, count) -> dict[str, str]:
    """The predicates of the dialect that its check or its engine refused, with the reason."""
    failed = {}
    for text in PORTABLE + OWN[dialect]:
        problem = predicate_problem(dialect, text)
        if problem:
            failed[text] = problem
            continue
        try:
            count(f"select count(*) from filter_orders as __parity_relation where ({text})")
        except Exception as error:  # the engine's own error, whatever its driver's class
            failed[text] = str(error).splitlines()[0]
    return failed


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


def remote_failures(dialect: str, url: str, monkeypatch) -> dict[str, str]:
    monkeypatch.setenv(VARIABLE, url)
    session = connect(dialect, VARIABLE, "filters", "source relation filter_orders")
    try:
        return failures(dialect, session.query)
    finally:
        session.close()


def test_postgres_runs_every_filter(postgres_url, monkeypatch):
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute("drop table if exists filter_orders")
        connection.execute(SQL_TABLE.format(timestamp="timestamp"))
        with connection.cursor() as cursor:
            cursor.executemany(
                f"insert into filter_orders ({COLUMNS}) values (%s, %s, %s, %s, %s, %s, %s)", ROWS
            )
    assert remote_failures("postgres", postgres_url, monkeypatch) == {}


@pytest.mark.unit
def test_duckdb_runs_every_filter(tmp_path, monkeypatch):
    path = tmp_path / "filters.duckdb"
    with duckdb.connect(str(path)) as connection:
        connection.execute(SQL_TABLE.format(timestamp="timestamp"))
        connection.executemany(
            f"insert into filter_orders ({COLUMNS}) values (?, ?, ?, ?, ?, ?, ?)", ROWS
        )
    assert remote_failures("duckdb", str(path), monkeypatch) == {}


def test_mysql_runs_every_filter(mariadb_url, monkeypatch):
    with client(mariadb_url) as connection, connection.cursor() as cursor:
        cursor.execute("drop table if exists filter_orders")
        cursor.execute(SQL_TABLE.format(timestamp="datetime(6)"))
        cursor.executemany(
            f"insert into filter_orders ({COLUMNS}) values (%s, %s, %s, %s, %s, %s, %s)", ROWS
        )
    assert remote_failures("mysql", mariadb_url, monkeypatch) == {}
