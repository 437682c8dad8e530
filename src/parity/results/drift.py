"""Per-column drift telemetry of one pair and run, from its differences.

A value that does not appear among the differences is equal on both sides, so its error is 0:
means and the 99th percentile are taken over every compared value, with the differences as the
only non-zero errors. Compared values are the rows present on both sides.
"""

from __future__ import annotations

from typing import Any

from pyspark.sql import types as T

from parity.values.column_rule import ColumnRule
from parity.values.masking import Masking
from parity.values.rows import VALUE_MISMATCH, WITHIN_TOLERANCE

COLUMN_STATS = T.StructType(
    [
        T.StructField("column_name", T.StringType(), False),
        T.StructField("values_compared", T.LongType(), False),
        T.StructField("out_of_tolerance", T.LongType(), False),
        T.StructField("within_tolerance", T.LongType(), False),
        T.StructField("null_on_one_side", T.LongType(), False),
        T.StructField("max_abs_error", T.DoubleType(), True),
        T.StructField("mean_abs_error", T.DoubleType(), True),
        T.StructField("max_relative_error", T.DoubleType(), True),
        T.StructField("mean_relative_error", T.DoubleType(), True),
        T.StructField("max_lag_ms", T.DoubleType(), True),
        T.StructField("p99_lag_ms", T.DoubleType(), True),
        T.StructField("coverage", T.StringType(), False),
    ]
)

NUMERIC = ("integer", "decimal", "float")
TEMPORAL = ("timestamp", "timestamp_ntz", "date")


def column_stats(
    differences: list[tuple[Any, ...]],
    column_names: tuple[str, ...],
    rules: tuple[ColumnRule, ...],
    compared: int,
    coverage: str,
    masking: Masking,
) -> list[tuple[Any, ...]]:
    """One row per compared column, in COLUMN_STATS' layout. ``differences`` are the pair's
    differences (presentation.DIFFERENCE); only those of a single column count here. A sensitive
    column gets counts only: its errors and lags would tell how far its values moved."""
    by_column: dict[str, list[tuple[Any, ...]]] = {name: [] for name in column_names}
    for _key, kind, column, source, target, delta, relative in differences:
        if kind in (VALUE_MISMATCH, WITHIN_TOLERANCE) and column in by_column:
            by_column[column].append((kind, source, target, delta, relative))
    return [
        _stats(name, rule, by_column[name], compared, coverage, masking.hides(name))
        for name, rule in zip(column_names, rules, strict=True)
    ]


def _stats(
    name: str,
    rule: ColumnRule,
    found: list[tuple[Any, ...]],
    compared: int,
    coverage: str,
    hidden: bool,
) -> tuple[Any, ...]:
    """``found``: (kind, source value, target value, delta, relative error) per difference."""
    errors = [abs(float(delta)) for *_, delta, _ in found if delta is not None]
    relatives = [relative for *_, relative in found if relative is not None]
    measured = rule.kind in NUMERIC + TEMPORAL and not hidden
    lagged = rule.kind in ("timestamp", "timestamp_ntz") and not hidden
    relative_kind = rule.kind in NUMERIC and not hidden
    return (
        name,
        compared,
        sum(kind == VALUE_MISMATCH for kind, *_ in found),
        sum(kind == WITHIN_TOLERANCE for kind, *_ in found),
        sum((source is None) != (target is None) for _, source, target, *_ in found),
        _largest(errors) if measured else None,
        _mean(errors, compared) if measured else None,
        _largest(relatives) if relative_kind else None,
        _mean(relatives, compared) if relative_kind else None,
        _largest(errors) if lagged else None,
        _p99(errors, compared) if lagged else None,
        coverage,
    )


def _largest(values: list[float]) -> float:
    return max(values, default=0.0)


def _mean(values: list[float], compared: int) -> float | None:
    return sum(values) / compared if compared else None


def _p99(values: list[float], compared: int) -> float | None:
    """The smallest lag that at least 99% of the compared values stay within; the values not
    listed lag 0."""
    if not compared:
        return None
    beyond = compared // 100  # how many may lag more
    ranked = sorted(values, reverse=True)
    return ranked[beyond] if beyond < len(ranked) else 0.0
