"""joindiff as a pipeline, for two sides in the Spark session: a first pass of native hashes,
summed per cell of consecutive keys where the key is a single integer (algorithms/cell_hashes.py),
else per key (algorithms/key_hashes.py), finds what differs and counts both sides' keys; the
keys are enforced; only the rows of what differs are canonicalized and compared as multisets.
Nothing but the differences reaches the driver."""

from __future__ import annotations

from parity.algorithms.canonical_join import canonical_join
from parity.algorithms.cell_hashes import cell_hash_pass
from parity.algorithms.key_hashes import key_hash_pass
from parity.algorithms.search_stats import SearchStats
from parity.comparison.key_constraints import enforce_keys
from parity.log import logger
from parity.pipelines.outcome import Outcome
from parity.plan import PairPlan
from parity.results import judgement
from parity.results.summary import Findings, summarize
from parity.sides.spark import SparkSide
from parity.spark_settings import after_first_pass


def run(pair: PairPlan, source: SparkSide, target: SparkSide) -> Outcome:
    keys, values = list(pair.source.key_columns), list(pair.source.value_columns)
    names, rules = pair.source.column_names, pair.column_rules
    by_cell = pair.source.key_is_position
    first = (
        cell_hash_pass(source, target, keys)
        if by_cell
        else key_hash_pass(source.native, target.native, keys, pair.source.native_hash_column)
    )
    try:
        logger.info(
            "parity pair '%s': joindiff pass 1, native hashes by %s: %s source rows, %s target"
            " rows scanned, %s",
            pair.name,
            "cell" if by_cell else "key",
            first.counts[0].rows,
            first.counts[1].rows,
            first.found,
        )
        keys_flagged = enforce_keys(pair, first.counts, (source, target))
        after_first_pass(source.spark, sum(c.rows for c in first.counts))
        stats = SearchStats()
        if first.found_nothing:
            return Outcome(Findings.none(), first.counts, stats, keys_flagged)
        limit = pair.max_differences
        if limit is not None and first.differing_units > limit:
            # Each differing key or cell holds a differing row: the first `limit` are enough.
            stats.halted_by = "max_differences"
            logger.info(
                "parity pair '%s': max_differences %d reached, only the first %d of %s in key"
                " order compared",
                pair.name,
                limit,
                limit,
                first.found,
            )
        with first.compared_rows(source, target, limit) as rows:
            unique_keys = not any(counts.duplicate_keys for counts in first.counts)
            diffs = canonical_join(*rows, keys, values, unique_keys)
            findings = summarize(diffs, names, rules)
        # The breaker counts what the findings counted: the rows beyond tolerance.
        compared = max(c.rows for c in first.counts)
        if pair.critical_drift_ratio is not None and judgement.too_many(
            pair, findings.differing_rows, compared
        ):
            stats.halted_by = "critical_drift_ratio"
            # A pair stopped by its circuit breaker keeps none of its row differences.
            findings = findings.unpublished()
        logger.info(
            "parity pair '%s': joindiff pass 2, the rows where %s compared", pair.name, first.found
        )
        return Outcome(findings, first.counts, stats, keys_flagged)
    finally:
        first.release()
