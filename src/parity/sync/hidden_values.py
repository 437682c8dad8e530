"""The values a pair never publishes (its `sensitive_columns`), read for an apply from the right
side by key, as canonical text: they go from the engine that holds them into the corrected
relation, and nowhere else (no table, no log, no error)."""

from __future__ import annotations

import json
from typing import Any

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

from parity.plan import PairPlan, SidePlan
from parity.sides.connections import connect
from parity.sync.decisions import key_text_sql
from parity.sync.typed_values import typed_value

KEY = "__parity_key"
# A bound parameter in each engine's SQL as its reading session takes it (sides/connections.py).
MARKS = {"mysql": "@__parity_{n}", "postgres": "${n}", "duckdb": "${n}"}


def right_rows(
    spark: SparkSession, pair: PairPlan, right: SidePlan, keys: list[str]
) -> dict[str, list[dict[str, str | None]]]:
    """Each key's rows on the right side: canonical text of every compared column, by source
    name."""
    if right.in_session:
        return _spark_rows(spark, pair, right, keys)
    return _engine_rows(pair, right, keys)


def _spark_rows(
    spark: SparkSession, pair: PairPlan, right: SidePlan, keys: list[str]
) -> dict[str, list[dict[str, str | None]]]:
    count = len(right.key_names)
    canonical = right.canonical_columns
    key_sql = key_text_sql(right)
    values = ", ".join(f"{sql} as `__parity_{i}`" for i, sql in enumerate(canonical[count:]))
    frame = spark.sql(
        f"select {key_sql} as {KEY}, {values} from {right.relation_name} as __parity_relation"
    )
    wanted = F.broadcast(spark.createDataFrame([(k,) for k in keys], f"{KEY} string"))
    found: dict[str, list[dict[str, str | None]]] = {}
    for row in frame.join(wanted, KEY).collect():
        texts = {name: row[f"__parity_{i}"] for i, name in enumerate(pair.source.column_names)}
        found.setdefault(row[KEY], []).append(texts)
    return found


def _engine_rows(
    pair: PairPlan, right: SidePlan, keys: list[str]
) -> dict[str, list[dict[str, str | None]]]:
    """Through a reading session of the right side's own, a query per key."""
    count = len(right.key_names)
    mark = MARKS[right.dialect]
    quote = "`" if right.dialect == "mysql" else '"'
    matches = " and ".join(
        f"{quote}{name.replace(quote, quote * 2)}{quote} = {mark.format(n=n)}"
        for n, name in enumerate(right.key_names, start=1)
    )
    sql = (
        f"select {', '.join(right.canonical_columns[count:])}"
        f" from {right.relation_name} as __parity_relation where {matches}"
    )
    session = connect(
        right.dialect,
        right.connection_env,
        pair.name,
        f"{right.side} relation {right.relation_name}",
        right.statement_timeout_seconds,
        right.allowed_paths,
    )
    found: dict[str, list[dict[str, str | None]]] = {}
    try:
        for key in keys:
            texts = json.loads(key) if count > 1 else [key]
            typed = [typed_value(p, t) for p, t in zip(right.column_profiles, texts, strict=False)]
            for row in session.query(sql, typed):
                found.setdefault(key, []).append(
                    dict(zip(pair.source.column_names, row, strict=True))
                )
    finally:
        session.close()
    return found


def with_hidden_values(
    correction: dict[str, Any], rows: list[dict[str, str | None]]
) -> dict[str, Any] | None:
    """The correction with its hidden values among its new values, taken from the right side's
    row of its key that holds its other new values; None when no such row is there now, or rows
    that disagree on them."""
    new = json.loads(correction["new_values"]) if correction["new_values"] else {}
    hidden = correction["values_at_apply"]
    held = {
        tuple(row[name] for name in hidden)
        for row in rows
        if all(row[name] == text for name, text in new.items())
    }
    if len(held) != 1:
        return None
    (values,) = held
    return {
        **correction,
        "new_values": json.dumps({**new, **dict(zip(hidden, values, strict=True))}),
        "values_at_apply": [],
    }
