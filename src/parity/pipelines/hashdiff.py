"""hashdiff as a pipeline: each side profiled in one pass, its keys enforced, then the drill-down
over checksums, the circuit breaker asked after each download."""

from __future__ import annotations

from pyspark.sql import SparkSession

from parity.algorithms.hashdiff import hashdiff
from parity.comparison.key_constraints import enforce_keys
from parity.pipelines.outcome import Outcome
from parity.plan import PairPlan
from parity.results import judgement
from parity.results.summary import row_diff_frame, rows_beyond_tolerance, summarize
from parity.sides.side import Side
from parity.values.rows import RowDiff


def run(spark: SparkSession, pair: PairPlan, source: Side, target: Side) -> Outcome:
    names, rules = pair.source.column_names, pair.column_rules
    profiles = source.profile(), target.profile()
    counts = (profiles[0].counts, profiles[1].counts)
    keys_flagged = enforce_keys(pair, counts)

    def breaker(diffs: list[RowDiff], compared: int) -> bool:
        found = rows_beyond_tolerance(row_diff_frame(spark, diffs), names, rules)
        return judgement.too_many(pair, found, compared)

    drilled = hashdiff(
        pair.name,
        source,
        target,
        pair.bisection_factor,
        pair.bisection_threshold,
        breaker if pair.critical_drift_ratio is not None else None,
        profiles,
        tolerant=bool(pair.gridded_columns),
    )
    findings = summarize(row_diff_frame(spark, drilled.diffs), names, rules)
    return Outcome(findings, counts, drilled.stats, keys_flagged)
