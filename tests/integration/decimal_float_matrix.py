"""Decimals against floats: the same values as decimals and as the floats each engine's own cast
made of them, in Spark, PostgreSQL and DuckDB; and, in PostgreSQL, Reladiff's type-suite pairs of
numeric(6,3), real, float and double precision, copied each way.

The values are those of Reladiff's float samples (tests/test_database_types.py, FloatFaker):
sixteen chosen ones, then a walk from -10.0001 in steps of 0.00571, fifty in all. The `fine`
column holds decimal(38, 30)s beside and on the midpoints between two float32s, where a decimal
rounded to a double first, then to float32, would land on the wrong side. The `whole` columns
hold integers beside float32 and double midpoints, and the extremes of bigint.
"""

from __future__ import annotations

import math
import random
import struct
from decimal import ROUND_HALF_UP, Decimal
from itertools import accumulate, chain, islice, repeat
from pathlib import Path

import duckdb
import psycopg
from pyspark.sql import SparkSession

from parity.reference import EXACT, decimal_as_float

PG_ENV = "PARITY_TEST_DECIMAL_FLOATS_PG"
DUCKDB_ENV = "PARITY_TEST_DECIMAL_FLOATS_DUCKDB"
TABLE = "decimal_floats"
CHANGED = "decimal_floats_changed"
RELADIFF_TABLE = "reladiff_floats"
# Reladiff's PostgreSQL float types (float is double precision there), by column suffix.
RELADIFF_FLOATS = {"real": "real", "float": "float", "double": "double precision"}

CHOSEN = [0.0, 0.1, 0.00188, 0.99999, 0.091919, 0.10, 10.0, 100.98, 0.001201923076923077]
CHOSEN += [1 / 3, 1 / 5, 1 / 109, 1 / 109489, 1 / 1094893892389, 1 / 10948938923893289]
CHOSEN += [3.141592653589793]
SAMPLES = list(islice(chain(CHOSEN, accumulate(repeat(0.00571), initial=-10.0001)), 50))

# The decimal (and integer: a decimal of scale 0) columns and, for each, the float columns the
# engine's cast made of it.
DECIMALS = {"num": "decimal(6,3)", "num_b": "decimal(6,3)", "fine": "decimal(38,30)"}
DECIMALS |= {"whole": "bigint", "whole_b": "bigint"}
FLOATS = {"num_real": ("num", 32), "num_double": ("num_b", 64), "fine_real": ("fine", 32)}
FLOATS |= {"whole_real": ("whole", 32), "whole_double": ("whole_b", 64)}
# Each cross-engine pair compares every decimal with a float and every float with a decimal.
CROSSED = {"num": "num_real", "num_b": "num_double", "fine": "fine_real"}
CROSSED |= {"whole": "whole_real", "whole_b": "whole_double"}
CROSSED |= {float_: decimal for decimal, float_ in CROSSED.items()}


def _thousandths(sample: float) -> Decimal:
    """A sample stored in numeric(6,3): its shortest decimal, rounded half away from zero."""
    return Decimal(repr(sample)).quantize(Decimal("0.001"), ROUND_HALF_UP)


def _fine(rng: random.Random, row_id: int) -> Decimal:
    """Below, on, or above the midpoint between a float32 in [1, 10^6) and the next."""
    single = struct.unpack("f", struct.pack("f", rng.uniform(1, 1e6)))[0]
    midpoint = EXACT.add(Decimal(single), EXACT.multiply(Decimal(math.ulp(single)), 2**28))
    return EXACT.add(midpoint, Decimal(row_id % 3 - 1).scaleb(-30))


def _rows() -> dict[int, dict[str, Decimal | None]]:
    rng = random.Random(8)
    rows = {
        row_id: {"num": _thousandths(sample), "fine": _fine(rng, row_id)}
        for row_id, sample in enumerate(SAMPLES, 1)
    }
    rows |= {51: {"num": Decimal("999.999"), "fine": Decimal("-0.1")}}
    rows |= {52: {"num": Decimal("-999.999"), "fine": Decimal("1E-30")}}
    rows |= {53: {"num": Decimal("-0.000"), "fine": Decimal(0)}, 54: {"num": None, "fine": None}}
    for row_id, values in rows.items():
        values["num_b"] = values["num"]
        values["whole"] = values["whole_b"] = WHOLES[row_id % len(WHOLES)] if row_id < 54 else None
    return rows


# Integers a float cannot hold, beside float32's and the double's midpoints among them.
WHOLES = [0, 1, -1, 2**24 + 1, 2**24 + 3, -(2**24) - 1, 2**53 + 1, 2**53 + 3, 2**63 - 1]
WHOLES += [-(2**63), 123456789, 2**31 - 1, 9007199254740993 * 3, 10**18 + 1]


ROWS = _rows()


def value(row_id: int, column: str, changed: bool = False) -> Decimal | float | None:
    """What a column holds: a decimal, or the float its engine's cast made of the decimal."""
    if changed and (row_id, column) in PLANTED:
        return PLANTED[(row_id, column)]
    decimal, bits = FLOATS.get(column, (column, None))
    stored = ROWS[row_id][decimal]
    return stored if bits is None or stored is None else decimal_as_float(Decimal(stored), bits)


def _next_float(value: float, bits: int) -> float:
    if bits == 64:
        return math.nextafter(value, math.inf)
    (pattern,) = struct.unpack("<I", struct.pack("<f", value))
    return struct.unpack("<f", struct.pack("<I", pattern + 1))[0]


def _midpoint_crossed() -> int:
    """A row whose `fine` is a float32 midpoint that rounded up: 10^-30 less rounds down."""
    return next(
        row_id
        for row_id, values in ROWS.items()
        if values["fine"] is not None
        and decimal_as_float(values["fine"], 32)
        != decimal_as_float(EXACT.subtract(values["fine"], Decimal("1E-30")), 32)
    )


# A change in the last place, one per row: a thousandth, one float32 or double step up, and
# 10^-30 across a float32 midpoint (a change the float against it sees).
PLANTED = {
    (2, "num"): ROWS[2]["num"] + Decimal("0.001"),
    (3, "num_real"): _next_float(value(3, "num_real"), 32),
    (4, "num_double"): _next_float(value(4, "num_double"), 64),
    (5, "fine_real"): _next_float(value(5, "fine_real"), 32),
    (15, "whole"): ROWS[15]["whole"] + 1,
    (7, "whole_double"): _next_float(value(7, "whole_double"), 64),
}
CROSSED_ROW = _midpoint_crossed()
PLANTED[(CROSSED_ROW, "fine")] = EXACT.subtract(ROWS[CROSSED_ROW]["fine"], Decimal("1E-30"))

SOURCES = f"""
version: 2
sources:
  - name: decimal_floats_lake
    schema: "{{{{ env_var('PARITY_SCHEMA') }}}}"
    tables:
      - name: {TABLE}
      - name: {CHANGED}
  - name: decimal_floats_pg
    schema: public
    meta:
      parity: {{dialect: postgres, connection_env: {PG_ENV}}}
    tables:
      - name: {TABLE}
      - name: {RELADIFF_TABLE}
  - name: decimal_floats_duckdb
    schema: main
    meta:
      parity: {{dialect: duckdb, connection_env: {DUCKDB_ENV}}}
    tables:
      - name: {TABLE}
"""


def _float_copies(float32: str, float64: str = "double") -> str:
    """The select list of a table: the decimals, then the engine's cast of each to its float."""
    floats = (
        f"cast({d} as {float32 if b == 32 else float64}) as {f}" for f, (d, b) in FLOATS.items()
    )
    return ", ".join(["id", *DECIMALS, *floats])


def write_spark_tables(spark: SparkSession, schema: str) -> None:
    """The table, and a copy in which each planted change replaces its value."""
    decimals = ", ".join(f"{name} {type_}" for name, type_ in DECIMALS.items())
    frame = spark.createDataFrame(
        [(row_id, *(values[d] for d in DECIMALS)) for row_id, values in ROWS.items()],
        f"id bigint, {decimals}",
    )
    frame.createOrReplaceTempView("decimal_floats_written")
    spark.sql(f"select {_float_copies('float')} from decimal_floats_written").write.mode(
        "overwrite"
    ).format("parquet").saveAsTable(f"{schema}.{TABLE}")
    changed = spark.table(f"{schema}.{TABLE}").collect()
    spark.createDataFrame(
        [
            tuple(PLANTED.get((row["id"], name), row[name]) for name in row.asDict())
            for row in changed
        ],
        spark.table(f"{schema}.{TABLE}").schema,
    ).write.mode("overwrite").format("parquet").saveAsTable(f"{schema}.{CHANGED}")


def copy_to_postgres(url: str) -> None:
    """The decimals through psycopg, the floats cast by PostgreSQL; and Reladiff's pairs: its
    samples in numeric(6,3) cast to real, float and double precision, and its samples as real,
    float and double precision (psycopg sends a double) cast to numeric(6,3)."""
    decimals = ", ".join(f"{name} {type_}" for name, type_ in DECIMALS.items())
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"drop table if exists {TABLE}, {RELADIFF_TABLE}")
        connection.execute(f"create temporary table written (id bigint, {decimals})")
        with connection.cursor() as cursor:
            cursor.executemany(
                f"insert into written values (%s{', %s' * len(DECIMALS)})",
                [(row_id, *(values[d] for d in DECIMALS)) for row_id, values in ROWS.items()],
            )
        columns = _float_copies("real", "double precision")
        connection.execute(f"create table {TABLE} as select {columns} from written")
        raw = ", ".join(f"raw_{name} {kind}" for name, kind in RELADIFF_FLOATS.items())
        connection.execute(f"create temporary table samples (id bigint, num numeric(6,3), {raw})")
        with connection.cursor() as cursor:
            cursor.executemany(
                "insert into samples values (%s, %s, %s, %s, %s)",
                [(i, s, s, s, s) for i, s in enumerate(SAMPLES, 1)],
            )
        copies = [f"cast(num as {kind}) as num_{name}" for name, kind in RELADIFF_FLOATS.items()]
        copies += [f"cast(raw_{name} as numeric(6,3)) as {name}_num" for name in RELADIFF_FLOATS]
        connection.execute(
            f"create table {RELADIFF_TABLE} as select samples.*, {', '.join(copies)} from samples"
        )


def copy_to_duckdb(spark: SparkSession, schema: str, folder: Path) -> Path:
    """The decimals through Parquet written by Spark, the floats cast by DuckDB; returns the
    database."""
    decimals = ", ".join(["id", *DECIMALS])
    spark.sql(f"select {decimals} from {schema}.{TABLE}").write.parquet(str(folder / "d.parquet"))
    database = folder / "decimal_floats.duckdb"
    with duckdb.connect(str(database)) as connection:
        connection.execute(
            f"create table {TABLE} as select {_float_copies('float')}"
            f" from read_parquet('{folder}/d.parquet/*.parquet')"
        )
    return database
