"""A deterministic N-row pair with d planted differences and k duplicated keys, written as
Parquet tables, its key in one of several shapes (KEY_SHAPES)."""

from __future__ import annotations

from dataclasses import dataclass

from pyspark.sql import Column, DataFrame, SparkSession
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


# The key of a generated pair, made from its sequence `id` once both tables are planted, so every
# shape holds the same rows and differences: (its key columns, the select that makes them).
KEY_SHAPES: dict[str, tuple[list[str], list[str]]] = {
    "uniform": (["id"], []),
    # Consecutive rows a billion keys apart.
    "gaps": (["id"], ["id * 1000000007 as id"]),
    # A compound key whose first column holds three values.
    "compound": (["shard", "id"], ["cast(pmod(id, 3) as int) as shard"]),
    # Text keys sharing a 42-character prefix.
    "prefix": (
        ["order_key"],
        ["concat('tenant-00042/region-eu-west-1/orders/2024/', lpad(id, 12, '0')) as order_key"],
    ),
    # The first 10,000 rows all under key 1, on both sides (planted differences delete id 1).
    "copies": (["id"], ["case when id <= 10000 then 1 else id end as id"]),
    # A fact table's width and key, as TPC-H's lineitem: an order key and a line number (1 to 4)
    # made from `id` (kept, as lineitem's part key), and 7 more columns of decimals, dates and
    # text: 16 in all.
    "lineitem": (
        ["orderkey", "linenumber"],
        [
            "(id - 1) div 4 + 1 as orderkey",
            "cast(pmod(id - 1, 4) + 1 as int) as linenumber",
            "cast(pmod(id * 13, 50) + 1 as decimal(15, 2)) as quantity",
            "cast(pmod(id * 7919, 9000000) / 100 + 900 as decimal(15, 2)) as extendedprice",
            "date_add(date'1992-01-02', cast(pmod(id * 17, 2400) as int)) as shipdate",
            "date_add(date'1992-01-31', cast(pmod(id * 17, 2400) as int)) as commitdate",
            "date_add(date'1992-01-05', cast(pmod(id * 23, 2430) as int)) as receiptdate",
            "element_at(array('DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'),"
            " cast(1 + pmod(id, 4) as int)) as shipinstruct",
            "element_at(array('AIR', 'MAIL', 'SHIP', 'TRUCK', 'RAIL', 'FOB', 'REG AIR'),"
            " cast(1 + pmod(id * 3, 7) as int)) as shipmode",
        ],
    ),
}


@dataclass(frozen=True)
class Planted:
    """Evenly spread ids: of ``differences``, a quarter deleted, a quarter added past the end,
    half changed; and ``duplicated`` other ids whose row the target holds twice. Each set is a
    rule on the id, not a list, so a million differences cost what a hundred do."""

    rows: int
    differences: int
    duplicated: int

    @property
    def quarter(self) -> int:
        return self.differences // 4

    @property
    def count(self) -> int:
        return self.differences + self.duplicated

    def spread(self, first: int, last: int) -> Column:
        """The ids 1 + i * stride for first <= i < last."""
        stride = max(self.rows // max(self.differences, 1), 1)
        index = F.expr(f"(id - 1) div {stride}")
        return (F.expr(f"pmod(id - 1, {stride})") == 0) & (index >= first) & (index < last)

    def doubled(self) -> Column:
        stride = max(self.rows // max(self.duplicated, 1), 1)
        index = F.expr(f"(id - 2) div {stride}")
        return (
            (F.col("id") >= 2)
            & (F.expr(f"pmod(id - 2, {stride})") == 0)
            & (index < self.duplicated)
        )


def write_pair(
    spark: SparkSession,
    schema: str,
    rows: int,
    differences: int,
    duplicated: int = 0,
    key_shape: str = "uniform",
) -> Planted:
    planted = Planted(rows, differences, duplicated)
    if not spark.catalog.databaseExists(schema):  # Hive logs an error for "if not exists"
        spark.sql(f"create database {schema}")
    shaped = KEY_SHAPES[key_shape][1]
    source = spark.range(1, rows + 1).selectExpr(*_columns())
    _save(_keyed(source, shaped), f"{schema}.bench_source")
    changed = planted.spread(planted.quarter, differences - planted.quarter)
    target = (
        spark.range(1, rows + 1 + planted.quarter)
        .where(~planted.spread(0, planted.quarter))
        .selectExpr(*_columns())
        .withColumn("status", F.when(changed, F.upper("status")).otherwise(F.col("status")))
    )
    target = target.unionByName(target.where(planted.doubled()))
    _save(_keyed(target, shaped), f"{schema}.bench_target")
    return planted


def _keyed(frame: DataFrame, shaped: list[str]) -> DataFrame:
    """The frame with its key columns made by ``shaped`` in front, replacing `id` where one of
    them is named so."""
    keys = [F.expr(sql) for sql in shaped]
    replaced = {sql.rsplit(" as ", 1)[1] for sql in shaped}
    return frame.select(*keys, *[c for c in frame.columns if c not in replaced])


def _columns() -> list[str]:
    return [" ".join(c.split()) for c in COLUMNS.strip().split(",\n")]


def _save(frame: DataFrame, table: str) -> None:
    frame.write.mode("overwrite").format("parquet").saveAsTable(table)
