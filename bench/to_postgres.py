"""Copies a generated table from Spark into PostgreSQL with COPY, value for value, keyed by a
primary key as a production table is."""

from __future__ import annotations

import psycopg
from pyspark.sql import SparkSession

TABLE = """
create table {name} (
    id bigint primary key,
    customer_id integer,
    status text,
    amount numeric(12, 2),
    discount double precision,
    ordered_at timestamptz,
    note text
)
"""


def copy_table(spark: SparkSession, schema: str, url: str, name: str = "bench_source") -> None:
    # Timestamps travel as UTC text with an explicit offset, amounts as exact decimal text.
    rows = spark.sql(
        "select id, customer_id, status, cast(amount as string), discount,"
        " concat(cast(timestampadd(microsecond, unix_micros(ordered_at),"
        " timestamp_ntz'1970-01-01 00:00:00') as string), '+00'), note"
        f" from {schema}.{name}"
    ).toLocalIterator()
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"drop table if exists {name}")
        connection.execute(TABLE.format(name=name))
        with connection.cursor() as cursor, cursor.copy(f"copy {name} from stdin") as copy:
            for row in rows:
                copy.write_row(tuple(row))
        connection.execute(f"vacuum analyze {name}")
