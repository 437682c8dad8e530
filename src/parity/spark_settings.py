"""The Spark settings parity's queries run under: set on the session while a pair is reconciled
(reconcile.py), then put back as they were. None changes a result; each keeps a query of
parity's from a known trap, or a small pair from paying for what only a large one needs. Pairs
reconciled at once each run in a session of their own (own_session), whose settings are theirs.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from pyspark.sql import SparkSession

# Spark compiles each stage of a query into one Java method, and HotSpot interprets a method of
# more than 8,000 bytes of bytecode rather than compile it: five times slower. parity's
# expressions over every column of a pair (canonical texts, tolerance verdicts) reach that size
# on ordinary tables. At this limit (Spark's default is 65,535; its documentation advises 8,000
# on HotSpot) such a stage runs without whole-stage code generation instead, as small methods
# the JVM compiles. A limit the user set is kept.
HUGE_METHOD_LIMIT = "spark.sql.codegen.hugeMethodLimit"
# parity counts the rows each side hands over with observations (Observation). Adaptive
# execution replaces a side that turns out empty at run time with an empty relation, and drops
# its observation with it, which then fails when read. That rule is left out, beside any the
# user left out.
EXCLUDED_RULES = "spark.sql.adaptive.optimizer.excludedRules"
EMPTY_RELATION_RULE = "org.apache.spark.sql.execution.adaptive.AQEPropagateEmptyRelation"
# Whole-stage code generation compiles each stage of a query to Java before it runs: tenths of a
# second per query, whatever its rows. A pair of small tables asks a dozen queries after its first
# pass and spent more compiling them than running them: past that pass, once both sides' rows are
# known, a pair of at most SMALL_PAIR_ROWS rows in all runs its queries without it (interpreted,
# as Spark runs any stage it cannot compile). A setting the user made is kept.
WHOLE_STAGE = "spark.sql.codegen.wholeStage"
SMALL_PAIR_ROWS = 200_000
# Spark aggregates before its shuffle, then after it: before it, each task folds its rows of a
# group into one. Grouped by key, nothing folds (one or two rows a key), and the fold only
# builds a hash table as large as the task's rows: grouping both sides of a compound key by key
# took 19-25 s at 10M rows with it, 10-12 s without it. The setting is Spark 4.3's (an older
# Spark ignores it); one the user made is kept.
BYPASS_PARTIAL = "spark.sql.execution.bypassPartialAggregation"


def own_session(spark: SparkSession) -> SparkSession:
    """A session of its own for one pair: a clone of ``spark`` (its settings, temporary views
    and functions as they are now) on the same Spark context and catalog, whose settings
    change apart from it. Spark's ``newSession`` would start from Spark's defaults instead,
    not from what dbt set (``spark.sql.ansi.enabled`` among them)."""
    return SparkSession(spark.sparkContext, spark._jsparkSession.cloneSession())


@contextmanager
def parity_settings(spark: SparkSession) -> Iterator[None]:
    conf = spark.conf
    names = (HUGE_METHOD_LIMIT, EXCLUDED_RULES, WHOLE_STAGE)
    previous = {name: conf.get(name, None) for name in names}
    excluded = [rule for rule in (previous[EXCLUDED_RULES] or "").split(",") if rule]
    conf.set(EXCLUDED_RULES, ",".join(dict.fromkeys([*excluded, EMPTY_RELATION_RULE])))
    conf.set(HUGE_METHOD_LIMIT, previous[HUGE_METHOD_LIMIT] or "8000")
    try:
        yield
    finally:
        for name, value in previous.items():
            if value is None:
                conf.unset(name)
            else:
                conf.set(name, value)


@contextmanager
def grouped_by_key(spark: SparkSession) -> Iterator[None]:
    """What a query grouping rows by key (as many groups as rows) runs under: without the
    aggregation before the shuffle, unless the user set it. Not for a query grouping by cell
    or block, which folds many rows into one before the shuffle."""
    if spark.conf.get(BYPASS_PARTIAL, None) is not None:
        yield
        return
    spark.conf.set(BYPASS_PARTIAL, "true")
    try:
        yield
    finally:
        spark.conf.unset(BYPASS_PARTIAL)


def after_first_pass(spark: SparkSession, rows: int) -> None:
    """What the rest of a pair runs under, once its first pass counted ``rows`` on both sides:
    without whole-stage code generation when they are few, unless the user set it."""
    if rows <= SMALL_PAIR_ROWS and spark.conf.get(WHOLE_STAGE, None) is None:
        spark.conf.set(WHOLE_STAGE, "false")
