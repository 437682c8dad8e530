"""Per-column drift telemetry of one pair and run, from its differences, summed in Spark.

A value that does not appear among the differences is equal on both sides, so its error is 0:
means and the 99th percentile are taken over every compared value, with the differences as the
only non-zero errors. Compared values are the rows present on both sides. The totals are summed
in Spark, per column, over the judged rows a pair keeps (``drift_totals``); only they reach the
driver.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F

from parity.values.column_rule import ColumnRule
from parity.values.masking import Masking


@dataclass(frozen=True)
class ColumnStats:
    """The drift of one compared column (parity_column_drift): errors are NULL where the kind has
    none, or where the column is sensitive."""

    column_name: str
    values_compared: int
    out_of_tolerance: int
    within_tolerance: int
    null_on_one_side: int
    max_abs_error: float | None
    mean_abs_error: float | None
    max_relative_error: float | None
    mean_relative_error: float | None
    max_lag_ms: float | None
    p99_lag_ms: float | None
    coverage: str


NUMERIC = ("integer", "decimal", "float")
TEMPORAL = ("timestamp", "timestamp_ntz", "date")
# The kinds whose errors are lags, in milliseconds.
LAGGED = ("timestamp", "timestamp_ntz")
TOTALS = ("out", "within", "null_on_one_side", "errors", "max_error", "sum_error")
TOTALS += ("max_relative", "sum_relative")


def drift_totals(kept: DataFrame, more: dict[str, Column]) -> dict[str, dict[str, Any]]:
    """Per column with a differing value, its values out of and within tolerance, NULL on one
    side, and the count, largest and sum of their errors and relative errors, and ``more``
    aggregates of its cells (patterns.evidence): one small job over the judged rows ``kept``
    (their value rows' cells, grouped by column)."""
    error = F.abs(F.col("delta").cast("double"))
    found = {
        "out": F.count_if(~F.col("within")),
        "within": F.count_if("within"),
        "null_on_one_side": F.count_if(
            F.col("source_value").isNull() != F.col("target_value").isNull()
        ),
        "errors": F.count(error),
        "max_error": F.max(error),
        "sum_error": F.sum(error),
        "max_relative": F.max("relative_error"),
        "sum_relative": F.sum("relative_error"),
    }
    found |= more
    grouped = _value_cells(kept).groupBy("column_name").agg(*[c.alias(n) for n, c in found.items()])
    return {row["column_name"]: row.asDict() for row in grouped.collect()}


def _value_cells(kept: DataFrame) -> DataFrame:
    """The differing values of the judged rows, one row each (summary.CELL)."""
    return kept.where("is_value_row").select(F.inline("cells"))


def column_stats(
    totals: dict[str, dict[str, Any]],
    kept: DataFrame | None,
    rules: tuple[ColumnRule, ...],
    compared: int,
    coverage: str,
    masking: Masking,
) -> list[ColumnStats]:
    """One row per compared column, from ``totals`` (drift_totals; a column without a
    differing value has none) and, for a percentile that needs them, the judged rows
    ``kept``. A sensitive column gets counts only:
    its errors and lags would tell how far its values moved."""
    lagged = [r.column for r in rules if r.kind in LAGGED and not masking.hides(r.column)]
    errors = {column: int(totals.get(column, {}).get("errors") or 0) for column in lagged}
    p99_lags = _p99_lags(kept, errors, compared)
    stats = []
    for rule in rules:
        found = totals.get(rule.column, dict.fromkeys(TOTALS))
        hidden = masking.hides(rule.column)
        measured = rule.kind in NUMERIC + TEMPORAL and not hidden
        relative_kind = rule.kind in NUMERIC and not hidden
        largest = float(found["max_error"] or 0.0)
        stats.append(
            ColumnStats(
                column_name=rule.column,
                values_compared=compared,
                out_of_tolerance=int(found["out"] or 0),
                within_tolerance=int(found["within"] or 0),
                null_on_one_side=int(found["null_on_one_side"] or 0),
                max_abs_error=largest if measured else None,
                mean_abs_error=_mean(found["sum_error"], compared) if measured else None,
                max_relative_error=float(found["max_relative"] or 0.0) if relative_kind else None,
                mean_relative_error=_mean(found["sum_relative"], compared)
                if relative_kind
                else None,
                max_lag_ms=largest if rule.column in lagged else None,
                p99_lag_ms=p99_lags.get(rule.column) if rule.column in lagged else None,
                coverage=coverage,
            )
        )
    return stats


def _mean(total: float | None, compared: int) -> float | None:
    return float(total or 0.0) / compared if compared else None


def _p99_lags(kept: DataFrame | None, errors: dict[str, int], compared: int) -> dict[str, float]:
    """Per column of ``errors`` (its count of lags), the smallest lag that at least 99% of the
    compared values stay within. The values not among the differences lag 0, so only a column
    where more than 1% lag needs its lags ranked: those are ranked in one job."""
    if not compared:
        return {}
    beyond = compared // 100  # how many may lag more
    ranked = [column for column, count in errors.items() if count > beyond]
    lags = dict.fromkeys(errors, 0.0)
    if not ranked or kept is None:
        return lags
    cells = _value_cells(kept).where(F.col("column_name").isin(ranked))
    by_lag = Window.partitionBy("column_name").orderBy(F.desc("lag"))
    found = (
        cells.select("column_name", F.abs(F.col("delta").cast("double")).alias("lag"))
        .where("lag is not null")
        .withColumn("rank", F.row_number().over(by_lag))
        .where(F.col("rank") == beyond + 1)
        .collect()
    )
    return lags | {row["column_name"]: float(row["lag"]) for row in found}
