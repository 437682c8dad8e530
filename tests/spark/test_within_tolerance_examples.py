"""Values within tolerance are published as a few examples per column, chosen in Spark by what is
published of them: largest |delta|, then largest relative error, then smallest key (a sensitive
column's errors are not published: by key alone; a sensitive key's order is its hash's); every
other difference is published whatever the cap, and the same inputs publish the same examples
however Spark splits them."""

from __future__ import annotations

import pytest
from pyspark.sql import types as T

from parity.results.examples import capped
from parity.values.column_rule import ColumnRule
from parity.values.masking import Masking, hashed

WITHIN, BEYOND = "within_tolerance", "value_mismatch"
RULES = (ColumnRule("x", "float", {}), ColumnRule("y", "string", {}))
KEYS = ("id",)
OPEN = Masking(False, frozenset())
# As summary.DIFFERENCE_COLUMNS: each difference as found, before it is presented.
FOUND = T.StructType(
    [
        T.StructField("key", T.StringType()),
        T.StructField("kind", T.StringType(), False),
        T.StructField("column_name", T.StringType()),
        T.StructField("source_value", T.StringType()),
        T.StructField("target_value", T.StringType()),
        T.StructField("delta", T.StringType()),
        T.StructField("relative_error", T.DoubleType()),
    ]
)


def value(key, column, delta=None, relative=None, kind=WITHIN):
    return (key, kind, column, "s", "t", delta, relative)


DIFFERENCES = [
    value("k3", "x", "0.3", 1e-6),
    value("k1", "x", "-0.3", 1e-6),  # as large: the smaller key first
    value("k2", "x", "0.3", 2e-6),  # as large, a larger relative error: before both
    value("k4", "x", "0.1", 9e-6),
    value("k5", "x", "0.2", None),
    value("k9", "x", "5", 0.5, kind=BEYOND),
    value("k8", "x", "0.01", 1e-9, kind=BEYOND),
    # A column whose values have no error (text): by key alone.
    *[value(f"k{i}", "y") for i in (7, 2, 5)],
    # A whole row missing: no column.
    ("k6", "missing_in_target", None, "{}", None, None, None),
]


def published(spark, cap, masking=OPEN, partitions=1):
    frame = spark.createDataFrame(DIFFERENCES, FOUND).repartition(partitions)
    chosen = capped(frame, cap, masking, RULES, KEYS).collect()
    return sorted((r["kind"], r["column_name"] or "", r["key"]) for r in chosen)


def listed(kind, column, *keys):
    return [(kind, column, key) for key in keys]


OTHERS = [*listed(BEYOND, "x", "k8", "k9"), ("missing_in_target", "", "k6")]


def test_each_column_lists_its_largest_errors_then_smallest_keys(spark):
    assert published(spark, 2) == sorted(
        OTHERS + listed(WITHIN, "x", "k2", "k1") + listed(WITHIN, "y", "k2", "k5")
    )
    assert published(spark, 4) == sorted(
        OTHERS + listed(WITHIN, "x", "k2", "k1", "k3", "k5") + listed(WITHIN, "y", "k2", "k5", "k7")
    )


@pytest.mark.parametrize(("cap", "within"), [(0, 0), (None, 8), (100, 8)])
def test_none_or_every_one_is_listed_and_nothing_else_is_cut(spark, cap, within):
    found = published(spark, cap)
    assert [f for f in found if f[0] != WITHIN] == sorted(OTHERS)
    assert len([f for f in found if f[0] == WITHIN]) == within


def test_a_difference_keeps_its_kind_not_null_as_the_published_record_requires(spark):
    """results_frame casts each difference to PublishedDifference's type, whose kind is never
    NULL: a kind Spark thinks may be NULL fails that cast."""
    frame = spark.createDataFrame(DIFFERENCES, FOUND)
    assert not capped(frame, 2, OPEN, RULES, KEYS).schema["kind"].nullable


def test_the_examples_are_the_same_however_the_rows_are_split(spark):
    assert published(spark, 2, partitions=5) == published(spark, 2)


def test_a_sensitive_columns_examples_are_chosen_by_what_it_publishes(spark):
    """Its errors are not published, so they choose nothing: its smallest keys are listed."""
    x_hidden = Masking(False, frozenset({"x"}))
    assert listed(WITHIN, "x", "k1", "k2") == [
        f for f in published(spark, 2, x_hidden) if f[:2] == (WITHIN, "x")
    ]
    # A hidden key is published as its hash: the smallest hashes are listed.
    key_hidden = Masking(False, frozenset({"id"}))
    by_hash = sorted((f"k{i}" for i in (7, 2, 5)), key=hashed)[:2]
    assert listed(WITHIN, "y", *sorted(by_hash)) == [
        f for f in published(spark, 2, key_hidden) if f[:2] == (WITHIN, "y")
    ]
