"""Both sides in one Spark session: the multiset comparison of rowdiff.py in Spark, over
canonical rows (joindiff's second pass, on the rows its first pass found differing).

One shuffle: both sides' rows are grouped by key, each side's rows of a key collected and sorted
in canonical order (each value as (is NULL, text), so NULLs sort last, as rowdiff's
canonical_order). Within a key, copies present on both sides cancel (a row is left over when
its rank among equal rows reaches the other side's count of it); the leftovers pair in order as
value mismatches, and the rest is missing (the other side has no row with that key) or a
duplicate. No row passes through Python.
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

SORTABLE = "array<struct<null:boolean,text:string>>"
# The rows of `this` side of a key left over once the other side's equal rows cancel them.
LEFT_OVER = (
    "filter({this}, (row, i) -> i + 1 - array_position({this}, row)"
    " >= size(filter({other}, same -> same = row)))"
)


def canonical_join(
    source: DataFrame, target: DataFrame, keys: list[str], values: list[str]
) -> DataFrame:
    """Row differences with the schema of results.ROW_DIFF_SCHEMA."""
    tagged = [
        frame.select(*keys, _sortable(values).alias("row"), F.lit(side).alias(IN_SOURCE))
        for frame, side in ((source, True), (target, False))
    ]
    in_source = F.col(IN_SOURCE)
    by_key = (
        tagged[0]
        .unionByName(tagged[1])
        .groupBy(*keys)
        .agg(
            F.array_sort(F.collect_list(F.when(in_source, F.col("row")))).alias("s_rows"),
            F.array_sort(F.collect_list(F.when(~in_source, F.col("row")))).alias("t_rows"),
        )
    )
    left = by_key.select(
        *keys,
        "s_rows",
        "t_rows",
        F.expr(LEFT_OVER.format(this="s_rows", other="t_rows")).alias("s_left"),
        F.expr(LEFT_OVER.format(this="t_rows", other="s_rows")).alias("t_left"),
    ).where("size(s_left) + size(t_left) > 0")
    paired = F.expr(
        "transform(sequence(0, greatest(size(s_left), size(t_left)) - 1),"
        " i -> struct(get(s_left, i) as s, get(t_left, i) as t))"
    )
    rows = left.select(*keys, "s_rows", "t_rows", F.explode(paired).alias("pair"))
    source_row, target_row = F.col("pair.s"), F.col("pair.t")
    kind = (
        F.when(source_row.isNotNull() & target_row.isNotNull(), F.lit(VALUE_MISMATCH))
        .when(source_row.isNotNull() & (F.size("t_rows") == 0), F.lit(MISSING_IN_TARGET))
        .when(source_row.isNotNull(), F.lit(DUPLICATE_IN_SOURCE))
        .when(F.size("s_rows") == 0, F.lit(MISSING_IN_SOURCE))
        .otherwise(F.lit(DUPLICATE_IN_TARGET))
    )
    return rows.select(
        F.array(*[F.col(k) for k in keys]).alias("key"),
        kind.alias("kind"),
        _texts(source_row).alias("source_values"),
        _texts(target_row).alias("target_values"),
    )


def _sortable(values: list[str]) -> Column:
    """A row's values as (is NULL, text) pairs: arrays of them sort as canonical_order does."""
    return F.array(
        *[
            F.struct(F.col(v).isNull().alias("null"), F.coalesce(F.col(v), F.lit("")).alias("text"))
            for v in values
        ]
    ).cast(SORTABLE)


def _texts(row: Column) -> Column:
    """A sortable row's values back as text, NULL for NULL."""
    return F.transform(row, lambda value: F.when(~value["null"], value["text"]))
