"""Reconciles every pair of a plan and returns the result rows, only once all pairs are done:
each pair by the pipeline of its algorithm (pipelines/).

Each pair stands alone: one that cannot be reconciled (a side that cannot be read or reached, a
query that fails, keys that enforce_key rejects) becomes a result of status `error` with its
reason in one line, and every other pair is reconciled and published. What it had found before
failing is dropped, so an error never passes; the generic tests fail it.
"""

from __future__ import annotations

import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from py4j.protocol import Py4JJavaError
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.utils import AnalysisException

from parity.errors import ParityError
from parity.log import logger
from parity.pipelines import hashdiff, incremental, joindiff
from parity.plan import PairPlan, pairs_from_rows
from parity.results import judgement
from parity.results.pair_result import PairResult, results_frame
from parity.sides.full_disk import full_disk
from parity.sides.opened import opened_sides
from parity.sides.published_errors import debug_text, pairs_run, published
from parity.sides.unreadable_files import unreadable_file
from parity.spark_settings import own_session, parity_settings
from parity.telemetry.run import Reconcile, observed_run


def reconcile_plan(spark: SparkSession, plan: DataFrame, concurrent_pairs: int = 1) -> DataFrame:
    pairs = pairs_from_rows([row.asDict() for row in plan.collect()])
    # No pair's error shows a secret of any pair's; each pair is a span of the run's when
    # OpenTelemetry is asked for (telemetry/run.py).
    with pairs_run(pairs), observed_run(pairs) as observed:
        results = _each_reconciled(spark, pairs, concurrent_pairs, observed(reconcile_pair))
    failed = [f"{r.pair_name} ({r.status})" for r in results if r.status != "complete"]
    if failed:
        logger.warning(
            "parity: %d of %d pairs are not complete, %s: their results say why",
            len(failed),
            len(results),
            ", ".join(failed),
        )
    return results_frame(spark, results)


def _each_reconciled(
    spark: SparkSession, pairs: list[PairPlan], at_once: int, reconcile: Reconcile
) -> list[PairResult]:
    """Each pair's result by ``reconcile``, in the plan's order, up to ``at_once`` pairs
    reconciled together.

    A pair of small tables leaves a cluster's cores idle, and a pair outside Spark keeps the
    driver waiting on its engine: several at once fill those gaps, as Spark runs the jobs of
    several threads side by side (where one pair's jobs fill the cores, as on two, it saves
    nothing: docs/design-notes.md). Each such pair runs in a session of its own, cloned
    from dbt's (its settings and temporary views), so the settings parity sets for one pair
    (spark_settings.py) never reach another; what each pair finds, and so every published
    figure, is the same however many run at once."""
    workers = min(at_once, len(pairs))
    if workers <= 1:
        return [reconcile(spark, pair) for pair in pairs]
    with ThreadPoolExecutor(workers, thread_name_prefix="parity-pair") as pool:
        return list(pool.map(lambda pair: reconcile(own_session(spark), pair), pairs))


def reconcile_pair(spark: SparkSession, pair: PairPlan) -> PairResult:
    """The pair's result: compared, or only pointing at its last result when nothing it depends
    on changed since (pipelines/incremental.py); an error, with its reason, when it cannot be
    reconciled."""
    started = time.perf_counter()
    rerun = incremental.Rerun("compared", "its state could not be read", pair.run_id, {})
    try:
        rerun = incremental.decide(spark, pair)
        if rerun.unchanged:
            logger.info("parity pair '%s': %s: nothing compared", pair.name, rerun.reason)
            return incremental.kept(judgement.unchanged(pair, _since(started)), rerun)
        logger.info("parity pair '%s': compared, as %s", pair.name, rerun.reason)
        with parity_settings(spark):
            result, rerun = _reconciled(spark, pair, rerun)
        return incremental.kept(result, rerun)
    except Exception as error:  # whatever stops one pair must not stop the others
        reason = _reason(pair, error)
        if pair.problem and reason == _first_line(pair.problem):  # the plan logged it: once
            logger.info("parity pair '%s': not reconciled: not planned (see the plan)", pair.name)
        else:
            logger.error("parity pair '%s': not reconciled: %s", pair.name, reason)
        # The whole trace, less the secrets, only where the user asks for it: it quotes the
        # engines' whole messages.
        trace = debug_text(traceback.format_exc())
        if trace is not None:
            logger.debug("parity pair '%s': %s", pair.name, trace)
        return incremental.kept(judgement.failed(pair, reason, _since(started)), rerun)


def _since(started: float) -> float:
    return round(time.perf_counter() - started, 3)


def _reason(pair: PairPlan, error: Exception) -> str:
    """Why the pair failed, in one line: a ParityError's own words (less the pair's name, which
    the result row holds; what an engine said in them was made publishable where it was
    caught), else the error's type and what may be published of its text (no Java stack trace,
    no value, no secret)."""
    if isinstance(error, ParityError):
        return _first_line(str(error).removeprefix(f"parity pair '{pair.name}': "))
    if isinstance(error, Py4JJavaError):
        return full_disk(error) or f"Spark failed: {published(error.java_exception.toString())}"
    return f"{type(error).__name__}: {published(str(error))}"


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "no message")


def _reconciled(
    spark: SparkSession, pair: PairPlan, rerun: incremental.Rerun
) -> tuple[PairResult, incremental.Rerun]:
    """The pair's result and what the run did with it: compared, or kept after all when its
    first pass finds both sides as its last result found them."""
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
        return judgement.uncompared(pair, round(time.perf_counter() - started, 3)), rerun
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
                outcome = hashdiff.run(pair, source, target, rerun)
            else:
                # The plan chooses joindiff only for two sides in the Spark session.
                outcome = joindiff.run(pair, source, target)
    except AnalysisException as error:
        raise ParityError(
            pair.name, f"Spark could not run the pair's SQL: {published(str(error))}"
        ) from error
    except Py4JJavaError as error:  # a job failed: the file Spark names, if any, says whose
        named = unreadable_file(pair, error)
        if named is None:
            raise
        raise named from error
    elapsed = round(time.perf_counter() - started, 3)
    if outcome.kept is not None:
        logger.info("parity pair '%s': %s: nothing more compared", pair.name, outcome.kept.reason)
        return judgement.unchanged(pair, elapsed), outcome.kept
    findings = outcome.findings
    # In parity_summary's words: differing_rows (every kind but within tolerance), the values
    # beyond tolerance (mismatched_values) and those within it (within_tolerance_values).
    logger.info(
        "parity pair '%s': %d differing rows, %d mismatched values, %d values within tolerance,"
        " %.1fs",
        pair.name,
        findings.differing_rows,
        findings.mismatched_values,
        findings.within_tolerance_values,
        elapsed,
    )
    result = judgement.compared(
        pair,
        outcome.counts,
        outcome.stats,
        findings,
        elapsed,
        outcome.keys_flagged,
        outcome.dead_letters,
    )
    return replace(
        result,
        source_checksum=outcome.checksums[0],
        target_checksum=outcome.checksums[1],
        segment_checksums=outcome.segments,
    ), rerun
