"""Both sides of a pair, opened for its comparison and closed after it, whatever happens: a side
in the Spark session when the plan reads it there, else a side in its own engine."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from pyspark.sql import SparkSession

from parity.plan import PairPlan, SidePlan
from parity.sides.side import Side
from parity.sides.spark import SparkSide
from parity.sides.sql import SqlSide


@contextmanager
def opened_sides(spark: SparkSession, pair: PairPlan) -> Iterator[tuple[Side, Side]]:
    with ExitStack() as stack:
        source, target = (
            stack.enter_context(_side(spark, pair.name, plan))
            for plan in (pair.source, pair.target)
        )
        yield source, target


def _side(spark: SparkSession, pair_name: str, plan: SidePlan) -> SparkSide | SqlSide:
    return SparkSide(spark, pair_name, plan) if plan.in_session else SqlSide(spark, pair_name, plan)
