"""The Spark settings parity's queries run under: set on the session while a pair is reconciled
(reconcile.py), then put back as they were. None changes a result; each keeps a query of
parity's from a known trap.
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


@contextmanager
def parity_settings(spark: SparkSession) -> Iterator[None]:
    conf = spark.conf
    previous = {name: conf.get(name, None) for name in (HUGE_METHOD_LIMIT, EXCLUDED_RULES)}
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
