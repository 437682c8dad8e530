"""The result of one pair, by name: one row of parity_pair_results, whose Spark schema is derived
from these fields, in their order, nested records included (spark_schema.py). A pair is either
compared (its counts and verdict filled) or not (``data_compared`` false: sizes, drift and key
counts NULL); a pair that fails on its own will be a third state with its reason, added here as
fields."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parity.results.drift import ColumnStats
from parity.results.presentation import PublishedDifference
from parity.results.spark_schema import row_of, schema_of


@dataclass(frozen=True)
class PairResult:
    # The run whose plan the result was computed from: the only run that may publish it.
    run_id: str
    pair_name: str
    source_relation: str
    target_relation: str
    algorithm: str
    # NULL, as row_drift_pct, for a pair whose data was not compared (data_compared).
    source_rows: int | None
    target_rows: int | None
    # Rows of each kind (values.rows.ROW_KINDS).
    missing_in_target_rows: int
    missing_in_source_rows: int
    value_mismatch_rows: int
    duplicate_in_source_rows: int
    duplicate_in_target_rows: int
    within_tolerance_rows: int
    mismatched_values: int
    within_tolerance_values: int
    differing_rows: int
    schema_findings: int
    row_drift_pct: float | None
    passed: bool
    halted: bool
    checksum_passes: int
    segments_checked: int
    rows_moved: int
    source_rows_moved: int
    target_rows_moved: int
    elapsed_seconds: float
    config_hash: str
    tolerance_hash: str
    filters: str
    # Schema contracts and key constraints (README); key counts are NULL when no data was
    # compared.
    data_compared: bool
    schema_compatible: bool
    source_schema_hash: str
    target_schema_hash: str
    source_null_keys: int | None
    source_duplicate_keys: int | None
    target_null_keys: int | None
    target_duplicate_keys: int | None
    keys_flagged: bool
    # As planned, kept with the run's results so they are published with them (JSON).
    source_schema_snapshot: str
    target_schema_snapshot: str
    schema_diff: str
    compatibility: str
    column_stats: list[ColumnStats]
    differences: list[PublishedDifference]

    def as_row(self) -> tuple[Any, ...]:
        return row_of(self)


RESULT_SCHEMA = schema_of(PairResult)
