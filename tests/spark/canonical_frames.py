"""Sides built straight from canonical rows, for testing the algorithms without dbt."""

from __future__ import annotations

import itertools

from pyspark.sql import SparkSession

from parity.reference import row_hash
from parity.sides.spark import SparkSide
from parity.values.rows import Row
from tests.plan_factory import side_plan

_views = itertools.count()


def spark_side(
    spark: SparkSession, side: str, rows: list[Row], columns: int, hashed: bool = False
) -> SparkSide:
    """A SparkSide over ``rows`` whose first key is an integer (as text), hashed by reference, and
    natively for joindiff; ``hashed``: positioned by its key's hash, as a key that is not an
    integer is, so cells never reach one unit."""
    names = ["__parity_k0"] + [f"__parity_c{i}" for i in range(columns)]
    schema = ", ".join(
        ["__parity_pos bigint", *[f"{n} string" for n in names], "__parity_hash bigint"]
    )
    data = [
        (
            None if key[0] is None else row_hash(list(key)) if hashed else int(key[0]),
            *key,
            *values,
            row_hash([*key, *values]),
        )
        for key, values in rows
    ]
    view = f"canonical_{side}_{next(_views)}"
    spark.createDataFrame(data, schema).createOrReplaceTempView(view)
    values = names[1:]
    mask = " + ".join(
        f"(case when {v} is null then {2**i} else 0 end)" for i, v in enumerate(values)
    )
    plan = side_plan(
        side=side,
        relation_name=view,
        canonical_sql=f"select * from {view}",
        # As macros/plan/native_select.sql renders it: NULLs masked, then the values hashed.
        # The key is its own position, so the first pass can sum by cell (cell_hashes.py).
        native_sql=f"select __parity_pos, __parity_k0, xxhash64({mask}, {', '.join(values)})"
        f" as __parity_native from {view}",
        checksum_sql="sum(cast(__parity_hash as decimal(38, 0)))",
        key_names=("id",),
        column_names=tuple(f"col_{i}" for i in range(columns)),
        key_columns=tuple(names[:1]),
        value_columns=tuple(names[1:]),
        position_column="__parity_pos",
        key_is_position=not hashed,
        native_hash_column="__parity_native",
    )
    return SparkSide(spark, "test_pair", plan)
