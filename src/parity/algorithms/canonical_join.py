"""Both sides in one Spark session: the multiset comparison of rowdiff.py in Spark, over
canonical rows (joindiff's second pass, on the rows its first pass found differing).

One shuffle: both sides' rows are partitioned by key, then counted per key and distinct row
(each row's values as (is NULL, text), so NULLs sort last, as rowdiff's canonical_order) and per
key, both within those partitions. Copies present on both sides cancel: a row is left over on
the side that holds more copies of it, by how many more. Within a key the leftovers, sorted in
canonical order, pair in order as value mismatches, and the rest is missing (the other side has
no row with that key) or a duplicate. Counting distinct rows keeps a key held 10,000 times as
cheap as 10,000 keys; no row passes through Python.

Where neither side holds a key twice (the first pass counted their duplicate keys), a key has at
most one row on each side, and the comparison is a join by key: a row left on one side is
missing on the other, two rows that differ are a value mismatch. That is what the multiset
comparison finds of such rows, without grouping them twice and sorting arrays: half its time
when every row differs.
"""

from __future__ import annotations

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F

from parity.sides.spark import IN_SOURCE
from parity.values.rows import (
    DUPLICATE_IN_SOURCE,
    DUPLICATE_IN_TARGET,
    MISSING_IN_SOURCE,
    MISSING_IN_TARGET,
    VALUE_MISMATCH,
)
from parity.values.spark_literals import identifier

SORTABLE = "array<struct<null:boolean,text:string>>"
# This side's rows of a key left over, each as many times as it outnumbers the other side's,
# in canonical order.
LEFT_OVER = "array_sort(flatten(transform({runs}, run -> array_repeat(run.row, run.copies))))"


def canonical_join(
    source: DataFrame,
    target: DataFrame,
    keys: list[str],
    values: list[str],
    unique_keys: bool = False,
) -> DataFrame:
    """Row differences with the schema of results.ROW_DIFF_SCHEMA. ``unique_keys``: neither
    side holds a key twice."""
    if unique_keys:
        return _joined_by_key(source, target, keys, values)
    tagged = [
        frame.select(*keys, _sortable(values).alias("row"), F.lit(side).alias(IN_SOURCE))
        for frame, side in ((source, True), (target, False))
    ]
    in_source = F.col(IN_SOURCE)
    # Partitioned by key once: both groupings below are within it, so neither shuffles again.
    counted = (
        tagged[0]
        .unionByName(tagged[1])
        .repartition(*keys)
        .groupBy(*keys, "row")
        .agg(F.count_if(in_source).alias("s_n"), F.count_if(~in_source).alias("t_n"))
    )

    def runs(this: str, other: str) -> Column:
        surplus = F.col(this) - F.col(other)
        return F.collect_list(
            F.when(surplus > 0, F.struct("row", surplus.cast("int").alias("copies")))
        )

    left = (
        counted.groupBy(*keys)
        .agg(
            F.sum("s_n").alias("s_rows"),
            F.sum("t_n").alias("t_rows"),
            runs("s_n", "t_n").alias("s_runs"),
            runs("t_n", "s_n").alias("t_runs"),
        )
        .where("size(s_runs) + size(t_runs) > 0")
        .select(
            *keys,
            "s_rows",
            "t_rows",
            F.expr(LEFT_OVER.format(runs="s_runs")).alias("s_left"),
            F.expr(LEFT_OVER.format(runs="t_runs")).alias("t_left"),
        )
    )
    paired = F.expr(
        "transform(sequence(0, greatest(size(s_left), size(t_left)) - 1),"
        " i -> struct(get(s_left, i) as s, get(t_left, i) as t))"
    )
    rows = left.select(*keys, "s_rows", "t_rows", F.explode(paired).alias("pair"))
    source_row, target_row = F.col("pair.s"), F.col("pair.t")
    kind = (
        F.when(source_row.isNotNull() & target_row.isNotNull(), F.lit(VALUE_MISMATCH))
        .when(source_row.isNotNull() & (F.col("t_rows") == 0), F.lit(MISSING_IN_TARGET))
        .when(source_row.isNotNull(), F.lit(DUPLICATE_IN_SOURCE))
        .when(F.col("s_rows") == 0, F.lit(MISSING_IN_SOURCE))
        .otherwise(F.lit(DUPLICATE_IN_TARGET))
    )
    return _row_diffs(rows, keys, kind, source_row, target_row)


def _joined_by_key(
    source: DataFrame, target: DataFrame, keys: list[str], values: list[str]
) -> DataFrame:
    """The row differences of two sides that hold each key at most once."""
    source_row, target_row = F.col("s"), F.col("t")
    joined = (
        source.select(*keys, _sortable(values).alias("s"))
        .join(target.select(*keys, _sortable(values).alias("t")), keys, "full_outer")
        .where(~source_row.eqNullSafe(target_row))
    )
    kind = (
        F.when(source_row.isNull(), F.lit(MISSING_IN_SOURCE))
        .when(target_row.isNull(), F.lit(MISSING_IN_TARGET))
        .otherwise(F.lit(VALUE_MISMATCH))
    )
    return _row_diffs(joined, keys, kind, source_row, target_row)


def _row_diffs(
    frame: DataFrame, keys: list[str], kind: Column, source_row: Column, target_row: Column
) -> DataFrame:
    """Each row of ``frame`` as a row difference (ROW_DIFF_SCHEMA): its sortable rows as text."""
    return frame.select(
        F.array(*[F.col(k) for k in keys]).alias("key"),
        kind.alias("kind"),
        _texts(source_row).alias("source_values"),
        _texts(target_row).alias("target_values"),
    )


def _sortable(values: list[str]) -> Column:
    """A row's values as (is NULL, text) pairs: arrays of them sort as canonical_order does.
    Written as one expression: built column by column, a wide row cost hundreds of calls to
    Spark per pair."""
    quoted = [identifier(v) for v in values]
    pairs = ", ".join(f"struct({v} is null as `null`, coalesce({v}, '') as `text`)" for v in quoted)
    return F.expr(f"cast(array({pairs}) as {SORTABLE})")


def _texts(row: Column) -> Column:
    """A sortable row's values back as text, NULL for NULL."""
    return F.transform(row, lambda value: F.when(~value["null"], value["text"]))
