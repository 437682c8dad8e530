"""The demo's legacy orders copied into DuckDB and PostgreSQL, each in that engine's own types,
and declared as dbt sources the way a user declares them."""

from __future__ import annotations

from pathlib import Path

import duckdb
import psycopg
import yaml
from pyspark.sql import SparkSession

DUCKDB_ENV = "PARITY_TEST_LEGACY_DUCKDB"
POSTGRES_ENV = "PARITY_TEST_LEGACY_PG"

SOURCES = f"""
version: 2
sources:
  - name: legacy_duckdb
    schema: main
    meta:
      parity: {{dialect: duckdb, connection_env: {DUCKDB_ENV}}}
    tables:
      - name: orders
  - name: legacy_pg
    schema: public
    meta:
      parity: {{dialect: postgres, connection_env: {POSTGRES_ENV}}}
    tables:
      - name: orders
"""

POSTGRES_TABLE = """
create table orders (
    order_id bigint primary key,
    customer_id integer,
    status varchar(20),
    amount numeric(12, 2),
    fx_rate numeric(18, 8),
    discount double precision,
    is_gift boolean,
    ordered_at timestamptz,
    ship_date date,
    note text
)
"""


def copy_to_duckdb(spark: SparkSession, table: str, folder: Path) -> Path:
    """Through Parquet written by Spark: DuckDB reads it in its own types."""
    spark.table(table).write.parquet(str(folder / "orders.parquet"))
    database = folder / "legacy.duckdb"
    with duckdb.connect(str(database)) as connection:
        connection.execute(
            "create table orders as select * from read_parquet("
            f"'{folder}/orders.parquet/*.parquet')"
        )
    return database


def copy_to_postgres(spark: SparkSession, table: str, url: str) -> None:
    """Row by row through psycopg; timestamps travel as microseconds since the epoch, exactly."""
    rows = spark.sql(
        f"select order_id, customer_id, status, cast(amount as string), cast(fx_rate as string),"
        f" discount, is_gift,"
        f" unix_micros(ordered_at), cast(ship_date as string), note from {table}"
    ).collect()
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("drop table if exists orders")
        connection.execute(POSTGRES_TABLE)
        with connection.cursor() as cursor:
            cursor.executemany(
                "insert into orders values (%s, %s, %s, %s::numeric, %s::numeric, %s, %s,"
                " timestamptz 'epoch' + %s * interval '1 microsecond', %s::date, %s)",
                [tuple(row) for row in rows],
            )


def remote_pair(name: str, legacy_source: str, target: dict, **options) -> dict:
    """A pair from one of the legacy sources above, by order id, over every column."""
    return {
        "name": name,
        "source": {"source": [legacy_source, "orders"]},
        "target": target,
        "key": "order_id",
        **options,
    }


def migration_pair(name: str, **options) -> dict:
    """The demo's legacy orders against their migrated copy, whose doubled order 2000 is a
    planted difference: its duplicate key is flagged, not an error."""
    return {
        "name": name,
        "source": {"ref": "legacy_orders"},
        "target": {"ref": "lakehouse_orders"},
        "key": "order_id",
        "enforce_key": "warn",
        **options,
    }


def reconcile(project, pairs, logged: list[str] | None = None, *flags: str, **settings):
    """Introspects, plans, reconciles and publishes the given pairs in the project; ``logged``
    collects what the run logs; ``flags`` go to dbt (``--full-refresh``); ``settings`` are vars
    beside the pairs (``parity_trust_filters=True``). The project is parsed once for runs that
    differ only in their pairs (`DbtProject.parsed`)."""
    return project.dbt(
        "run",
        "--select",
        "parity_remote_relations+",
        *flags,
        vars=project.demo_vars(parity={"pairs": pairs}, **settings),
        logged=logged,
        parse_once=True,
    )


def engine_sources(
    name: str, dialect: str, connection_env: str, schema: str, tables: list[str], **meta: object
) -> str:
    """One dbt source of tables in another engine, declared as a user declares it (``meta``:
    more of its `parity` options), as the YAML of a sources file."""
    parity = {"dialect": dialect, "connection_env": connection_env, **meta}
    source = {
        "name": name,
        "schema": schema,
        "meta": {"parity": parity},
        "tables": [{"name": table} for table in tables],
    }
    return yaml.safe_dump({"version": 2, "sources": [source]})
