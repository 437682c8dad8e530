"""Every canonical row of one side of a pair, downloaded from its own engine by the SQL its plan
holds, each row's hash checked against the Python reference on the way: the canonical key and
column texts, then the tolerant checksum texts of the columns hashed on a grid."""

from __future__ import annotations

import os

import duckdb
import psycopg
from pyspark.sql import SparkSession

from parity.plan import PairPlan, SidePlan
from parity.reference import hash_grid, row_hash, tolerant_text
from tests.integration.mariadb_server import client


def canonical_rows(plan: SidePlan, spark: SparkSession) -> dict[str, tuple]:
    """Every canonical row of one side, downloaded from its engine, by key; its row hashes
    checked against the reference's."""
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
        # A row hashed on a grid also has its exact hash, for the first pass's exact checksum.
        if "__parity_exact" in position:
            assert row[position["__parity_exact"]] == row_hash(row[i] for i in fields)
        found[values[0]] = values + tuple(row[i] for i in tolerant)
    return found


def tolerant_texts(plan: PairPlan, row: tuple, options: dict | None = None) -> tuple[tuple, tuple]:
    """A canonical row's tolerant checksum texts, and the reference's: the label of each gridded
    column's canonical text on the grid of its tolerance (with ``options`` over it)."""
    rules = {rule.column: rule for rule in plan.column_rules}
    compared = list(plan.target.column_names)
    canonical, tolerant = row[1 : 1 + len(compared)], row[1 + len(compared) :]
    expected = tuple(
        tolerant_text(
            hash_grid(rules[column].kind, {**rules[column].tolerance, **(options or {})}),
            canonical[compared.index(column)],
        )
        for column in plan.gridded_columns
    )
    return tolerant, expected
