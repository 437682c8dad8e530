"""The result of one pair, by name: one row of parity_pair_results, whose Spark schema is derived
from these fields, in their order, nested records included (spark_schema.py). A pair is either
compared (its counts and verdict filled) or not (``data_compared`` false: sizes, drift and key
counts NULL), and its ``status`` says whether that comparison ran to its end: a pair with
segments no query could compare is ``incomplete``, one that failed on its own an ``error``,
each with its reason and never passed, while the other pairs publish. The
differences found in its data stay in Spark (``found``): results_frame writes them as rows of
their own, after the pairs' rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from parity.results.drift import ColumnStats
from parity.results.examples import ColumnExamples
from parity.results.patterns import ColumnPattern
from parity.results.presentation import PublishedDifference
from parity.results.spark_schema import IN_SPARK, row_of, schema_of
from parity.values.dead_letter import DeadLetter


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
    # How the two figures above were counted (judgement.within_tolerance_counted): `exact`
    # (every differing value within tolerance among those compared) or `seen` (only those seen
    # while locating the differences beyond tolerance); NULL when no data was compared.
    within_tolerance_counted: str | None
    differing_rows: int
    schema_findings: int
    row_drift_pct: float | None
    passed: bool
    halted: bool
    checksum_passes: int
    segments_checked: int
    # Differing segments found unchanged since the last result: its differences reused.
    segments_reused: int
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
    # `complete` (compared as configured, or not compared for its schema), `incomplete` (some
    # segments could not be compared by any query: dead_letters) or `error` (the pair could not
    # be planned or reconciled: nothing of its data is known), and why it is not complete (""
    # when it is).
    status: str
    status_reason: str
    # As planned, kept with the run's results so they are published with them (JSON).
    source_schema_snapshot: str
    target_schema_snapshot: str
    schema_diff: str
    compatibility: str
    column_stats: list[ColumnStats]
    # The columns whose differences follow one pattern on nearly every compared row
    # (patterns.py): a list of its own, so that column_stats keeps the type the history has.
    column_patterns: list[ColumnPattern]
    # How many values within tolerance per column its differences list at most (the pair's
    # within_tolerance_examples; None: every one), and how many each column lists
    # (examples.py): the rest are in column_stats' counts only.
    within_tolerance_examples: int | None
    column_examples: list[ColumnExamples]
    # Its schema findings (the differences found in its data are rows of their own).
    differences: list[PublishedDifference]
    # The segments no query could compare, with their key ranges and errors: the pair is
    # incomplete, never passed, and the next run compares it again.
    dead_letters: list[DeadLetter]
    # What this run did with the pair (pipelines/incremental.py): `compared`, or `unchanged`
    # (its last result stands: this row only points at the run that computed it, and is no
    # result of its own), and why; the run whose result is published for the pair.
    run_mode: str = "compared"
    run_mode_reason: str = ""
    computed_run_id: str = ""
    # The state the next run decides by: each side's input fingerprint ("kind:digest", "" when
    # it has none), its whole-table checksum and key counts as hashdiff's first pass read them
    # (incremental.checksum_text; "" when no first pass had checksums), the differing cells of
    # its first segment pass (algorithms.segment_state; "" when none are kept), and the hash of the
    # result's state (incremental.state_hash).
    source_fingerprint: str = ""
    target_fingerprint: str = ""
    source_checksum: str = ""
    target_checksum: str = ""
    segment_checksums: str = ""
    state_hash: str = ""
    # The data's published differences (presentation.present), in Spark; None when none.
    found: DataFrame | None = field(default=None, compare=False, metadata=IN_SPARK)

    def as_row(self) -> tuple[Any, ...]:
        return row_of(self)


RESULT_SCHEMA = schema_of(PairResult)
# The column of parity_pair_results holding one difference of a pair's data, on rows of its own.
DIFFERENCE = "difference"
DIFFERENCE_TYPE = schema_of(PublishedDifference)
# The columns of parity_pair_results (results_frame), in order.
RESULTS_COLUMNS = (*RESULT_SCHEMA.names, DIFFERENCE)


def results_frame(spark: SparkSession, results: list[PairResult]) -> DataFrame:
    """The rows of parity_pair_results: one per pair (``difference`` NULL), then one per
    difference found in a pair's data (only ``run_id``, ``pair_name`` and ``difference`` set),
    straight from Spark: a pair's differences are never gathered into one row, so however many
    there are, no task holds more than its share."""
    pairs = spark.createDataFrame([result.as_row() for result in results], RESULT_SCHEMA)
    pairs = pairs.withColumn(DIFFERENCE, F.lit(None).cast(DIFFERENCE_TYPE))
    found = [
        r.found.select(
            F.lit(r.run_id).alias("run_id"),
            F.lit(r.pair_name).alias("pair_name"),
            F.struct(*DIFFERENCE_TYPE.names).cast(DIFFERENCE_TYPE).alias(DIFFERENCE),
        )
        for r in results
        if r.found is not None
    ]
    # The union sets the columns a difference leaves out to NULL: a few calls to Spark per pair,
    # not one per column.
    return reduce(
        lambda all_rows, rows: all_rows.unionByName(rows, allowMissingColumns=True), found, pairs
    )
