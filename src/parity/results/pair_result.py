"""The result of one pair, by name: one row of parity_pair_results, whose Spark schema is derived
from these fields, in their order, nested records included (spark_schema.py). A pair is either
compared (its counts and verdict filled) or not (``data_compared`` false: sizes, drift and key
counts NULL); a pair that fails on its own will be a third state with its reason, added here as
fields. The differences found in its data stay in Spark (``found``): results_frame nests them
into the row beside its schema findings."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from parity.results.drift import ColumnStats
from parity.results.presentation import ORDER, PublishedDifference
from parity.results.spark_schema import IN_SPARK, row_of, schema_of


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
    # Its schema findings; the data's differences follow them in the published row.
    differences: list[PublishedDifference]
    # The data's published differences (presentation.present), in Spark; None when none.
    found: DataFrame | None = field(default=None, compare=False, metadata=IN_SPARK)

    def as_row(self) -> tuple[Any, ...]:
        return row_of(self)


RESULT_SCHEMA = schema_of(PairResult)
NESTED = "__parity_found"


def results_frame(spark: SparkSession, results: list[PairResult]) -> DataFrame:
    """The rows of parity_pair_results: each pair's differences found in its data, in ORDER,
    nested in Spark ahead of its schema findings."""
    rows = spark.createDataFrame([result.as_row() for result in results], RESULT_SCHEMA)
    found = [
        r.found.withColumn("pair_name", F.lit(r.pair_name)) for r in results if r.found is not None
    ]
    if not found:
        return rows
    published = [name for name in found[0].columns if name not in (ORDER, "pair_name")]
    nested = (
        reduce(DataFrame.unionByName, found)
        .groupBy("pair_name")
        .agg(
            F.array_sort(F.collect_list(F.struct(ORDER, F.struct(*published).alias("d")))).alias(
                NESTED
            )
        )
    )
    differences = F.concat(
        F.coalesce(F.transform(NESTED, lambda f: f["d"]), F.array()), F.col("differences")
    )
    return rows.join(nested, "pair_name", "left").select(
        *[
            differences.cast(RESULT_SCHEMA["differences"].dataType).alias(name)
            if name == "differences"
            else name
            for name in RESULT_SCHEMA.names
        ]
    )
