"""The result of one pair, by name: one row of parity_pair_results, whose Spark schema is derived
from these fields, in their order. A pair is either compared (its counts and verdict filled) or
not (``data_compared`` false: sizes, drift and key counts NULL); a pair that fails on its own
will be a third state with its reason, added here as fields."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from types import NoneType, UnionType
from typing import Any, get_args, get_type_hints

from pyspark.sql import types as T

from parity.results.drift import COLUMN_STATS
from parity.results.presentation import PUBLISHED_DIFFERENCE

# The Spark type of a field whose Python type does not say it (nested arrays).
SPARK_TYPE = "spark_type"
SCALARS = {str: T.StringType(), int: T.LongType(), float: T.DoubleType(), bool: T.BooleanType()}


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
    # Rows of COLUMN_STATS and of PUBLISHED_DIFFERENCE, in their layouts.
    column_stats: list[tuple[Any, ...]] = field(
        metadata={SPARK_TYPE: T.ArrayType(COLUMN_STATS, False)}
    )
    differences: list[tuple[Any, ...]] = field(
        metadata={SPARK_TYPE: T.ArrayType(PUBLISHED_DIFFERENCE, False)}
    )

    def as_row(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f.name) for f in fields(self))


def _spark_field(name: str, hint: Any, metadata: Any) -> T.StructField:
    if SPARK_TYPE in metadata:
        return T.StructField(name, metadata[SPARK_TYPE], False)
    if isinstance(hint, UnionType):
        (scalar,) = (arg for arg in get_args(hint) if arg is not NoneType)
        return T.StructField(name, SCALARS[scalar], True)
    return T.StructField(name, SCALARS[hint], False)


RESULT_SCHEMA = T.StructType(
    [
        _spark_field(f.name, get_type_hints(PairResult)[f.name], f.metadata)
        for f in fields(PairResult)
    ]
)
