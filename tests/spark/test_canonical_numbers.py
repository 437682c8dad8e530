"""Spark's canonical text of doubles, float32s and decimals, as dbt renders it (the golden SQL,
which test_golden_sql holds equal to the macros' output), equals the Python reference for any
value: a double's by Java's Formatter, a decimal's by a cast where that writes plain digits and
by format_number below 1e-6; neither may differ from C's `%.13a` or from plain fixed-point
digits by a single character."""

from __future__ import annotations

import math
import re
import struct
from decimal import Decimal
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parity.reference import canonical_text
from tests.examples import examples

GOLDEN = Path(__file__).parents[1] / "golden" / "spark.sql.golden"
# The golden's columns: (alias, source column, profile).
DOUBLE = ("__parity_c3", "discount", {"kind": "float", "bits": 64})
FLOAT32 = ("__parity_c4", "weight", {"kind": "float", "bits": 32})
DECIMALS = [
    ("__parity_c0", "amount", {"kind": "decimal", "scale": 2}),
    ("__parity_c1", "fx_rate", {"kind": "decimal", "scale": 8}),
    ("__parity_c2", "yield_rate", {"kind": "decimal", "scale": 38}),
]
EDGES = [
    0.0,
    -0.0,
    math.nan,
    math.inf,
    -math.inf,
    5e-324,
    -5e-324,
    2.2250738585072014e-308,
    2.225073858507201e-308,
    1.7976931348623157e308,
    -1.7976931348623157e308,
    1.0,
    -1.5,
    0.1,
    *[math.ldexp(1.0, e) for e in (-1074, -1023, -1022, -1021, -1, 0, 1, 52, 53, 1023)],
    *[math.nextafter(math.ldexp(1.0, e), 0) for e in (-1021, -1, 1, 53, 1000)],
    *[math.nextafter(math.ldexp(1.0, e), math.inf) for e in (-1022, -1, 0, 1, 1000)],
]
DOUBLES = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True) | st.builds(
    lambda bits: struct.unpack("<d", struct.pack("<Q", bits))[0], st.integers(0, 2**64 - 1)
)


def rendered(alias: str, column: str) -> str:
    """The golden's expression for ``alias``, reading the column ``value`` instead."""
    line = next(
        line for line in GOLDEN.read_text().splitlines() if line.rstrip().endswith(f"as {alias},")
    )
    expression = re.sub(rf"\s+as {alias},\s*$", "", line).strip()
    return expression.replace(f"`{column}`", "value")


def texts(spark, columns: list[tuple[str, str, str]], rows: list[tuple]) -> list[tuple]:
    """Each row's texts by the golden's expressions, one per (alias, column, SQL type). Decimals
    travel as text and are cast in Spark, exactly: PySpark's own conversion of a 38-digit Python
    Decimal failed."""
    schema = ", ".join(
        [
            "i int",
            *[
                f"v{n} {'double' if t == 'double' else 'string'}"
                for n, (_, _, t) in enumerate(columns)
            ],
        ]
    )
    sent = [
        (i, *[v if v is None or isinstance(v, float) else str(v) for v in row])
        for i, row in enumerate(rows)
    ]
    typed = spark.createDataFrame(sent, schema).selectExpr(
        "i", *[f"cast(v{n} as {t}) as v{n}" for n, (_, _, t) in enumerate(columns)]
    )
    found = typed.selectExpr(
        "i",
        *[
            rendered(alias, column).replace("value", f"v{n}")
            for n, (alias, column, _) in enumerate(columns)
        ],
    ).collect()
    return [tuple(r)[1:] for r in sorted(found, key=lambda r: r[0])]


FLOATS = [(DOUBLE[0], DOUBLE[1], "double"), (FLOAT32[0], FLOAT32[1], "double")]


def float_texts(values: list[float]) -> list[tuple]:
    return [tuple(canonical_text(p, v) for p in (DOUBLE[2], FLOAT32[2])) for v in values]


def test_edge_doubles_and_float32s(spark):
    assert texts(spark, FLOATS, [(v, v) for v in EDGES]) == float_texts(EDGES)


@settings(
    max_examples=examples(10),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.lists(DOUBLES, min_size=1, max_size=300))
def test_any_double_and_float32(spark, values):
    assert texts(spark, FLOATS, [(v, v) for v in values]) == float_texts(values)


def at_scale(unscaled: int, scale: int) -> Decimal:
    return Decimal(f"{unscaled}E-{scale}")


@settings(
    max_examples=examples(10),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.integers(-(10**38) + 1, 10**38 - 1) | st.integers(-(10**8), 10**8)))
def test_any_decimal_at_every_scale(spark, drawn):
    """Zero, values at and just below 1e-6 (where Spark's cast turns scientific with ANSI off),
    and any value each column type holds."""
    scales = [profile["scale"] for _, _, profile in DECIMALS]
    # 1e-6 and just below it at scales 8 and 38; decimal(38, s) holds any 38 digits.
    edges = [0, 1, -1, 99, 100, -100, 10**32, 10**32 - 1, -(10**32), 10**31]
    rows = [tuple(at_scale(unscaled, s) for s in scales) for unscaled in drawn + edges]
    columns = [(alias, column, f"decimal(38, {p['scale']})") for alias, column, p in DECIMALS]
    expected = [
        tuple(canonical_text(p, v) for (_, _, p), v in zip(DECIMALS, row, strict=True))
        for row in rows
    ]
    assert texts(spark, columns, rows) == expected
