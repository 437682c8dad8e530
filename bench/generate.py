"""A deterministic N-row pair with d planted differences and k duplicated keys, written as
Parquet tables."""

from __future__ import annotations

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

COLUMNS = """
    id,
    cast(pmod(id * 7919, 50000) as int) as customer_id,
    element_at(array('placed', 'paid', 'shipped'), cast(1 + pmod(id, 3) as int)) as status,
    cast(pmod(id * 104729, 10000000) / 100 as decimal(12, 2)) as amount,
    cast(pmod(id * 31, 1000) as double) / 997 as discount,
    timestamp_micros(1704067200000000 + pmod(id * 7907, 31536000) * 1000000 + pmod(id, 9973))
        as ordered_at,
    case when pmod(id, 11) = 0 then null else concat('order ', id) end as note
"""


def planted_ids(rows: int, differences: int, duplicated: int = 0) -> dict[str, list[int]]:
    """Evenly spread ids: a quarter deleted, a quarter added past the end, half changed; and
    ``duplicated`` other ids whose row the target holds twice."""
    stride = max(rows // max(differences, 1), 1)
    spread = [1 + i * stride for i in range(differences)]
    quarter = differences // 4
    return {
        "deleted": spread[:quarter],
        "added": [rows + 1 + i for i in range(quarter)],
        "changed": spread[quarter : differences - quarter],
        "duplicated": [2 + i * max(rows // max(duplicated, 1), 1) for i in range(duplicated)],
    }


def write_pair(
    spark: SparkSession, schema: str, rows: int, differences: int, duplicated: int = 0
) -> dict[str, list[int]]:
    planted = planted_ids(rows, differences, duplicated)
    if not spark.catalog.databaseExists(schema):  # Hive logs an error for "if not exists"
        spark.sql(f"create database {schema}")
    source = spark.range(1, rows + 1).selectExpr(*_columns())
    _save(source, f"{schema}.bench_source")
    changed = F.col("id").isin(planted["changed"])
    target = (
        spark.range(1, rows + 1 + len(planted["added"]))
        .where(~F.col("id").isin(planted["deleted"]))
        .selectExpr(*_columns())
        .withColumn("status", F.when(changed, F.upper("status")).otherwise(F.col("status")))
    )
    target = target.unionByName(target.where(F.col("id").isin(planted["duplicated"])))
    _save(target, f"{schema}.bench_target")
    return planted


def _columns() -> list[str]:
    return [" ".join(c.split()) for c in COLUMNS.strip().split(",\n")]


def _save(frame: DataFrame, table: str) -> None:
    frame.write.mode("overwrite").format("parquet").saveAsTable(table)
