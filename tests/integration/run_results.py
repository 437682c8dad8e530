"""What the published run holds, read back by pair: the summary row of each pair
(parity_summary), and its differences (parity_differences)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pyspark.sql import Row, SparkSession

from parity.plan import PairPlan, pairs_from_rows


def by_pair(
    spark: SparkSession,
    schema: str,
    shape: Callable[[Row], Any] = Row.asDict,
    into: Callable[[Iterable[Any]], Any] = list,
) -> tuple[dict[str, Row], dict[str, Any]]:
    """Each pair's summary row, and its differences, by pair name. Each difference is shaped by
    ``shape`` (its row as a dict, by default) and a pair's are gathered by ``into`` (a list, a set,
    a Counter); a pair with no difference has no entry."""
    return shaped(
        spark.table(f"{schema}.parity_summary").collect(),
        spark.table(f"{schema}.parity_differences").collect(),
        shape,
        into,
    )


@dataclass(frozen=True)
class PublishedRun:
    """What one run published, read as it ended: many tests' pairs reconciled in one run (a run
    costs about the same whatever pairs it compares), each test reading its own pairs; a later
    run in the project replaces the tables, not this."""

    summaries: list[Row]
    differences: list[Row]
    plans: dict[str, PairPlan]
    schema_diff: list[Row]

    @classmethod
    def read(cls, spark: SparkSession, schema: str) -> PublishedRun:
        plans = pairs_from_rows(
            [r.asDict() for r in spark.table(f"{schema}.parity_plan").collect()]
        )
        return cls(
            spark.table(f"{schema}.parity_summary").collect(),
            spark.table(f"{schema}.parity_differences").collect(),
            {plan.name: plan for plan in plans},
            spark.table(f"{schema}.parity_schema_diff").collect(),
        )

    def of(
        self,
        pairs: Iterable[dict],
        shape: Callable[[Row], Any] = Row.asDict,
        into: Callable[[Iterable[Any]], Any] = list,
    ) -> tuple[dict[str, Row], dict[str, Any], dict[str, PairPlan]]:
        """The given pairs' summary rows and differences, as `by_pair` gives them (``shape``,
        ``into``), and their plans, by pair name."""
        names = {pair["name"] for pair in pairs}
        summaries, differences = shaped(
            (row for row in self.summaries if row["pair_name"] in names),
            (row for row in self.differences if row["pair_name"] in names),
            shape,
            into,
        )
        return summaries, differences, {n: p for n, p in self.plans.items() if n in names}


def shaped(
    summary_rows: Iterable[Row],
    difference_rows: Iterable[Row],
    shape: Callable[[Row], Any] = Row.asDict,
    into: Callable[[Iterable[Any]], Any] = list,
) -> tuple[dict[str, Row], dict[str, Any]]:
    """`by_pair` of rows already read: of a run whose tables later runs replace."""
    summaries = {r["pair_name"]: r for r in summary_rows}
    rows: dict[str, list[Any]] = {}
    for row in difference_rows:
        rows.setdefault(row["pair_name"], []).append(shape(row))
    return summaries, {pair: into(found) for pair, found in rows.items()}


def finding(row: Row) -> tuple[str | None, str, str | None]:
    """A difference as what it says: its key, its kind and the column it names."""
    return row["key"], row["kind"], row["column_name"]


def planned_problem(spark: SparkSession, schema: str, pair_name: str) -> str:
    """Why the plan of the last run could not plan a pair, as the run's log says it
    ("parity pair 'p': ..."); fails when the pair was planned."""
    (row,) = spark.sql(
        f"select problem from {schema}.parity_plan where pair_name = '{pair_name}'"
    ).collect()
    assert row["problem"], f"pair {pair_name} was planned"
    return f"parity pair '{pair_name}': {row['problem']}"


def pair_error(spark: SparkSession, schema: str, pair_name: str) -> str:
    """Why a pair of the published run is an error, as the run's log says it ("parity pair 'p':
    ..."); fails when the pair is not an error, or has no result."""
    (row,) = spark.sql(
        f"select pair_name, status, status_reason, passed from {schema}.parity_summary"
        f" where pair_name = '{pair_name}'"
    ).collect()
    return error_of(row)


def error_of(summary: Row) -> str:
    """`pair_error` of a pair's summary row already read."""
    assert summary["status"] == "error" and not summary["passed"], summary
    return f"parity pair '{summary['pair_name']}': {summary['status_reason']}"
