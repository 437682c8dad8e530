"""Every canonical row of one side of a pair, downloaded from its own engine by the SQL its plan
holds, each row's hash checked against the Python reference on the way: the canonical key and
column texts, then the tolerant checksum texts of the columns hashed on a grid."""

from __future__ import annotations

import os

import duckdb
import psycopg
from pyspark.sql import SparkSession

from parity.plan import SidePlan
from parity.reference import row_hash
from tests.integration.mariadb_server import client


def canonical_rows(plan: SidePlan, spark: SparkSession) -> dict[str, tuple]:
    """Every canonical row of one side, downloaded from its engine, by key."""
    if plan.dialect == "spark":
        frame = spark.sql(plan.canonical_sql)
        names, rows = frame.columns, [tuple(row) for row in frame.collect()]
    elif plan.dialect == "postgres":
        with psycopg.connect(os.environ[plan.connection_env]) as connection:
            cursor = connection.execute(plan.canonical_sql)
            names, rows = [d.name for d in cursor.description], cursor.fetchall()
    elif plan.dialect == "mysql":
        with client(os.environ[plan.connection_env]) as connection, connection.cursor() as cursor:
            cursor.execute(plan.canonical_sql)
            names, rows = [d[0] for d in cursor.description], cursor.fetchall()
    else:
        with duckdb.connect(os.environ[plan.connection_env], read_only=True) as connection:
            cursor = connection.execute(plan.canonical_sql)
            names, rows = [d[0] for d in cursor.description], cursor.fetchall()
    fields = [i for i, n in enumerate(names) if n.startswith(("__parity_k", "__parity_c"))]
    # A column hashed on its tolerance's grid enters the row hash by its tolerant text.
    position = {name: i for i, name in enumerate(names)}
    hashed = [position.get(names[i].replace("__parity_c", "__parity_t"), i) for i in fields]
    tolerant = [i for i, n in enumerate(names) if n.startswith("__parity_t")]
    found = {}
    for row in rows:
        values = tuple(row[i] for i in fields)
        assert row[names.index("__parity_hash")] == row_hash(row[i] for i in hashed)
        found[values[0]] = values + tuple(row[i] for i in tolerant)
    return found
