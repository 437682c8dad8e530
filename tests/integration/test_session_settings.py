"""Canonical text does not depend on the Spark session's settings.

dbt-spark turns ANSI mode off on its session, and with ANSI off Spark casts a decimal below 1e-6
to scientific notation (`0E-8`, `1.000E-7`): every decimal column of scale 7 or more once read
as different from every other engine. Here the Spark canonical select that dbt renders
(analyses/canonical_select/spark.sql, one column of every kind) runs over hard values in the dbt
session and again under every setting that changes how Spark SQL parses, computes or writes
values; each gives the same rows, and every scalar value is the Python reference's text.
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal

import pytest
from pyspark.sql import SparkSession

from parity.reference import canonical_text, hash_grid, tolerant_text
from tests.conftest import dbt_on_package

UTC = dt.timezone.utc

# The columns of _every_kind_columns() that Spark's analysis renders, declared in Spark types,
# with the profile each is canonicalized at (the analysis's profiles, as the macro lists them).
COLUMNS = {
    "order_id": ("bigint", {"kind": "integer"}),
    "amount": ("decimal(12,4)", {"kind": "decimal", "scale": 2}),
    # Rounded to one digit fewer: the largest value carries into a 30th integer digit, which
    # decimal(38, 8) still holds (with ANSI on an overflow would raise, with it off give NULL).
    "fx_rate": ("decimal(38,9)", {"kind": "decimal", "scale": 8}),
    "yield_rate": ("decimal(38,38)", {"kind": "decimal", "scale": 38}),
    "discount": ("double", {"kind": "float", "bits": 64}),
    "weight": ("double", {"kind": "float", "bits": 32}),  # a double narrowed to float32
    "is_gift": ("boolean", {"kind": "boolean"}),
    "gift_flag": ("string", {"kind": "boolean_text"}),
    "status": ("string", {"kind": "string", "padded": False}),
    "region_code": ("string", {"kind": "string", "padded": True}),
    "order_uuid": ("string", {"kind": "uuid"}),
    "ship_date": ("date", {"kind": "date"}),
    "ordered_at": ("timestamp_ltz", {"kind": "timestamp", "digits": 6, "rounding": "truncate"}),
    "packed_at": (
        "timestamp_ltz",
        {"kind": "timestamp", "digits": 3, "rounding": "half_away_from_2000"},
    ),
    "local_time": ("timestamp_ntz", {"kind": "timestamp_ntz", "digits": 0, "rounding": "half_up"}),
    "store_time": (
        "timestamp_ntz",
        {"kind": "timestamp_ntz", "digits": 6, "rounding": "truncate", "time_zone": "Europe/Paris"},
    ),
    "payload": ("binary", {"kind": "binary"}),
    "attributes": (
        "struct<at: timestamp_ltz, note: string, rate: decimal(18,8), tags: array<string>>",
        {"kind": "nested"},
    ),
    "document_text": ("string", {"kind": "json_text"}),
    "price": ("double", {"kind": "float", "bits": 64}),
    "picked_at": ("timestamp_ltz", {"kind": "timestamp", "digits": 6, "rounding": "truncate"}),
    "channel": ("string", {"kind": "string", "padded": False}),
}
# The analysis's tolerance of each column hashed on a grid (macros/canonical/_every_kind_columns).
TOLERANT = {
    "price": {"rel_tol": "1e-9", "abs_tol": 0.01},
    "picked_at": {"temporal_tolerance_ms": 1},
    "channel": {"trim": True, "case_insensitive": True, "empty_equals_null": True},
}

NINES_38 = Decimal("0." + "9" * 38)
LARGEST_38_9 = Decimal("9" * 29 + "." + "9" * 9)
ROWS = [
    (
        1,
        Decimal("0.0000"),
        Decimal("0E-8"),
        Decimal("0E-38"),
        -0.0,
        1e-300,
        False,
        " F ",
        "",
        "ab  ",
        "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11",
        dt.date(1970, 1, 1),
        dt.datetime(1970, 1, 1, tzinfo=UTC),
        dt.datetime(1999, 12, 31, 23, 59, 59, 999500, tzinfo=UTC),
        dt.datetime(2024, 3, 10, 2, 30, 0, 500000),  # in New York's DST gap
        dt.datetime(2024, 3, 31, 2, 30, 0, 500000),  # in Paris's DST gap
        b"",
        (dt.datetime(2024, 3, 10, 7, 30, tzinfo=UTC), None, Decimal("0E-8"), []),
        '{"b": 1.50, "a": [1, 2]}',
        0.1,
        dt.datetime(1969, 12, 31, 23, 59, 59, 999500, tzinfo=UTC),
        " Mixed Case ",
    ),
    (
        2,
        Decimal("-0.0049"),
        Decimal("1E-8"),
        Decimal("1E-38"),
        5e-324,
        1e-45,
        True,
        "yes",
        "café",
        "x",
        "00000000-0000-0000-0000-000000000000",
        dt.date(1, 1, 1),
        dt.datetime(2024, 11, 3, 5, 30, 0, 1, tzinfo=UTC),
        dt.datetime(2000, 1, 1, 0, 0, 0, 500, tzinfo=UTC),
        dt.datetime(2024, 11, 3, 1, 30),  # New York's DST overlap
        dt.datetime(2024, 10, 27, 2, 30, 0, 1),  # Paris's DST overlap
        b"\x00\xff",
        (None, "n", Decimal("1E-8"), ["a", None]),
        "[]",
        -0.0041,
        dt.datetime(2024, 3, 10, 7, 30, 0, 499, tzinfo=UTC),
        "",
    ),
    (
        3,
        Decimal("-12345678.9950"),
        Decimal("-0.00000099"),
        Decimal("-0.00000012345678901234567890123456789012"),
        0.1,
        -1e300,
        None,
        "maybe",
        "a\tb",
        "",
        "123E4567-E89B-12D3-A456-426614174000",
        dt.date(9999, 12, 31),
        dt.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        dt.datetime(1969, 12, 31, 23, 59, 59, 999500, tzinfo=UTC),
        dt.datetime(1900, 1, 1, 0, 0, 59, 499999),
        dt.datetime(1970, 1, 1, 0, 59, 59, 999999),
        b"a:b",
        (dt.datetime(1900, 3, 1, 12, tzinfo=UTC), "ü", Decimal("-0.00000099"), ["x"]),
        '{"z": null, "a": {"c": 2.50, "b": -0.0}}',
        8388607.996,
        dt.datetime(1900, 1, 1, 0, 0, 0, 500, tzinfo=UTC),
        "\tTAB ",
    ),
    (
        4,
        Decimal("99999999.9999"),
        LARGEST_38_9,
        NINES_38,
        1.7976931348623157e308,
        math.inf,
        False,
        "0",
        "😀",
        "UPPER   ",
        "ffffffff-ffff-ffff-ffff-ffffffffffff",
        dt.date(2000, 2, 29),
        dt.datetime(2100, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        dt.datetime(2100, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        dt.datetime(2100, 12, 31, 23, 59, 59, 999999),
        dt.datetime(2100, 12, 31, 23, 59, 59, 999999),
        b"\x01",
        (dt.datetime(2100, 12, 31, 23, 59, 59, 999999, tzinfo=UTC), "", Decimal("1E+9"), None),
        '"text"',
        1.7976931348623157e308,
        dt.datetime(2100, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        "ÄÖ",
    ),
    (
        5,
        Decimal("-99999999.9999"),
        LARGEST_38_9.copy_negate(),
        NINES_38.copy_negate(),
        math.nan,
        -math.inf,
        True,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        math.nan,
        None,
        None,
    ),
]

# Each setting that changes how Spark SQL parses, computes or writes values, one at a time (on
# top of Spark's defaults in a fresh session), then all of them at once.
DEVIATIONS = {
    "ANSI on, Spark's default": {"spark.sql.ansi.enabled": "true"},
    "ANSI off, dbt-spark's setting": {"spark.sql.ansi.enabled": "false"},
    "time zone UTC": {"spark.sql.session.timeZone": "UTC"},
    "time zone +05:45": {"spark.sql.session.timeZone": "Asia/Kathmandu"},
    "time zone +14:00": {"spark.sql.session.timeZone": "Pacific/Kiritimati"},
    "JSON writes NULL fields": {"spark.sql.jsonGenerator.ignoreNullFields": "false"},
    "string literals unescaped": {"spark.sql.parser.escapedStringLiterals": "true"},
    "decimal precision never lost": {"spark.sql.decimalOperations.allowPrecisionLoss": "false"},
    "legacy time formats": {"spark.sql.legacy.timeParserPolicy": "LEGACY"},
    "timestamp means timestamp_ntz": {"spark.sql.timestampType": "TIMESTAMP_NTZ"},
    "exponent literals are decimals": {"spark.sql.legacy.exponentLiteralAsDecimal.enabled": "true"},
    "double quotes are identifiers": {
        "spark.sql.ansi.enabled": "true",
        "spark.sql.ansi.doubleQuotedIdentifiers": "true",
    },
    "case-sensitive names": {"spark.sql.caseSensitive": "true"},
    # What a small pair runs under past its first pass (parity/spark_settings.py).
    "no whole-stage code generation": {"spark.sql.codegen.wholeStage": "false"},
}
EVERYTHING_AT_ONCE = {
    key: value
    for name, settings in DEVIATIONS.items()
    if name not in ("ANSI on, Spark's default", "time zone UTC", "time zone +14:00")
    for key, value in settings.items()
}


def canonical_rows(session: SparkSession, canonical_sql: str) -> list[tuple]:
    """The canonical select over ROWS, in ``session`` with whatever settings it has."""
    schema = ", ".join(f"{name} {spark_type}" for name, (spark_type, _) in COLUMNS.items())
    session.createDataFrame(ROWS, schema).createOrReplaceTempView("orders")
    query = canonical_sql.replace("from lakehouse.orders", "from orders")
    assert query != canonical_sql
    return [tuple(row) for row in session.sql(query).orderBy("__parity_pos").collect()]


def deviated(spark: SparkSession, settings: dict[str, str]) -> SparkSession:
    """A session over the same Spark context and catalog with its own SQL settings."""
    session = spark.newSession()
    for key, value in settings.items():
        session.conf.set(key, value)
    return session


@pytest.fixture(scope="module")
def in_dbt_session(spark, canonical_selects) -> list[tuple]:
    return canonical_rows(spark, canonical_selects["spark"])


def test_dbt_session_text_is_the_references(in_dbt_session):
    profiles = [profile for _, profile in COLUMNS.values()]
    for written, found in zip(ROWS, in_dbt_session, strict=True):
        # __parity_pos, then the key and each value, then __parity_hash and __parity_exact.
        expected = [
            None if profile["kind"] == "nested" else canonical_text(profile, value)
            for profile, value in zip(profiles, written, strict=True)
        ]
        names = list(COLUMNS)
        expected += [
            tolerant_text(
                hash_grid(COLUMNS[name][1]["kind"], tolerance), expected[names.index(name)]
            )
            for name, tolerance in TOLERANT.items()
        ]
        texts = list(found[1:-2])
        nested = list(COLUMNS).index("attributes")
        texts[nested] = None
        assert texts == expected


@pytest.mark.parametrize("name", [*DEVIATIONS, "everything at once"])
def test_same_rows_under_every_session_setting(spark, canonical_selects, in_dbt_session, name):
    settings = DEVIATIONS.get(name, EVERYTHING_AT_ONCE)
    rows = canonical_rows(deviated(spark, settings), canonical_selects["spark"])
    assert rows == in_dbt_session


STRINGS = ["plain", "it's", "back\\slash", "both ' and \\ and \\'", "naïve ☕"]


def test_string_literals_read_alike_with_and_without_escape_processing(spark, tmp_path):
    """Pair names in tests and canonical SQL in the plan travel as Spark string literals."""
    literals = ", ".join(
        "{{ parity._spark_string_literal(" + repr(text) + ") }}" for text in STRINGS
    )
    compiled = dbt_on_package(tmp_path, "compile", "--inline", f"select {literals}")
    query = compiled.result.results[0].node.compiled_code
    for escaped in ("false", "true"):
        session = deviated(spark, {"spark.sql.parser.escapedStringLiterals": escaped})
        assert list(session.sql(query).first()) == STRINGS
