"""From row differences to what a pair found: counts by kind, each column's drift totals, and
every difference, which stays in Spark.

Both algorithms hand their row differences to ``summarize`` as a DataFrame, not yet computed
(hashdiff's downloads are joined in the same job, unless a circuit breaker counted them between
passes). One Spark job judges them (tolerance verdicts, comparison/tolerance.py), keeps the
judged rows in the executors, and counts them on the way (an observation); a pair wider than one
projection first keeps its row differences, in a job that finds the columns in which values
differ, and only those columns are judged. A small job sums each column's drift over the judged
rows, where values differ. Only those counts reach the driver. The differences are read from the
kept rows when the results are written, so however many there are, none passes through Python.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass, replace
from typing import Any

from pyspark.sql import Column, DataFrame, Observation
from pyspark.sql import functions as F
from pyspark.sql import types as T

from parity.comparison.tolerance import typed, verdict
from parity.results.drift import drift_totals
from parity.results.patterns import evidence
from parity.values.column_rule import ColumnRule
from parity.values.rows import KINDS, ROW_KINDS, VALUE_MISMATCH, WITHIN_TOLERANCE
from parity.values.spark_literals import string_literal

TEXT_ARRAY = T.ArrayType(T.StringType())

# The columns judged per pair of projections (_with_cells). Each projection costs the driver an
# analysis of the whole plan so far, so one per column made a pair of 45 columns spend 9 s
# building its plan; eight at a time, 5 s, and its job ran faster, at 200,000 differing rows too.
# A stage that grows past the JVM's method size runs unfused (spark_settings.py).
CELLS_PER_PROJECTION = 8

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

# Each difference as found (``Findings.differences``): a whole row (no column) or one value of
# a row; ``delta`` and ``relative_error`` measure a value's drift where its kind has one.
DIFFERENCE_COLUMNS = (
    "key",
    "kind",
    "column_name",
    "source_value",
    "target_value",
    "delta",
    "relative_error",
)


@dataclass(frozen=True)
class Findings:
    counts: dict[str, int]
    mismatched_values: int
    within_tolerance_values: int
    # The drift totals of each column with a differing value (drift.drift_totals), with the
    # evidence of its pattern (patterns.evidence).
    drift_totals: dict[str, dict[str, Any]]
    # The judged rows, kept in Spark (drift.column_stats ranks lags in them).
    kept: DataFrame | None
    # Every difference (DIFFERENCE_COLUMNS), read from the kept rows; None when none was found
    # or none is published (a halted pair).
    differences: DataFrame | None

    @classmethod
    def none(cls) -> Findings:
        """Nothing found: what a pair whose rows all match, or were not compared, reports."""
        return cls({name: 0 for name in COUNTS}, 0, 0, {}, None, None)

    def unpublished(self) -> Findings:
        """What a pair its circuit breaker halted reports: counts and drift, no difference."""
        return replace(self, differences=None)

    @property
    def differing_rows(self) -> int:
        """Rows that differ beyond tolerance: every kind but within_tolerance."""
        return sum(n for name, n in self.counts.items() if name != f"{WITHIN_TOLERANCE}_rows")

    @property
    def missing_or_extra_rows(self) -> int:
        return sum(self.counts[f"{kind}_rows"] for kind in KINDS if kind != VALUE_MISMATCH)


def summarize(
    row_diffs: DataFrame,
    column_names: tuple[str, ...],
    rules: tuple[ColumnRule, ...],
) -> Findings:
    """Counts by kind, counted in the job that keeps the judged rows in Spark, and each
    column's drift totals."""
    differing = None
    if len(column_names) > CELLS_PER_PROJECTION:
        row_diffs, differing = _kept_with_differing_columns(row_diffs, len(column_names))
    per_row = _judged_rows(row_diffs, column_names, rules, differing)

    def values(within: bool) -> Column:
        chosen = F.filter("cells", lambda c: c["within"] if within else ~c["within"])
        return F.sum(F.when(F.col("is_value_row"), F.size(chosen)).otherwise(0))

    observed = Observation("parity_findings")
    # Cut from the plan that found them: the rows they came from (the first pass's checkpoints,
    # downloads) are released before the results are written.
    kept = per_row.observe(
        observed,
        *[F.count_if(F.col("kind") == k).alias(k) for k in ROW_KINDS],
        values(False).alias("mismatched_values"),
        values(True).alias("within_tolerance_values"),
    ).localCheckpoint()
    counted = observed.get
    as_differences = F.transform(
        "cells",
        lambda cell: F.struct(
            F.col("key").alias("key"),
            F.when(cell["within"], F.lit(WITHIN_TOLERANCE))
            .when(F.col("is_value_row"), F.lit(VALUE_MISMATCH))
            .otherwise(F.col("kind"))
            .alias("kind"),
            *[cell[name].alias(name) for name in DIFFERENCE_COLUMNS[2:]],
        ),
    )
    found = any(counted[k] for k in ROW_KINDS)
    mismatched = int(counted["mismatched_values"] or 0)
    within = int(counted["within_tolerance_values"] or 0)
    return Findings(
        counts={f"{k}_rows": int(counted[k]) for k in ROW_KINDS},
        mismatched_values=mismatched,
        within_tolerance_values=within,
        drift_totals=drift_totals(kept, evidence(rules)) if mismatched or within else {},
        kept=kept,
        differences=kept.select(F.inline(as_differences)) if found else None,
    )


def _kept_with_differing_columns(row_diffs: DataFrame, width: int) -> tuple[DataFrame, list[int]]:
    """The row differences kept in the executors, and the columns in which a value mismatch
    differs: only those are judged. A tolerance verdict is an expression of tens of nodes, and
    Spark analyses and plans each of them whatever its rows, so judging every column of a wide
    pair cost seconds where a few columns differ (docs/design-notes.md). A pair no wider than
    one projection is judged whole, in one job: this job would cost more than it saves."""
    observed = Observation("parity_differing_columns")
    value_row = f"kind = '{VALUE_MISMATCH}'"
    flags = ", ".join(
        f"bool_or({value_row} and not (source_values[{i}] <=> target_values[{i}]))"
        for i in range(width)
    )
    kept = row_diffs.observe(observed, F.expr(f"array({flags})").alias("differs")).localCheckpoint()
    return kept, [i for i, differs in enumerate(observed.get["differs"]) if differs]


def _judged_rows(
    row_diffs: DataFrame,
    column_names: tuple[str, ...],
    rules: tuple[ColumnRule, ...],
    differing: list[int] | None = None,
) -> DataFrame:
    """Each row difference with its differing values (or the whole row) as cells, each value
    with the tolerance verdict of its column (of ``differing`` columns only, where given: no
    value of another differs); a value mismatch whose differing values are all within
    tolerance becomes a within_tolerance row."""
    names = F.array(*[F.lit(n) for n in column_names]).cast("array<string>")
    whole_row = F.struct(
        F.lit(None).cast("string").alias("column_name"),
        _as_json(names, "source_values").alias("source_value"),
        _as_json(names, "target_values").alias("target_value"),
        F.lit(False).alias("within"),
        F.lit(None).cast("string").alias("delta"),
        F.lit(None).cast("double").alias("relative_error"),
    )
    kept = ["key", "kind", "source_values", "target_values"]
    judged = row_diffs.select(*kept)
    columns = list(enumerate(zip(column_names, rules, strict=True)))
    if differing is not None:
        columns = [columns[i] for i in differing]
    for start in range(0, len(columns), CELLS_PER_PROJECTION):
        chunk = columns[start : start + CELLS_PER_PROJECTION]
        judged = _with_cells(judged, kept, chunk)
        kept += [_cell_name(index) for index, _ in chunk]
    listed = (
        F.array(*[F.col(_cell_name(index)) for index, _ in columns])
        if columns
        else F.array(F.lit(None).cast(CELL))
    )
    is_value_row = F.col("kind") == VALUE_MISMATCH
    cells = F.when(is_value_row, F.filter(listed, lambda c: c.isNotNull())).otherwise(
        F.array(whole_row)
    )
    key = F.when(F.size("key") == 1, F.col("key")[0]).otherwise(F.to_json("key"))
    return judged.select(F.col("kind"), cells.alias("cells"), key.alias("key")).select(
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


def _with_cells(
    frame: DataFrame, columns: list[str], chunk: list[tuple[int, tuple[str, ColumnRule]]]
) -> DataFrame:
    """``frame`` (its ``columns``) with each column of ``chunk`` as a cell with its verdict where
    the row's two values differ, NULL where they are equal. Two projections: the values are read
    from their texts once (tolerance.typed), as the verdict uses each several times and Spark
    shares no expression under a condition. Each expression is SQL text (tolerance.py)."""
    reads, cells = [], []
    for index, (name, rule) in chunk:
        source, target = f"source_values[{index}]", f"target_values[{index}]"
        differs = f"not ({source} <=> {target})"
        read_source, read_target = f"parity_source_{index}", f"parity_target_{index}"
        reads += [
            F.expr(f"case when {differs} then {typed(rule, source)} end").alias(read_source),
            F.expr(f"case when {differs} then {typed(rule, target)} end").alias(read_target),
        ]
        judged = verdict(rule, f"`{read_source}`", f"`{read_target}`")
        values = (string_literal(name), source, target, *astuple(judged))
        cell = ", ".join(f"'{f}', {v}" for f, v in zip(CELL.fieldNames(), values, strict=True))
        cells.append(
            F.expr(f"case when {differs} then named_struct({cell}) end").alias(_cell_name(index))
        )
    return frame.select(*columns, *reads).select(*columns, *cells)


def _cell_name(index: int) -> str:
    return f"parity_cell_{index}"


def _as_json(names: Any, values: str) -> Any:
    return F.when(F.col(values).isNotNull(), F.to_json(F.map_from_arrays(names, F.col(values))))
