"""What a user could run instead of parity on two Spark tables, timed beside it: a plain scan
reading every compared column, and the plain PySpark diff (a full outer join on the key with
null-safe equality on every column, collecting the differing rows)."""

from __future__ import annotations

from functools import reduce

from pyspark.sql import SparkSession
from pyspark.sql import functions as F


def plain_scan(spark: SparkSession, tables: tuple[str, str], columns: list[str]) -> None:
    """Reads every compared column of both tables once: a count of each column's values (Spark
    answers none of them from Parquet's statistics, so each column is read)."""
    for table in tables:
        spark.table(table).agg(*[F.count(c) for c in columns]).collect()


def plain_join(
    spark: SparkSession, tables: tuple[str, str], keys: list[str], columns: list[str]
) -> int:
    """The differing rows of the two tables, collected to the driver; returns how many."""
    source, target = spark.table(tables[0]).alias("s"), spark.table(tables[1]).alias("t")

    def every(names: list[str], equal) -> object:
        return reduce(lambda a, b: a & b, [equal(F.col(f"s.{c}"), F.col(f"t.{c}")) for c in names])

    same = every([*keys, *columns], lambda s, t: s.eqNullSafe(t))
    joined = source.join(target, every(keys, lambda s, t: s == t), "full_outer")
    return len(joined.where(~same).collect())
