"""A directory of the legacy orders' Parquet files holding one file that is not Parquet, and the
dbt source that declares it (`damaged.orders`), as a user would."""

from __future__ import annotations

from pathlib import Path

from pyspark.sql import SparkSession

CORRUPT_FILE = "part-99999.parquet"


def damaged_orders(spark: SparkSession, table: str, folder: Path) -> dict:
    """Writes ``table`` to ``folder`` with a file that is not Parquet beside its own; returns the
    source declaring it."""
    spark.table(table).write.parquet(str(folder))
    (folder / CORRUPT_FILE).write_bytes(b"not parquet at all" * 64)
    return {
        "name": "damaged",
        "meta": {"parity": {"format": "parquet"}},
        "tables": [{"name": "orders", "meta": {"parity": {"path": str(folder)}}}],
    }
