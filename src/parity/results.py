"""From row differences to the published result: one row per pair, its differences nested.

Both algorithms hand their row differences to ``summarize`` as a DataFrame, so counts, drift and
the layout of each difference are computed by one piece of code, in one Spark action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

from parity.rowdiff import KINDS, VALUE_MISMATCH, RowDiff

TEXT_ARRAY = T.ArrayType(T.StringType())

ROW_DIFF_SCHEMA = T.StructType(
    [
        T.StructField("key", TEXT_ARRAY, False),
        T.StructField("kind", T.StringType(), False),
        T.StructField("source_values", TEXT_ARRAY, True),
        T.StructField("target_values", TEXT_ARRAY, True),
    ]
)

DIFFERENCE = T.StructType(
    [
        T.StructField("key", T.StringType(), True),  # NULL for a schema finding
        T.StructField("kind", T.StringType(), False),
        T.StructField("column_name", T.StringType(), True),
        T.StructField("source_value", T.StringType(), True),
        T.StructField("target_value", T.StringType(), True),
    ]
)

COUNTS = [f"{kind}_rows" for kind in KINDS]

RESULT_SCHEMA = T.StructType(
    [
        T.StructField("pair_name", T.StringType(), False),
        T.StructField("source_relation", T.StringType(), False),
        T.StructField("target_relation", T.StringType(), False),
        T.StructField("algorithm", T.StringType(), False),
        # NULL, as row_drift_pct, for a pair whose data was not compared (data_compared).
        T.StructField("source_rows", T.LongType(), True),
        T.StructField("target_rows", T.LongType(), True),
        *[T.StructField(name, T.LongType(), False) for name in COUNTS],
        T.StructField("mismatched_values", T.LongType(), False),
        T.StructField("differing_rows", T.LongType(), False),
        T.StructField("schema_findings", T.LongType(), False),
        T.StructField("row_drift_pct", T.DoubleType(), True),
        T.StructField("passed", T.BooleanType(), False),
        T.StructField("checksum_passes", T.LongType(), False),
        T.StructField("segments_checked", T.LongType(), False),
        T.StructField("rows_moved", T.LongType(), False),
        T.StructField("source_rows_moved", T.LongType(), False),
        T.StructField("target_rows_moved", T.LongType(), False),
        T.StructField("elapsed_seconds", T.DoubleType(), False),
        T.StructField("config_hash", T.StringType(), False),
        # Schema contracts and key constraints (README); key counts are NULL when no data was
        # compared.
        T.StructField("data_compared", T.BooleanType(), False),
        T.StructField("schema_compatible", T.BooleanType(), False),
        T.StructField("source_schema_hash", T.StringType(), False),
        T.StructField("target_schema_hash", T.StringType(), False),
        T.StructField("source_null_keys", T.LongType(), True),
        T.StructField("source_duplicate_keys", T.LongType(), True),
        T.StructField("target_null_keys", T.LongType(), True),
        T.StructField("target_duplicate_keys", T.LongType(), True),
        T.StructField("keys_flagged", T.BooleanType(), False),
        T.StructField("differences", T.ArrayType(DIFFERENCE, False), False),
    ]
)


@dataclass(frozen=True)
class Findings:
    counts: dict[str, int]
    mismatched_values: int
    differences: list[tuple[Any, ...]]

    @property
    def differing_rows(self) -> int:
        return sum(self.counts.values())


def row_diff_frame(spark: SparkSession, diffs: list[RowDiff]) -> DataFrame:
    return spark.createDataFrame(
        [(list(d.key), d.kind, _listed(d.source_values), _listed(d.target_values)) for d in diffs],
        ROW_DIFF_SCHEMA,
    )


def summarize(row_diffs: DataFrame, column_names: tuple[str, ...]) -> Findings:
    """Counts by kind and every difference, sorted, in one action over the row differences."""
    names = F.array(*[F.lit(n) for n in column_names]).cast("array<string>")
    cells = F.filter(
        F.transform(
            F.sequence(F.lit(0), F.lit(len(column_names) - 1))
            if column_names
            else F.array().cast("array<int>"),
            lambda i: F.struct(
                names[i].alias("column_name"),
                F.col("source_values")[i].alias("source_value"),
                F.col("target_values")[i].alias("target_value"),
            ),
        ),
        lambda cell: ~cell["source_value"].eqNullSafe(cell["target_value"]),
    )
    whole_row = F.struct(
        F.lit(None).cast("string").alias("column_name"),
        _as_json(names, "source_values").alias("source_value"),
        _as_json(names, "target_values").alias("target_value"),
    )
    key = F.when(F.size("key") == 1, F.col("key")[0]).otherwise(F.to_json("key"))
    per_row = row_diffs.select(
        "kind",
        F.when(F.col("kind") == VALUE_MISMATCH, cells).otherwise(F.array(whole_row)).alias("cells"),
        key.alias("key"),
    )
    as_differences = F.transform(
        "cells",
        lambda cell: F.struct(
            F.col("key").alias("key"),
            F.col("kind").alias("kind"),
            cell["column_name"].alias("column_name"),
            cell["source_value"].alias("source_value"),
            cell["target_value"].alias("target_value"),
        ),
    )
    result = per_row.agg(
        *[F.count_if(F.col("kind") == k).alias(k) for k in KINDS],
        F.sum(F.when(F.col("kind") == VALUE_MISMATCH, F.size("cells")).otherwise(0)).alias(
            "mismatched_values"
        ),
        F.array_sort(F.flatten(F.collect_list(as_differences))).alias("differences"),
    ).first()
    return Findings(
        counts={f"{k}_rows": int(result[k]) for k in KINDS},
        mismatched_values=int(result["mismatched_values"] or 0),
        differences=[tuple(d) for d in result["differences"]],
    )


def _as_json(names: Any, values: str) -> Any:
    return F.when(F.col(values).isNotNull(), F.to_json(F.map_from_arrays(names, F.col(values))))


def _listed(values: tuple[str | None, ...] | None) -> list[str | None] | None:
    return None if values is None else list(values)
