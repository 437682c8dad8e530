"""What a pair's queries run under past its first pass (parity/spark_settings.py): a pair of few
rows without whole-stage code generation, a larger one with it, a user's own setting kept, and
the session as it was once the pair is done."""

from __future__ import annotations

from pyspark.sql import SparkSession

from parity.spark_settings import SMALL_PAIR_ROWS, WHOLE_STAGE, after_first_pass, parity_settings


def compiled_stages(spark: SparkSession) -> bool:
    """Whether Spark plans a projection over rows as a compiled stage: its plan marks each
    operator of one with the stage's number, as `*(1) Project`."""
    plan = spark.range(10).selectExpr("id * 2 as doubled")._jdf.queryExecution().executedPlan()
    return "*(" in plan.toString()


def test_a_small_pair_runs_uncompiled_and_the_session_is_put_back(spark):
    assert spark.conf.get(WHOLE_STAGE, None) is None and compiled_stages(spark)
    with parity_settings(spark):
        after_first_pass(spark, SMALL_PAIR_ROWS)
        assert spark.conf.get(WHOLE_STAGE) == "false" and not compiled_stages(spark)
    assert spark.conf.get(WHOLE_STAGE, None) is None and compiled_stages(spark)


def test_a_larger_pair_keeps_compiled_stages(spark):
    with parity_settings(spark):
        after_first_pass(spark, SMALL_PAIR_ROWS + 1)
        assert spark.conf.get(WHOLE_STAGE, None) is None and compiled_stages(spark)


def test_a_users_setting_is_kept(spark):
    spark.conf.set(WHOLE_STAGE, "true")
    try:
        with parity_settings(spark):
            after_first_pass(spark, 10)
            assert compiled_stages(spark)
        assert spark.conf.get(WHOLE_STAGE, None) == "true"
    finally:
        spark.conf.unset(WHOLE_STAGE)
