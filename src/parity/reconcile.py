"""Reconciles every pair of a plan and returns the result rows, only once all pairs are done.

Any failure raises a ParityError naming the pair, before anything is returned: dbt then writes
nothing and the previous results stay as they were.
"""

from __future__ import annotations

import time

from py4j.protocol import Py4JJavaError
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.utils import AnalysisException

from parity.algorithms.hashdiff import HashdiffStats, hashdiff
from parity.algorithms.joindiff import joindiff
from parity.comparison.key_constraints import enforce_keys
from parity.errors import ParityError
from parity.log import logger
from parity.plan import PairPlan, pairs_from_rows
from parity.results import judgement
from parity.results.pair_result import RESULT_SCHEMA, PairResult
from parity.results.summary import row_diff_frame, rows_beyond_tolerance, summarize
from parity.sides.opened import opened_sides
from parity.sides.unreadable_files import unreadable_file
from parity.values.rows import RowDiff


def reconcile_plan(spark: SparkSession, plan: DataFrame) -> DataFrame:
    pairs = pairs_from_rows([row.asDict() for row in plan.collect()])
    results = [reconcile_pair(spark, pair).as_row() for pair in pairs]
    return spark.createDataFrame(results, RESULT_SCHEMA)


def reconcile_pair(spark: SparkSession, pair: PairPlan) -> PairResult:
    started = time.perf_counter()
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
            names, rules = pair.source.column_names, pair.column_rules
            ratio = pair.critical_drift_ratio
            profiles = source.profile(), target.profile()
            keys_flagged = enforce_keys(pair, profiles)
            if pair.algorithm == "hashdiff":

                def breaker(diffs: list[RowDiff], compared: int) -> bool:
                    found = rows_beyond_tolerance(row_diff_frame(spark, diffs), names, rules)
                    return judgement.too_many(pair, found, compared)

                outcome = hashdiff(
                    pair.name,
                    source,
                    target,
                    pair.bisection_factor,
                    pair.bisection_threshold,
                    breaker if ratio is not None else None,
                    profiles,
                    tolerant=bool(pair.gridded_columns),
                )
                stats = outcome.stats
                findings = summarize(row_diff_frame(spark, outcome.diffs), names, rules)
            else:
                # joindiff compares inside Spark (the plan chooses it only for two SparkSides): no
                # checksum drill-down, and only the differences reach the driver.
                stats = HashdiffStats()
                diffs = joindiff(
                    source.frame,
                    target.frame,
                    list(pair.source.key_columns),
                    list(pair.source.value_columns),
                )
                if ratio is not None:
                    # Counted before any difference is collected; kept for the collection.
                    diffs = diffs.persist()
                    found = rows_beyond_tolerance(diffs, names, rules)
                    stats.halted = judgement.too_many(pair, found, max(p.rows for p in profiles))
                findings = summarize(diffs, names, rules, with_differences=not stats.halted)
                diffs.unpersist()
    except AnalysisException as error:
        raise ParityError(pair.name, f"Spark could not run the pair's SQL: {error}") from error
    except Py4JJavaError as error:  # a job failed: the file Spark names, if any, says whose
        named = unreadable_file(pair, error)
        if named is None:
            raise
        raise named from error
    elapsed = round(time.perf_counter() - started, 3)
    logger.info(
        "parity pair '%s': %d differing rows, %d differences, %.1fs",
        pair.name,
        findings.differing_rows,
        len(findings.differences),
        elapsed,
    )
    return judgement.compared(pair, profiles, stats, findings, elapsed, keys_flagged)
