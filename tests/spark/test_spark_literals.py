"""Python values spelled as Spark SQL literals (parity/values/spark_literals.py) read back in Spark
as the same value, of the same type, whichever way the session reads backslashes."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parity.values.spark_literals import decimal_literal, double_literal, string_literal
from tests.examples import examples

ESCAPES = "spark.sql.parser.escapedStringLiterals"


@pytest.mark.parametrize("escaped", ["false", "true"])
def test_texts_read_back_whatever_the_parser_does_with_backslashes(spark, escaped):
    texts = ["plain", "it's", "back\\slash", r"^\s+|\s+$", "ünïcode ∑", "", "'\\'"]
    spark.conf.set(ESCAPES, escaped)
    try:
        row = spark.sql(f"select array({', '.join(map(string_literal, texts))})").first()
    finally:
        spark.conf.unset(ESCAPES)
    assert row[0] == texts


@settings(
    max_examples=examples(50),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_doubles_read_back_as_the_same_double(spark, value):
    read = spark.sql(f"select {double_literal(value)} as v")
    assert read.schema["v"].dataType.typeName() == "double"
    assert read.first()["v"] == value


@pytest.mark.parametrize("text", ["0.001", "1E+9", "1500000.0", "-2.50", "0"])
def test_decimals_read_back_as_the_same_digits(spark, text):
    value = Decimal(text)
    read = spark.sql(f"select {decimal_literal(value)} as v")
    assert read.schema["v"].dataType.typeName() == "decimal"
    assert read.first()["v"] == value
