"""Both sides of a pair, opened for its comparison and closed after it, whatever happens: a side
in the Spark session when the plan reads it there, else a side in its own engine, which retries
a query as the pair's `retries` and `retry_seconds` allow."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from pyspark.sql import SparkSession

from parity.plan import PairPlan, SidePlan
from parity.sides.backoff import Backoff
from parity.sides.side import Side
from parity.sides.spark import SparkSide
from parity.sides.sql import SqlSide


@contextmanager
def opened_sides(spark: SparkSession, pair: PairPlan) -> Iterator[tuple[Side, Side]]:
    backoff = Backoff(pair.retries, pair.retry_seconds)
    with ExitStack() as stack:
        source, target = (
            stack.enter_context(_side(spark, pair.name, plan, backoff))
            for plan in (pair.source, pair.target)
        )
        yield source, target


def _side(
    spark: SparkSession, pair_name: str, plan: SidePlan, backoff: Backoff
) -> SparkSide | SqlSide:
    if plan.in_session:
        return SparkSide(spark, pair_name, plan)
    return SqlSide(spark, pair_name, plan, backoff)
