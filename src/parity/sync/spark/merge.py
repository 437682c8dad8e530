"""Corrections written to a Delta or Iceberg table by one MERGE INTO, the table format's own
transaction. Each corrected key's rows are replaced by the rows the apply decided it should hold
(decisions.py, as for a rewritten table), staged in a temporary view, never pasted as values,
and only where the key still holds exactly the rows the apply read: the MERGE computes each
key's state (its rows' canonical text) afresh and compares it with the state read, so a key
changed since is left whole, as it is."""

from __future__ import annotations

import uuid
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import types as T

from parity.plan import SidePlan
from parity.sync.decisions import key_text_sql
from parity.values.spark_literals import identifier

# Table formats whose tables Spark changes in place, transactionally.
MERGED_FORMATS = ("delta", "iceberg")
KEY, STATE, ROLE = "__parity_key", "__parity_state", "__parity_role"
# A staged row: the key whose rows are replaced (matched and deleted), or a row it holds after.
REPLACED, WRITTEN = "replaced", "written"


def key_state_sql(corrected: SidePlan, window: str = "") -> str:
    """An aggregate over a key's rows (``window``: `over (...)` to compute it beside each row):
    their canonical text, sorted, hashed. Equal states are the same rows (as a multiset), as the
    comparison reads them."""
    rows = f"collect_list(to_json(array({', '.join(corrected.canonical_columns)})))"
    if window:
        rows = f"{rows} {window}"
    return f"sha2(to_json(array_sort({rows})), 256)"


def source_sql(table: str, corrected: SidePlan, staged: str) -> str:
    """The MERGE's source: the view ``staged`` (role, key, state read, then the table's columns
    as __parity_v0...), each row with its key's state in ``table`` now."""
    key = key_text_sql(corrected)
    return f"""select
    __parity_read.*,
    __parity_now.__parity_state_now
from {staged} as __parity_read
left join (
    select
        {key} as {KEY},
        {key_state_sql(corrected)} as __parity_state_now
    from {table}
    where {key} in (select {KEY} from {staged})
    group by {key}
) as __parity_now on __parity_read.{KEY} = __parity_now.{KEY}"""


def merge_sql(table: str, corrected: SidePlan, names: list[str], staged: str) -> str:
    """The MERGE of the view ``staged`` into ``table``: a key's rows deleted and its staged rows
    inserted where its state now is its state read."""
    values = ", ".join(f"__parity_staged.__parity_v{i}" for i in range(len(names)))
    unchanged = "__parity_staged.__parity_state_now <=> __parity_staged.__parity_state"
    source = source_sql(table, corrected, staged).replace("\n", "\n    ")
    return f"""merge into {table} as __parity_target
using (
    {source}
) as __parity_staged
on {key_text_sql(corrected)} = __parity_staged.{KEY} and __parity_staged.{ROLE} = '{REPLACED}'
when matched and {unchanged} then delete
when not matched and __parity_staged.{ROLE} = '{WRITTEN}' and {unchanged} then
    insert ({", ".join(identifier(n) for n in names)})
    values ({values})
"""


def staged_rows(
    spark: SparkSession,
    schema: T.StructType,
    states: dict[str, str | None],
    rows: dict[str, list[dict[str, Any]]],
) -> DataFrame:
    """What the MERGE replaces: each key of ``rows`` with its state read (None: the key had no
    row), and the rows it holds after, in the table's types."""
    names = schema.fieldNames()
    staged_schema = T.StructType(
        [T.StructField(ROLE, T.StringType()), T.StructField(KEY, T.StringType())]
        + [T.StructField(STATE, T.StringType())]
        + [T.StructField(f"__parity_v{i}", f.dataType) for i, f in enumerate(schema.fields)]
    )
    staged = []
    for key, held in rows.items():
        staged.append((REPLACED, key, states.get(key), *([None] * len(names))))
        staged.extend((WRITTEN, key, states.get(key), *(r.get(n) for n in names)) for r in held)
    return spark.createDataFrame(staged, staged_schema)


def merge(
    spark: SparkSession,
    table: str,
    corrected: SidePlan,
    schema: T.StructType,
    states: dict[str, str | None],
    rows: dict[str, list[dict[str, Any]]],
) -> None:
    """Replaces each key of ``rows`` by its rows there, where it holds its state of ``states``."""
    view = f"__parity_merge_{uuid.uuid4().hex}"
    staged_rows(spark, schema, states, rows).createOrReplaceTempView(view)
    try:
        spark.sql(merge_sql(table, corrected, schema.fieldNames(), view))
    finally:
        spark.catalog.dropTempView(view)
