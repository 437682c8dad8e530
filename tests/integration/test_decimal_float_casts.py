"""The casts a decimal's canonical text against a float rests on (docs/canonical-encoding.md,
"Decimals against floats"): Spark's, PostgreSQL's and DuckDB's cast of a decimal to double and to
float32 is the nearest float, ties to even, rounded once: the reference's, which exact rationals
check (tests/unit/test_reference.py). The canonical SQL renders these very casts; the values are
the ones naive conversions get wrong: 16 to 18 digits (an unscaled value past 2^53), 38 digits,
the smallest decimal(38, 38)s, and decimals beside and on the midpoints between two doubles and
between two float32s."""

from __future__ import annotations

import math
import random
import struct
from decimal import Decimal

import duckdb
import psycopg
import pytest

from parity.reference import EXACT, decimal_as_float, narrowed


def _beside(midpoint: Decimal, scale: int) -> list[Decimal]:
    """The midpoint cut to `scale` places, and one unit of that place either side."""
    cut = midpoint.quantize(Decimal(1).scaleb(-scale), context=EXACT)
    return [EXACT.add(cut, Decimal(step).scaleb(-scale)) for step in (-1, 0, 1)]


def _decimals() -> list[tuple[int, int, Decimal]]:
    """(precision, scale, value): random decimal(18, s) at every scale from 0 to 18, random
    decimal(38, s), decimal(38, 38)s down to 10^-38 (a float32 subnormal), and decimal(38, 30)s
    beside double and float32 midpoints."""
    rng = random.Random(8)
    values = []
    for scale in range(19):
        for _ in range(60):
            digits = rng.randint(1, 18)
            unscaled = rng.randint(10 ** (digits - 1), 10**digits - 1) * rng.choice((1, -1))
            values.append((18, scale, Decimal(unscaled).scaleb(-scale)))
    for _ in range(200):
        scale = rng.randint(0, 38)
        unscaled = rng.randint(10**37, 10**38 - 1) * rng.choice((1, -1))
        values.append((38, scale, Decimal(unscaled).scaleb(-scale)))
    # Down to 10^-38, a float32 subnormal (below 2^-126): fewer bits, the same rounding.
    values += [(38, 38, Decimal("1E-38")), (38, 38, Decimal("-1E-38"))]
    for _ in range(100):
        values.append((38, 38, Decimal(rng.randint(1, 10**8) * rng.choice((1, -1))).scaleb(-38)))
    for _ in range(150):
        double = rng.uniform(1, 1e7)
        single = struct.unpack("f", struct.pack("f", double))[0]
        for value, spacing in ((double, math.ulp(double)), (single, math.ulp(single) * 2**29)):
            midpoint = EXACT.add(Decimal(value), EXACT.divide(Decimal(spacing), 2))
            values.extend((38, 30, v) for v in _beside(midpoint, 30))
    return values


DECIMALS = _decimals()
TYPES = sorted({(p, s) for p, s, _ in DECIMALS})


def _cases(float_type: str, decimal_type: str) -> str:
    """Each value, from its text, cast to its decimal type, then to the float type."""
    branches = " ".join(
        f"when {p * 100 + s} then cast(cast(t as {decimal_type}({p}, {s})) as {float_type})"
        for p, s in TYPES
    )
    return f"case ps {branches} end"


def _rows() -> list[tuple[int, int, str]]:
    return [(i, p * 100 + s, f"{v:f}") for i, (p, s, v) in enumerate(DECIMALS)]


def _checked(engine: str, found: dict[int, tuple[float, float]]) -> None:
    for bits, position in ((64, 0), (32, 1)):
        wrong = [
            (str(v), found[i][position])
            for i, (_, _, v) in enumerate(DECIMALS)
            if found[i][position] != decimal_as_float(v, bits)
        ]
        assert not wrong, f"{engine} to {bits} bits: {len(wrong)} wrong, {wrong[:3]}"


def test_decimals_are_hard_to_convert():
    """Through a double, or as a 64-bit integer over a power of ten, many would round wrong."""
    twice = [v for _, _, v in DECIMALS if narrowed(float(v), 32) != decimal_as_float(v, 32)]
    divided = [v for _, s, v in DECIMALS if float(int(EXACT.scaleb(v, s))) / 10.0**s != float(v)]
    assert len(twice) > 100 and len(divided) > 100


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_spark_casts_decimals_to_the_nearest_float(spark, ansi):
    spark.createDataFrame(_rows(), "i int, ps int, t string").createOrReplaceTempView("decimals")
    with_ansi = spark.conf.get("spark.sql.ansi.enabled")
    spark.conf.set("spark.sql.ansi.enabled", ansi)
    try:
        found = spark.sql(
            f"select i, {_cases('double', 'decimal')} as d,"
            f" cast({_cases('float', 'decimal')} as double) as f from decimals"
        ).collect()
    finally:
        spark.conf.set("spark.sql.ansi.enabled", with_ansi)
    _checked("spark", {row["i"]: (row["d"], row["f"]) for row in found})


def test_postgres_casts_numerics_to_the_nearest_float(postgres_url):
    with psycopg.connect(postgres_url) as connection:
        connection.execute("create temporary table decimals (i int, ps int, t text)")
        with connection.cursor() as cursor:
            cursor.executemany("insert into decimals values (%s, %s, %s)", _rows())
        found = connection.execute(
            f"select i, {_cases('double precision', 'numeric')},"
            f" cast({_cases('real', 'numeric')} as double precision) from decimals"
        ).fetchall()
    _checked("postgres", {i: (d, f) for i, d, f in found})


def test_duckdb_casts_decimals_to_the_nearest_float():
    with duckdb.connect() as connection:
        connection.execute("create table decimals (i int, ps int, t varchar)")
        connection.executemany("insert into decimals values (?, ?, ?)", _rows())
        found = connection.execute(
            f"select i, {_cases('double', 'decimal')},"
            f" cast({_cases('float', 'decimal')} as double) from decimals"
        ).fetchall()
    _checked("duckdb", {i: (d, f) for i, d, f in found})
