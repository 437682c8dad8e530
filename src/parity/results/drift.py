"""Per-column drift telemetry of one pair and run, from its differences, summed in Spark.

A value that does not appear among the differences is equal on both sides, so its error is 0:
means and the 99th percentile are taken over every compared value, with the differences as the
only non-zero errors. Compared values are the rows present on both sides. The totals are
aggregates over the judged rows (``drift_totals``), taken in the job that judges them; only
they reach the driver.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyspark.sql import Column, DataFrame
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
TOTALS = ("out", "within", "null_on_one_side", "errors", "max_error", "sum_error")
TOTALS += ("max_relative", "sum_relative")


def column_cell(index: int) -> str:
    """The column holding a judged row's differing value of the index-th compared column."""
    return f"__parity_drift_{index}"


def drift_cells(column_names: tuple[str, ...]) -> list[Column]:
    """Per compared column, a value row's differing value of it (a cell of its ``cells``), NULL
    where the row has none: a value row's cells hold at most one per column."""
    return [
        F.when(F.col("is_value_row"), _cell_of(name)).alias(column_cell(index))
        for index, name in enumerate(column_names)
    ]


def _cell_of(name: str) -> Column:
    return F.element_at(F.filter("cells", lambda c: c["column_name"] == name), 1)


def drift_totals(column_names: tuple[str, ...]) -> list[Column]:
    """Aggregates over judged rows carrying ``drift_cells``: per column, its values out of and
    within tolerance, NULL on one side, and the count, largest and sum of their errors and
    relative errors."""
    totals = []
    for index in range(len(column_names)):
        cell = F.col(column_cell(index))
        error = F.abs(cell["delta"].cast("double"))
        found = {
            "out": F.count_if(cell.isNotNull() & ~cell["within"]),
            "within": F.count_if(cell["within"]),
            "null_on_one_side": F.count_if(
                cell["source_value"].isNull() != cell["target_value"].isNull()
            ),
            "errors": F.count(error),
            "max_error": F.max(error),
            "sum_error": F.sum(error),
            "max_relative": F.max(cell["relative_error"]),
            "sum_relative": F.sum(cell["relative_error"]),
        }
        totals += [found[name].alias(f"drift_{index}_{name}") for name in TOTALS]
    return totals


def column_stats(
    totals: dict[str, Any],
    kept: DataFrame | None,
    rules: tuple[ColumnRule, ...],
    compared: int,
    coverage: str,
    masking: Masking,
) -> list[ColumnStats]:
    """One row per compared column, from ``totals`` (drift_totals, by alias) and, for a
    percentile that needs them, the judged rows ``kept``. A sensitive column gets counts only:
    its errors and lags would tell how far its values moved."""
    stats = []
    for index, rule in enumerate(rules):
        found = {name: totals.get(f"drift_{index}_{name}") for name in TOTALS}
        hidden = masking.hides(rule.column)
        measured = rule.kind in NUMERIC + TEMPORAL and not hidden
        lagged = rule.kind in ("timestamp", "timestamp_ntz") and not hidden
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
                max_lag_ms=largest if lagged else None,
                p99_lag_ms=_p99(kept, index, int(found["errors"] or 0), compared)
                if lagged
                else None,
                coverage=coverage,
            )
        )
    return stats


def _mean(total: float | None, compared: int) -> float | None:
    return float(total or 0.0) / compared if compared else None


def _p99(kept: DataFrame | None, index: int, errors: int, compared: int) -> float | None:
    """The smallest lag that at least 99% of the compared values stay within; the values not
    among the differences lag 0, so only when more than 1% lag is a job needed to rank them."""
    if not compared:
        return None
    beyond = compared // 100  # how many may lag more
    if errors <= beyond or kept is None:
        return 0.0
    lags = kept.select(F.abs(F.col(column_cell(index))["delta"].cast("double")).alias("lag"))
    ranked = lags.where("lag is not null").orderBy(F.desc("lag")).offset(beyond).first()
    return float(ranked["lag"])
