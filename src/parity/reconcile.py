"""Reconciles every pair of a plan and returns the result rows, only once all pairs are done.

Any failure raises a ParityError naming the pair, before anything is returned: dbt then writes
nothing and the previous results stay as they were.
"""

from __future__ import annotations

import time

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.utils import AnalysisException

from parity.errors import ParityError
from parity.hashdiff import HashdiffStats, hashdiff
from parity.joindiff import joindiff
from parity.key_constraints import enforce_keys
from parity.log import logger
from parity.plan import PairPlan, SidePlan, pairs_from_rows
from parity.results import COUNTS, RESULT_SCHEMA, Findings, row_diff_frame, summarize
from parity.sides import Profile, Side
from parity.spark_side import SparkSide, key_columns, value_columns
from parity.sql_side import SqlSide

SAME_ENGINE_DIALECTS = {"spark", "databricks"}


def reconcile_plan(spark: SparkSession, plan: DataFrame) -> DataFrame:
    pairs = pairs_from_rows([row.asDict() for row in plan.collect()])
    return spark.createDataFrame([reconcile_pair(spark, pair) for pair in pairs], RESULT_SCHEMA)


def choose_algorithm(pair: PairPlan) -> str:
    if pair.algorithm != "auto":
        return pair.algorithm
    dialects = {pair.source.dialect, pair.target.dialect}
    return "joindiff" if dialects <= SAME_ENGINE_DIALECTS else "hashdiff"


def reconcile_pair(spark: SparkSession, pair: PairPlan) -> tuple:
    started = time.perf_counter()
    algorithm = choose_algorithm(pair)
    if not pair.schema_compatible:
        # Its schema findings are its result: no side is opened, no row is read.
        logger.info(
            "parity pair '%s': schema incompatible under compatibility %s, no data compared",
            pair.name,
            pair.config["compatibility"],
        )
        nothing = Findings({name: 0 for name in COUNTS}, 0, [])
        elapsed = round(time.perf_counter() - started, 3)
        return _result_row(pair, algorithm, None, HashdiffStats(), nothing, elapsed, False)
    logger.info(
        "parity pair '%s': %s of %s against %s",
        pair.name,
        algorithm,
        pair.source.relation_name,
        pair.target.relation_name,
    )
    sides: list = []
    try:
        source, target = (
            _side(spark, pair.name, plan, sides) for plan in (pair.source, pair.target)
        )
        if algorithm == "joindiff" and not all(isinstance(s, SparkSide) for s in sides):
            raise ParityError(
                pair.name, "joindiff needs both sides in the Spark session: use hashdiff"
            )
        profiles = source.profile(), target.profile()
        keys_flagged = enforce_keys(pair, profiles)
        if algorithm == "hashdiff":
            outcome = hashdiff(
                pair.name,
                source,
                target,
                pair.bisection_factor,
                pair.bisection_threshold,
                profiles,
            )
            stats = outcome.stats
            findings = summarize(row_diff_frame(spark, outcome.diffs), pair.source.column_names)
        else:
            # joindiff compares inside Spark: no checksum drill-down, and no row leaves an
            # engine to be compared (only the differences reach the driver, as for hashdiff).
            stats = HashdiffStats()
            diffs = joindiff(
                source.frame, target.frame, key_columns(pair.source), value_columns(pair.source)
            )
            findings = summarize(diffs, pair.source.column_names)
    except AnalysisException as error:
        raise ParityError(pair.name, f"Spark could not run the pair's SQL: {error}") from error
    finally:
        for side in sides:
            if isinstance(side, SqlSide):
                side.close()
    elapsed = round(time.perf_counter() - started, 3)
    logger.info(
        "parity pair '%s': %d differing rows, %d differences, %.1fs",
        pair.name,
        findings.differing_rows,
        len(findings.differences),
        elapsed,
    )
    return _result_row(pair, algorithm, profiles, stats, findings, elapsed, keys_flagged)


def _side(spark: SparkSession, pair_name: str, plan: SidePlan, opened: list) -> Side:
    side = (
        SparkSide(spark, pair_name, plan)
        if plan.dialect in SAME_ENGINE_DIALECTS
        else SqlSide(pair_name, plan)
    )
    opened.append(side)
    return side


def _result_row(
    pair: PairPlan,
    algorithm: str,
    profiles: tuple[Profile, Profile] | None,
    stats: HashdiffStats,
    findings: Findings,
    elapsed: float,
    keys_flagged: bool,
) -> tuple:
    """``profiles`` is None for a pair whose data was not compared: its sizes, drift and key
    counts are unknown (NULL)."""
    differing = findings.differing_rows
    schema = [
        (None, f["kind"], f["column_name"], f["source_type"], f["target_type"])
        for f in pair.schema_findings
    ]
    if profiles is None:
        sizes, drift, key_counts = (None, None), None, [None] * 4
    else:
        sizes = tuple(p.rows for p in profiles)
        drift = round(100.0 * differing / max(sizes), 6) if max(sizes) else 0.0
        key_counts = [count for p in profiles for count in (p.null_keys, p.duplicate_keys)]
    return (
        pair.name,
        pair.source.relation_name,
        pair.target.relation_name,
        algorithm,
        *sizes,
        *findings.counts.values(),
        findings.mismatched_values,
        differing,
        len(schema),
        drift,
        profiles is not None and differing == 0 and not pair.schema_failed,
        stats.passes,
        stats.segments_checked,
        stats.rows_moved,
        stats.source_rows_moved,
        stats.target_rows_moved,
        elapsed,
        pair.config_hash,
        profiles is not None,
        pair.schema_compatible,
        pair.source.schema_hash,
        pair.target.schema_hash,
        *key_counts,
        keys_flagged,
        findings.differences + schema,
    )
