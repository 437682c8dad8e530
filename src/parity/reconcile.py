"""Reconciles every pair of a plan and returns the result rows, only once all pairs are done:
each pair by the pipeline of its algorithm (pipelines/).

Any failure raises a ParityError naming the pair, before anything is returned: dbt then writes
nothing and the previous results stay as they were.
"""

from __future__ import annotations

import time

from py4j.protocol import Py4JJavaError
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.utils import AnalysisException

from parity.errors import ParityError
from parity.log import logger
from parity.pipelines import hashdiff, joindiff
from parity.plan import PairPlan, pairs_from_rows
from parity.results import judgement
from parity.results.pair_result import PairResult, results_frame
from parity.sides.opened import opened_sides
from parity.sides.unreadable_files import unreadable_file
from parity.spark_settings import parity_settings


def reconcile_plan(spark: SparkSession, plan: DataFrame) -> DataFrame:
    pairs = pairs_from_rows([row.asDict() for row in plan.collect()])
    return results_frame(spark, [reconcile_pair(spark, pair) for pair in pairs])


def reconcile_pair(spark: SparkSession, pair: PairPlan) -> PairResult:
    with parity_settings(spark):
        return _reconciled(spark, pair)


def _reconciled(spark: SparkSession, pair: PairPlan) -> PairResult:
    started = time.perf_counter()
    if pair.problem:  # the plan could not read a side: the pair has nothing to run
        raise ParityError(pair.name, pair.problem)
    if not pair.schema_compatible:
        # Its schema findings are its result: no side is opened, no row is read.
        logger.info(
            "parity pair '%s': schema incompatible under compatibility %s, no data compared",
            pair.name,
            pair.config["compatibility"],
        )
        return judgement.uncompared(pair, round(time.perf_counter() - started, 3))
    logger.info(
        "parity pair '%s': %s of %s against %s",
        pair.name,
        pair.algorithm,
        pair.source.relation_name,
        pair.target.relation_name,
    )
    try:
        with opened_sides(spark, pair) as (source, target):
            if pair.algorithm == "hashdiff":
                outcome = hashdiff.run(pair, source, target)
            else:
                # The plan chooses joindiff only for two sides in the Spark session.
                outcome = joindiff.run(pair, source, target)
    except AnalysisException as error:
        raise ParityError(pair.name, f"Spark could not run the pair's SQL: {error}") from error
    except Py4JJavaError as error:  # a job failed: the file Spark names, if any, says whose
        named = unreadable_file(pair, error)
        if named is None:
            raise
        raise named from error
    elapsed = round(time.perf_counter() - started, 3)
    findings = outcome.findings
    logger.info(
        "parity pair '%s': %d differing rows, %d values differ, %.1fs",
        pair.name,
        findings.differing_rows,
        findings.mismatched_values + findings.within_tolerance_values,
        elapsed,
    )
    return judgement.compared(
        pair, outcome.counts, outcome.stats, findings, elapsed, outcome.keys_flagged
    )
