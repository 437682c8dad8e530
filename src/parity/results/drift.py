"""Per-column drift telemetry of one pair and run, from its differences.

A value that does not appear among the differences is equal on both sides, so its error is 0:
means and the 99th percentile are taken over every compared value, with the differences as the
only non-zero errors. Compared values are the rows present on both sides.
"""

from __future__ import annotations

from dataclasses import dataclass

from parity.results.summary import Difference
from parity.values.column_rule import ColumnRule
from parity.values.masking import Masking
from parity.values.rows import VALUE_MISMATCH, WITHIN_TOLERANCE


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


def column_stats(
    differences: list[Difference],
    column_names: tuple[str, ...],
    rules: tuple[ColumnRule, ...],
    compared: int,
    coverage: str,
    masking: Masking,
) -> list[ColumnStats]:
    """One row per compared column. Only the differences of a single column count here. A
    sensitive column gets counts only: its errors and lags would tell how far its values
    moved."""
    by_column: dict[str, list[Difference]] = {name: [] for name in column_names}
    for found in differences:
        if found.kind in (VALUE_MISMATCH, WITHIN_TOLERANCE) and found.column_name in by_column:
            by_column[found.column_name].append(found)
    return [
        _stats(name, rule, by_column[name], compared, coverage, masking.hides(name))
        for name, rule in zip(column_names, rules, strict=True)
    ]


def _stats(
    name: str,
    rule: ColumnRule,
    found: list[Difference],
    compared: int,
    coverage: str,
    hidden: bool,
) -> ColumnStats:
    errors = [abs(float(d.delta)) for d in found if d.delta is not None]
    relatives = [d.relative_error for d in found if d.relative_error is not None]
    measured = rule.kind in NUMERIC + TEMPORAL and not hidden
    lagged = rule.kind in ("timestamp", "timestamp_ntz") and not hidden
    relative_kind = rule.kind in NUMERIC and not hidden
    return ColumnStats(
        column_name=name,
        values_compared=compared,
        out_of_tolerance=sum(d.kind == VALUE_MISMATCH for d in found),
        within_tolerance=sum(d.kind == WITHIN_TOLERANCE for d in found),
        null_on_one_side=sum((d.source_value is None) != (d.target_value is None) for d in found),
        max_abs_error=_largest(errors) if measured else None,
        mean_abs_error=_mean(errors, compared) if measured else None,
        max_relative_error=_largest(relatives) if relative_kind else None,
        mean_relative_error=_mean(relatives, compared) if relative_kind else None,
        max_lag_ms=_largest(errors) if lagged else None,
        p99_lag_ms=_p99(errors, compared) if lagged else None,
        coverage=coverage,
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
