"""The decimal matrix: one column at every scale from 0 to 38 (decimal(38, s) in Spark and DuckDB,
numeric(38, s) in PostgreSQL) and the types finance declares, holding the values that print
differently from one engine or setting to another: zero, negative zero, one step of the last
digit, values below 1e-6, and the largest and smallest values of the type.

Spark writes it twice (two Spark sides), and once more with single-step changes planted; it is
copied exactly into PostgreSQL (through psycopg) and into DuckDB (through Parquet).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import duckdb
import psycopg
from pyspark.sql import SparkSession

from parity.reference import EXACT

PG_ENV = "PARITY_TEST_DECIMALS_PG"
DUCKDB_ENV = "PARITY_TEST_DECIMALS_DUCKDB"
TABLE = "decimal_matrix"
COPY = "decimal_matrix_copy"
CHANGED = "decimal_matrix_changed"

# name: (precision, scale)
COLUMNS = {f"d{scale}": (38, scale) for scale in range(39)} | {
    "money": (18, 8),
    "finance": (38, 18),
    "cents": (12, 2),
}

# Values before rounding to each column's scale (half away from zero, as every engine stores).
# Arithmetic in EXACT: Python's default context would round 38 digits to 28.
SMALL = Decimal("0.00000012345678901234567890123456789012")


def _largest(precision: int, scale: int) -> Decimal:
    return EXACT.subtract(EXACT.power(10, precision - scale), _step(scale))


def _step(scale: int) -> Decimal:
    return Decimal(1).scaleb(-scale)


# id: value per (precision, scale)
ROWS = {
    1: lambda p, s: Decimal(0),
    2: lambda p, s: Decimal("-0"),
    3: lambda p, s: _step(s),
    4: lambda p, s: _step(s).copy_negate(),
    5: lambda p, s: SMALL,
    6: lambda p, s: EXACT.multiply(SMALL, -8),
    7: lambda p, s: _largest(p, s),
    8: lambda p, s: _largest(p, s).copy_negate(),
    9: lambda p, s: Decimal("1234.56789012345678901234567890123456789" if p - s >= 4 else "0.5"),
    10: lambda p, s: None,
}

# A change of one step in the last digit, in a row of its own per column: (column, id).
PLANTED = [("d0", 3), ("d7", 5), ("d18", 6), ("d38", 3), ("money", 1), ("cents", 9)]

SOURCES = f"""
version: 2
sources:
  - name: decimals_lake
    schema: "{{{{ env_var('PARITY_SCHEMA') }}}}"
    tables:
      - name: {TABLE}
      - name: {COPY}
      - name: {CHANGED}
  - name: decimals_pg
    schema: public
    meta:
      parity: {{dialect: postgres, connection_env: {PG_ENV}}}
    tables:
      - name: {TABLE}
  - name: decimals_duckdb
    schema: main
    meta:
      parity: {{dialect: duckdb, connection_env: {DUCKDB_ENV}}}
    tables:
      - name: {TABLE}
"""


def value(row_id: int, column: str) -> Decimal | None:
    """What the column holds in that row: the value rounded to its scale, as it is stored."""
    precision, scale = COLUMNS[column]
    raw = ROWS[row_id](precision, scale)
    return None if raw is None else raw.quantize(_step(scale), ROUND_HALF_UP, context=EXACT)


def changed_value(row_id: int, column: str) -> Decimal | None:
    stored = value(row_id, column)
    if (column, row_id) not in PLANTED:
        return stored
    step = _step(COLUMNS[column][1])
    # Away from the type's edge, so the changed value still fits.
    return EXACT.subtract(stored, step) if stored > 0 else EXACT.add(stored, step)


def rows(changed: bool = False) -> list[tuple]:
    of = changed_value if changed else value
    return [(row_id, *(of(row_id, c) for c in COLUMNS)) for row_id in ROWS]


def write_spark_tables(spark: SparkSession, schema: str) -> None:
    types = ", ".join(f"{name} decimal({p},{s})" for name, (p, s) in COLUMNS.items())
    for table, changed in ((TABLE, False), (COPY, False), (CHANGED, True)):
        spark.createDataFrame(rows(changed), f"id bigint, {types}").write.mode("overwrite").format(
            "parquet"
        ).saveAsTable(f"{schema}.{table}")


def copy_to_postgres(url: str) -> None:
    definition = ", ".join(f"{name} numeric({p},{s})" for name, (p, s) in COLUMNS.items())
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"drop table if exists {TABLE}")
        connection.execute(f"create table {TABLE} (id bigint primary key, {definition})")
        with connection.cursor() as cursor:
            placeholders = ", ".join(["%s"] * (len(COLUMNS) + 1))
            cursor.executemany(f"insert into {TABLE} values ({placeholders})", rows())


def copy_to_duckdb(spark: SparkSession, schema: str, folder: Path) -> Path:
    """Through Parquet written by Spark: DuckDB reads decimal(p, s) as its own DECIMAL(p, s).
    Returns the database."""
    spark.table(f"{schema}.{TABLE}").write.parquet(str(folder / "decimals.parquet"))
    database = folder / "decimals.duckdb"
    with duckdb.connect(str(database)) as connection:
        connection.execute(
            f"create table {TABLE} as select *"
            f" from read_parquet('{folder}/decimals.parquet/*.parquet')"
        )
    return database
