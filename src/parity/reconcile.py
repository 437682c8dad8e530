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
from parity.plan import PairPlan, SidePlan, canonical_json, pairs_from_rows
from parity.results.drift import column_stats
from parity.results.presentation import present
from parity.results.summary import (
    COUNTS,
    RESULT_SCHEMA,
    Findings,
    row_diff_frame,
    rows_beyond_tolerance,
    summarize,
)
from parity.sides.side import Side
from parity.sides.spark import SparkSide, key_columns, value_columns
from parity.sides.sql import SqlSide
from parity.sides.unreadable_files import unreadable_file
from parity.values.profile import Profile
from parity.values.rows import VALUE_MISMATCH, RowDiff

SAME_ENGINE_DIALECTS = {"spark", "databricks"}
# What a pair's column statistics cover (parity_column_drift.coverage).
COVERAGE = {
    "joindiff": "every compared row",
    "hashdiff": "every compared row: those outside the downloaded segments matched by checksum",
    "hashdiff on the tolerance grid": "every difference beyond tolerance; those within it only in"
    " the downloaded segments (the others matched by checksums on the tolerance grid)",
    "halted": "halted: only the differences found before the circuit breaker tripped",
}


def reconcile_plan(spark: SparkSession, plan: DataFrame) -> DataFrame:
    pairs = pairs_from_rows([row.asDict() for row in plan.collect()])
    return spark.createDataFrame([reconcile_pair(spark, pair) for pair in pairs], RESULT_SCHEMA)


def _coverage(pair: PairPlan, algorithm: str) -> str:
    if algorithm == "hashdiff" and pair.gridded_columns:
        return "hashdiff on the tolerance grid"
    return algorithm


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
        nothing = Findings({name: 0 for name in COUNTS}, 0, 0, [])
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
        names, rules = pair.source.column_names, pair.column_rules
        ratio = pair.critical_drift_ratio
        profiles = source.profile(), target.profile()
        keys_flagged = enforce_keys(pair, profiles)
        if algorithm == "hashdiff":

            def breaker(diffs: list[RowDiff], compared: int) -> bool:
                found = rows_beyond_tolerance(row_diff_frame(spark, diffs), names, rules)
                return _too_many(pair, found, compared)

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
            # joindiff compares inside Spark: no checksum drill-down, and no row leaves an
            # engine to be compared (only the differences reach the driver, as for hashdiff).
            stats = HashdiffStats()
            diffs = joindiff(
                source.frame, target.frame, key_columns(pair.source), value_columns(pair.source)
            )
            if ratio is not None:
                # Counted before any difference is collected; kept for the collection.
                diffs = diffs.persist()
                found = rows_beyond_tolerance(diffs, names, rules)
                stats.halted = _too_many(pair, found, max(p.rows for p in profiles))
            findings = summarize(diffs, names, rules, with_differences=not stats.halted)
            diffs.unpersist()
    except AnalysisException as error:
        raise ParityError(pair.name, f"Spark could not run the pair's SQL: {error}") from error
    except Py4JJavaError as error:  # a job failed: the file Spark names, if any, says whose
        named = unreadable_file(pair, error)
        if named is None:
            raise
        raise named from error
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


def _too_many(pair: PairPlan, beyond_tolerance: int, compared: int) -> bool:
    """The circuit breaker: rows differing beyond tolerance, per compared row, above the pair's
    critical_drift_ratio."""
    tripped = beyond_tolerance > pair.critical_drift_ratio * max(compared, 1)
    if tripped:
        logger.info(
            "parity pair '%s': %d rows differ beyond tolerance, more than critical_drift_ratio %s"
            " of %d rows: halted",
            pair.name,
            beyond_tolerance,
            pair.critical_drift_ratio,
            compared,
        )
    return tripped


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
        (None, f["kind"], f["column_name"], f["source_type"], f["target_type"], *[None] * 6)
        for f in pair.schema_findings
    ]
    if profiles is None:
        sizes, drift, key_counts = (None, None), None, [None] * 4
        stats_of_columns = []
    else:
        sizes = tuple(p.rows for p in profiles)
        # Rows missing or extra on either side, as a share of the larger side.
        largest = max(sizes)
        drift = round(100.0 * findings.missing_or_extra_rows / largest, 6) if largest else 0.0
        key_counts = [count for p in profiles for count in (p.null_keys, p.duplicate_keys)]
        # Rows present on both sides: each of their values was compared (rows with a NULL key,
        # left out under enforce_key warn or off, were not).
        compared = profiles[0].checksum.rows - findings.counts["missing_in_target_rows"]
        compared -= findings.counts["duplicate_in_source_rows"]
        stats_of_columns = column_stats(
            findings.differences,
            pair.source.column_names,
            pair.column_rules,
            compared,
            COVERAGE["halted" if stats.halted else _coverage(pair, algorithm)],
            pair.masking,
        )
    passed = (
        profiles is not None
        and findings.counts[f"{VALUE_MISMATCH}_rows"] == 0
        and drift <= pair.max_row_drift_pct
        and not pair.schema_failed
        and not stats.halted
    )
    return (
        pair.run_id,
        pair.name,
        pair.source.relation_name,
        pair.target.relation_name,
        algorithm,
        *sizes,
        *findings.counts.values(),
        findings.mismatched_values,
        findings.within_tolerance_values,
        differing,
        len(schema),
        drift,
        passed,
        stats.halted,
        stats.passes,
        stats.segments_checked,
        stats.rows_moved,
        stats.source_rows_moved,
        stats.target_rows_moved,
        elapsed,
        pair.config_hash,
        pair.tolerance_hash,
        pair.filters,
        profiles is not None,
        pair.schema_compatible,
        pair.source.schema_hash,
        pair.target.schema_hash,
        *key_counts,
        keys_flagged,
        canonical_json(list(pair.source.schema_snapshot)),
        canonical_json(list(pair.target.schema_snapshot)),
        pair.schema_diff,
        pair.config["compatibility"],
        stats_of_columns,
        present(findings.differences, pair.source.key_names, pair.column_rules, pair.masking)
        + schema,
    )
