"""Copies the generated source table from Spark into PostgreSQL with COPY, value for value."""

from __future__ import annotations

import psycopg
from pyspark.sql import SparkSession

TABLE = """
create table bench_source (
    id bigint,
    customer_id integer,
    status text,
    amount numeric(12, 2),
    discount double precision,
    ordered_at timestamptz,
    note text
)
"""


def copy_source(spark: SparkSession, schema: str, url: str) -> None:
    # Timestamps travel as UTC text with an explicit offset, amounts as exact decimal text.
    rows = spark.sql(
        "select id, customer_id, status, cast(amount as string), discount,"
        " concat(cast(timestampadd(microsecond, unix_micros(ordered_at),"
        " timestamp_ntz'1970-01-01 00:00:00') as string), '+00'), note"
        f" from {schema}.bench_source"
    ).toLocalIterator()
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("drop table if exists bench_source")
        connection.execute(TABLE)
        with connection.cursor() as cursor, cursor.copy("copy bench_source from stdin") as copy:
            for row in rows:
                copy.write_row(tuple(row))
        connection.execute("analyze bench_source")
