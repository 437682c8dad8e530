"""Both sides in one Spark session: the multiset comparison of rowdiff.py as Spark SQL, over
canonical rows (joindiff's second pass, on the rows of the keys its first pass found differing).

Rows are first counted per distinct (key, values) and matched by a full outer join with
null-safe equality on every column, so identical copies cancel without leaving the engine.
Only the leftovers (a handful when the copies mostly agree) are paired per key in canonical
order, exactly as rowdiff.compare_rows pairs them. No row passes through Python.
"""

from __future__ import annotations

from functools import reduce

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F

from parity.values.rows import (
    DUPLICATE_IN_SOURCE,
    DUPLICATE_IN_TARGET,
    MISSING_IN_SOURCE,
    MISSING_IN_TARGET,
    VALUE_MISMATCH,
)


def canonical_join(
    source: DataFrame, target: DataFrame, keys: list[str], values: list[str]
) -> DataFrame:
    """Row differences with the schema of results.ROW_DIFF_SCHEMA."""
    columns = keys + values
    source_counts, target_counts = _counted(source, columns, "s"), _counted(target, columns, "t")
    counted = source_counts.join(
        target_counts,
        on=_all_equal([F.col(f"s_{c}").eqNullSafe(F.col(f"t_{c}")) for c in columns]),
        how="full_outer",
    )
    s_rows, t_rows = F.coalesce("s_n", F.lit(0)), F.coalesce("t_n", F.lit(0))
    matched = F.least(s_rows, t_rows)
    unmatched = counted.select(
        *[
            F.when(F.col("s_n").isNotNull(), F.col(f"s_{c}")).otherwise(F.col(f"t_{c}")).alias(c)
            for c in columns
        ],
        (s_rows - matched).alias("s_left"),
        (t_rows - matched).alias("t_left"),
    ).where("s_left > 0 or t_left > 0")
    # How many rows each side holds of a leftover's key tells a duplicate from a missing row. Only
    # the (key, count) pairs are aggregated, and only joined to the leftovers: no pass over
    # whole rows.
    leftovers = unmatched.join(_rows_per_key(source_counts, keys, "s"), on=keys, how="left").join(
        _rows_per_key(target_counts, keys, "t"), on=keys, how="left"
    )

    source_left = _expanded(leftovers, "s_left", keys, values, "s")
    target_left = _expanded(leftovers, "t_left", keys, values, "t")
    paired = source_left.join(target_left, on=[*keys, "copy"], how="full_outer")
    in_source, in_target = F.col("s_values").isNotNull(), F.col("t_values").isNotNull()
    kind = (
        F.when(in_source & in_target, F.lit(VALUE_MISMATCH))
        .when(in_source & (F.col("s_other_rows") == 0), F.lit(MISSING_IN_TARGET))
        .when(in_source, F.lit(DUPLICATE_IN_SOURCE))
        .when(F.col("t_other_rows") == 0, F.lit(MISSING_IN_SOURCE))
        .otherwise(F.lit(DUPLICATE_IN_TARGET))
    )
    return paired.select(
        F.array(*[F.col(k) for k in keys]).alias("key"),
        kind.alias("kind"),
        F.col("s_values").alias("source_values"),
        F.col("t_values").alias("target_values"),
    )


def _rows_per_key(counts: DataFrame, keys: list[str], prefix: str) -> DataFrame:
    return counts.groupBy(*[F.col(f"{prefix}_{k}").alias(k) for k in keys]).agg(
        F.sum(f"{prefix}_n").alias(f"{prefix}_key_rows")
    )


def _counted(frame: DataFrame, columns: list[str], prefix: str) -> DataFrame:
    return (
        frame.groupBy(*columns)
        .agg(F.count(F.lit(1)).alias("n"))
        .select(
            *[F.col(c).alias(f"{prefix}_{c}") for c in columns], F.col("n").alias(f"{prefix}_n")
        )
    )


def _expanded(
    leftovers: DataFrame, count: str, keys: list[str], values: list[str], prefix: str
) -> DataFrame:
    """One row per leftover copy on one side, numbered per key in canonical order."""
    other_rows = "t_key_rows" if prefix == "s" else "s_key_rows"
    copies = leftovers.where(F.col(count) > 0).select(
        *keys,
        *values,
        F.coalesce(other_rows, F.lit(0)).alias(f"{prefix}_other_rows"),
        # In bigint: a cast to int would wrap past 2^31 copies with ANSI off (dbt-spark's setting).
        F.explode(F.sequence(F.lit(1).cast("bigint"), F.col(count))).alias("_copy_of_value"),
    )
    order = Window.partitionBy(*keys).orderBy(*[F.col(c).asc_nulls_last() for c in values or keys])
    return copies.select(
        *keys,
        F.array(*[F.col(v) for v in values]).cast("array<string>").alias(f"{prefix}_values"),
        F.col(f"{prefix}_other_rows"),
        F.row_number().over(order).alias("copy"),
    )


def _all_equal(conditions: list[Column]) -> Column:
    return reduce(lambda a, b: a & b, conditions)
