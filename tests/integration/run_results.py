"""What the published run holds, read back by pair: the summary row of each pair
(parity_summary), and its differences (parity_differences)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pyspark.sql import Row, SparkSession


def by_pair(
    spark: SparkSession,
    schema: str,
    shape: Callable[[Row], Any] = Row.asDict,
    into: Callable[[Iterable[Any]], Any] = list,
) -> tuple[dict[str, Row], dict[str, Any]]:
    """Each pair's summary row, and its differences, by pair name. Each difference is shaped by
    ``shape`` (its row as a dict, by default) and a pair's are gathered by ``into`` (a list, a set,
    a Counter); a pair with no difference has no entry."""
    summaries = {r["pair_name"]: r for r in spark.table(f"{schema}.parity_summary").collect()}
    rows: dict[str, list[Any]] = {}
    for row in spark.table(f"{schema}.parity_differences").collect():
        rows.setdefault(row["pair_name"], []).append(shape(row))
    return summaries, {pair: into(found) for pair, found in rows.items()}


def finding(row: Row) -> tuple[str | None, str, str | None]:
    """A difference as what it says: its key, its kind and the column it names."""
    return row["key"], row["kind"], row["column_name"]
