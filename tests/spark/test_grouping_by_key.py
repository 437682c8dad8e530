"""A query grouping by key runs without Spark's aggregation before the shuffle, which folds
nothing there (parity/spark_settings.py: grouped_by_key): joindiff's pass by key does, a grouping
by cell keeps it, a user's setting is kept, and the session is put back."""

from __future__ import annotations

from pyspark.sql import SparkSession

from parity.algorithms.cell_hashes import cell_hash_pass
from parity.algorithms.key_hashes import key_hash_pass
from parity.spark_settings import BYPASS_PARTIAL
from tests.spark.canonical_frames import spark_side

ROWS = [((str(i),), (f"v{i}", "x")) for i in range(200)]


def status_store(spark: SparkSession):
    """Spark's SQL status store, once the listener bus has given it every event so far."""
    spark.sparkContext._jsc.sc().listenerBus().waitUntilEmpty()
    return spark._jsparkSession.sharedState().statusStore()


def last_execution(spark: SparkSession) -> int:
    """The id of the last query the session ran (-1 before any)."""
    executions = status_store(spark).executionsList()
    return executions.apply(executions.size() - 1).executionId() if executions.size() else -1


def aggregations_of(spark: SparkSession, action) -> list[str]:
    """The physical plans of the aggregating queries ``action`` ran, newest first. The store
    keeps the last thousand queries, so they are told by id, not by index."""
    since = last_execution(spark)
    action()
    executions, plans = status_store(spark).executionsList(), []
    for index in range(executions.size() - 1, -1, -1):
        execution = executions.apply(index)
        if execution.executionId() <= since:
            break
        plans.append(execution.physicalPlanDescription())
    return [plan for plan in plans if "HashAggregate" in plan]


def test_the_pass_by_key_skips_the_aggregation_before_its_shuffle(spark):
    source = spark_side(spark, "source", ROWS, 2)
    target = spark_side(spark, "target", ROWS[1:], 2)
    keys = list(source.plan.key_columns)

    def by_key() -> None:
        key_hash_pass(source.native, target.native, keys, "__parity_native").release()

    plans = aggregations_of(spark, by_key)
    assert plans and not any("partial_" in plan for plan in plans)
    assert spark.conf.get(BYPASS_PARTIAL, None) is None
    # By cell, many rows fold into one before the shuffle: the partial aggregation is kept.
    plans = aggregations_of(spark, lambda: cell_hash_pass(source, target, keys).release())
    assert any("partial_" in plan for plan in plans)


def test_a_users_setting_is_kept(spark):
    source = spark_side(spark, "source", ROWS, 2)
    keys = list(source.plan.key_columns)
    spark.conf.set(BYPASS_PARTIAL, "false")
    try:
        plans = aggregations_of(
            spark,
            lambda: key_hash_pass(source.native, source.native, keys, "__parity_native").release(),
        )
        assert any("partial_" in plan for plan in plans)
        assert spark.conf.get(BYPASS_PARTIAL) == "false"
    finally:
        spark.conf.unset(BYPASS_PARTIAL)
