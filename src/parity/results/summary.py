"""From row differences to the published result: one row per pair, its differences nested.

Both algorithms hand their row differences to ``summarize`` as a DataFrame, so counts, tolerance
verdicts (comparison/tolerance.py) and the layout of each difference are computed by one piece of
code, in one Spark action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

from parity.comparison.tolerance import verdict
from parity.values.column_rule import ColumnRule
from parity.values.rows import KINDS, ROW_KINDS, VALUE_MISMATCH, WITHIN_TOLERANCE, RowDiff

TEXT_ARRAY = T.ArrayType(T.StringType())

ROW_DIFF_SCHEMA = T.StructType(
    [
        T.StructField("key", TEXT_ARRAY, False),
        T.StructField("kind", T.StringType(), False),
        T.StructField("source_values", TEXT_ARRAY, True),
        T.StructField("target_values", TEXT_ARRAY, True),
    ]
)

# The count of each kind of row difference, by its result field (pair_result.PairResult).
COUNTS = [f"{kind}_rows" for kind in ROW_KINDS]

# One differing value of a row, or the whole row for a row missing or duplicated.
CELL = T.StructType(
    [
        T.StructField("column_name", T.StringType(), True),
        T.StructField("source_value", T.StringType(), True),
        T.StructField("target_value", T.StringType(), True),
        T.StructField("within", T.BooleanType(), False),
        T.StructField("delta", T.StringType(), True),
        T.StructField("relative_error", T.DoubleType(), True),
    ]
)


@dataclass(frozen=True)
class Difference:
    """A difference as found: a whole row (no column), one value of a row, or a schema finding
    (no key). ``delta`` and ``relative_error`` measure a value's drift where its kind has one."""

    key: str | None
    kind: str
    column_name: str | None
    source_value: str | None
    target_value: str | None
    delta: str | None = None
    relative_error: float | None = None


@dataclass(frozen=True)
class Findings:
    counts: dict[str, int]
    mismatched_values: int
    within_tolerance_values: int
    differences: list[Difference]

    @classmethod
    def none(cls) -> Findings:
        """Nothing found: what a pair whose rows all match, or were not compared, reports."""
        return cls({name: 0 for name in COUNTS}, 0, 0, [])

    @property
    def differing_rows(self) -> int:
        """Rows that differ beyond tolerance: every kind but within_tolerance."""
        return sum(n for name, n in self.counts.items() if name != f"{WITHIN_TOLERANCE}_rows")

    @property
    def missing_or_extra_rows(self) -> int:
        return sum(self.counts[f"{kind}_rows"] for kind in KINDS if kind != VALUE_MISMATCH)


def row_diff_frame(spark: SparkSession, diffs: list[RowDiff]) -> DataFrame:
    return spark.createDataFrame(
        [(list(d.key), d.kind, _listed(d.source_values), _listed(d.target_values)) for d in diffs],
        ROW_DIFF_SCHEMA,
    )


def summarize(
    row_diffs: DataFrame,
    column_names: tuple[str, ...],
    rules: tuple[ColumnRule, ...],
    with_differences: bool = True,
) -> Findings:
    """Counts by kind and every difference, sorted, in one action over the row differences
    (without the differences themselves when ``with_differences`` is off: then no row leaves
    the engine)."""
    per_row = _judged_rows(row_diffs, column_names, rules)
    as_differences = F.transform(
        "cells",
        lambda cell: F.struct(
            F.col("key").alias("key"),
            F.when(cell["within"], F.lit(WITHIN_TOLERANCE))
            .when(F.col("is_value_row"), F.lit(VALUE_MISMATCH))
            .otherwise(F.col("kind"))
            .alias("kind"),
            cell["column_name"].alias("column_name"),
            cell["source_value"].alias("source_value"),
            cell["target_value"].alias("target_value"),
            cell["delta"].alias("delta"),
            cell["relative_error"].alias("relative_error"),
        ),
    )

    def values(within: bool) -> Column:
        chosen = F.filter("cells", lambda c: c["within"] if within else ~c["within"])
        return F.sum(F.when(F.col("is_value_row"), F.size(chosen)).otherwise(0))

    differences = F.array_sort(F.flatten(F.collect_list(as_differences)))
    result = per_row.agg(
        *[F.count_if(F.col("kind") == k).alias(k) for k in ROW_KINDS],
        values(False).alias("mismatched_values"),
        values(True).alias("within_tolerance_values"),
        (differences if with_differences else F.array().cast("array<int>")).alias("differences"),
    ).first()
    return Findings(
        counts={f"{k}_rows": int(result[k]) for k in ROW_KINDS},
        mismatched_values=int(result["mismatched_values"] or 0),
        within_tolerance_values=int(result["within_tolerance_values"] or 0),
        differences=[Difference(**d.asDict()) for d in result["differences"]],
    )


def _judged_rows(
    row_diffs: DataFrame, column_names: tuple[str, ...], rules: tuple[ColumnRule, ...]
) -> DataFrame:
    """Each row difference with its differing values (or the whole row) as cells, each value
    with the tolerance verdict of its column; a value mismatch whose differing values are all
    within tolerance becomes a within_tolerance row."""
    names = F.array(*[F.lit(n) for n in column_names]).cast("array<string>")
    whole_row = F.struct(
        F.lit(None).cast("string").alias("column_name"),
        _as_json(names, "source_values").alias("source_value"),
        _as_json(names, "target_values").alias("target_value"),
        F.lit(False).alias("within"),
        F.lit(None).cast("string").alias("delta"),
        F.lit(None).cast("double").alias("relative_error"),
    )
    is_value_row = F.col("kind") == VALUE_MISMATCH
    cells = F.when(is_value_row, _differing_values(column_names, rules)).otherwise(
        F.array(whole_row)
    )
    key = F.when(F.size("key") == 1, F.col("key")[0]).otherwise(F.to_json("key"))
    return row_diffs.select(F.col("kind"), cells.alias("cells"), key.alias("key")).select(
        F.when(is_value_row & F.forall("cells", lambda c: c["within"]), F.lit(WITHIN_TOLERANCE))
        .otherwise(F.col("kind"))
        .alias("kind"),
        "cells",
        "key",
        is_value_row.alias("is_value_row"),
    )


def rows_beyond_tolerance(
    row_diffs: DataFrame, column_names: tuple[str, ...], rules: tuple[ColumnRule, ...]
) -> int:
    """How many row differences are not within tolerance: one count, no row leaves Spark."""
    judged = _judged_rows(row_diffs, column_names, rules)
    return judged.where(F.col("kind") != WITHIN_TOLERANCE).count()


def _differing_values(column_names: tuple[str, ...], rules: tuple[ColumnRule, ...]) -> Column:
    """The values of a row pair that differ, each with its column's tolerance verdict."""
    cells = []
    for index, (name, rule) in enumerate(zip(column_names, rules, strict=True)):
        source, target = F.col("source_values")[index], F.col("target_values")[index]
        judged = verdict(rule, source, target)
        cell = F.struct(
            F.lit(name).alias("column_name"),
            source.alias("source_value"),
            target.alias("target_value"),
            judged.within.alias("within"),
            judged.delta.alias("delta"),
            judged.relative_error.alias("relative_error"),
        )
        cells.append(F.when(~source.eqNullSafe(target), cell))
    listed = F.array(*cells) if cells else F.array(F.lit(None).cast(CELL))
    return F.filter(listed, lambda c: c.isNotNull())


def _as_json(names: Any, values: str) -> Any:
    return F.when(F.col(values).isNotNull(), F.to_json(F.map_from_arrays(names, F.col(values))))


def _listed(values: tuple[str | None, ...] | None) -> list[str | None] | None:
    return None if values is None else list(values)
