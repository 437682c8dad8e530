"""A pair's result from what its comparison found: its drift, its verdict, its column drift and
its published differences."""

from __future__ import annotations

from dataclasses import replace

from pyspark.sql import DataFrame

from parity.algorithms.search_stats import SearchStats
from parity.log import logger
from parity.plan import PairPlan, canonical_json
from parity.results.drift import column_stats
from parity.results.examples import all_listed, capped, listed
from parity.results.pair_result import PairResult
from parity.results.patterns import classify
from parity.results.presentation import PublishedDifference, present
from parity.results.summary import Findings, rows_beyond_tolerance
from parity.values.dead_letter import DeadLetter
from parity.values.profile import KeyCounts
from parity.values.rows import VALUE_MISMATCH

# What a pair's column statistics cover (parity_column_drift.coverage).
COVERAGE = {
    "joindiff": "every compared row",
    "hashdiff": "every compared row: those outside the downloaded segments matched by checksum",
    "hashdiff on the tolerance grid": "every difference beyond tolerance; those within it only in"
    " the downloaded segments (the others matched by checksums on the tolerance grid)",
    "joindiff on the tolerance grid": "every difference beyond tolerance; those within it only in"
    " the rows whose hashes on the tolerance grid differ",
    "critical_drift_ratio": "halted: only the differences found before the circuit breaker tripped",
    "max_differences": "halted at max_differences: only the differences found before that many"
    " rows differed (joindiff: those of the first max_differences differing keys, or cells of 64"
    " keys, in key order)",
}


def uncompared(pair: PairPlan, elapsed: float) -> PairResult:
    """The result of a pair whose data was not compared: its schema findings only; its sizes,
    drift and key counts unknown (NULL)."""
    return _result(pair, None, SearchStats(), Findings.none(), elapsed, False)


def unchanged(pair: PairPlan, elapsed: float) -> PairResult:
    """The row of a pair whose last result stands: it only points at the run that computed it
    (pipelines/incremental.py fills that in), and is no result of its own."""
    return _result(pair, None, SearchStats(), Findings.none(), elapsed, False)


def failed(pair: PairPlan, reason: str, elapsed: float) -> PairResult:
    """The result of a pair that could not be planned or reconciled: an error, with its reason;
    nothing of its data is known, and nothing it found before failing is kept."""
    return _result(pair, None, SearchStats(), Findings.none(), elapsed, False, reason)


def compared(
    pair: PairPlan,
    counts: tuple[KeyCounts, KeyCounts],
    stats: SearchStats,
    findings: Findings,
    elapsed: float,
    keys_flagged: bool,
    dead_letters: tuple[DeadLetter, ...] = (),
) -> PairResult:
    """A compared pair's result; incomplete, never passed, where segments were dead-lettered:
    what they hold is neither matched nor reported."""
    result = _result(pair, counts, stats, findings, elapsed, keys_flagged)
    if not dead_letters:
        return result
    first = dead_letters[0]
    reason = (
        f"{len(dead_letters)} segment(s) could not be compared by any query, their rows neither"
        f" matched nor reported; the first, on the {first.side} from {first.low} to"
        f" {first.high}: {first.error}"
    )
    logger.warning("parity pair '%s': incomplete: %s", pair.name, reason)
    return replace(
        result,
        passed=False,
        status="incomplete",
        status_reason=reason,
        dead_letters=list(dead_letters),
    )


def row_drift_pct(findings: Findings, counts: tuple[KeyCounts, KeyCounts]) -> float:
    """Rows missing or extra on either side, as a share of the larger side."""
    largest = max(c.rows for c in counts)
    return round(100.0 * findings.missing_or_extra_rows / largest, 6) if largest else 0.0


def passed(pair: PairPlan, findings: Findings, drift: float, halted: bool) -> bool:
    return (
        findings.counts[f"{VALUE_MISMATCH}_rows"] == 0
        and drift <= pair.max_row_drift_pct
        and not pair.schema_failed
        and not halted
    )


class DrillLimits:
    """A pair's limits as a drill-down asks them after each download: the rows differing beyond
    tolerance add up across downloads."""

    def __init__(self, pair: PairPlan) -> None:
        self.pair, self.beyond_tolerance = pair, 0

    def __call__(self, found: DataFrame, compared: int) -> str | None:
        pair = self.pair
        self.beyond_tolerance += rows_beyond_tolerance(
            found, pair.source.column_names, pair.column_rules
        )
        return limit_reached(pair, self.beyond_tolerance, compared)


def limit_reached(pair: PairPlan, beyond_tolerance: int, compared: int) -> str | None:
    """The limit that stops the pair's comparison, if these rows differing beyond tolerance
    reach one: the circuit breaker (per compared row, above its critical_drift_ratio) or its
    max_differences."""
    if pair.critical_drift_ratio is not None and too_many(pair, beyond_tolerance, compared):
        return "critical_drift_ratio"
    if pair.max_differences is not None and beyond_tolerance >= pair.max_differences:
        return "max_differences"
    return None


def too_many(pair: PairPlan, beyond_tolerance: int, compared: int) -> bool:
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


def within_tolerance_counted(pair: PairPlan, halted_by: str | None) -> str:
    """Whether the pair's within-tolerance figures count every differing value within tolerance
    among the values compared (`exact`), or only those seen while locating the differences
    beyond tolerance (`seen`): where the first pass hashes columns on their tolerance grid, a
    value within tolerance mostly hashes equal, and only those in the rows compared for other
    reasons are seen; a limit that halted the search leaves the rest unseen, but joindiff's
    circuit breaker trips after counting every difference."""
    if pair.gridded_columns:
        return "seen"
    if halted_by == "max_differences" or (halted_by and pair.algorithm == "hashdiff"):
        return "seen"
    return "exact"


def _coverage(pair: PairPlan, halted_by: str | None) -> str:
    if halted_by is not None:
        return COVERAGE[halted_by]
    if pair.gridded_columns:
        return COVERAGE[f"{pair.algorithm} on the tolerance grid"]
    return COVERAGE[pair.algorithm]


def _result(
    pair: PairPlan,
    counts: tuple[KeyCounts, KeyCounts] | None,
    stats: SearchStats,
    findings: Findings,
    elapsed: float,
    keys_flagged: bool,
    error: str = "",
) -> PairResult:
    schema = [
        PublishedDifference(None, f["kind"], f["column_name"], f["source_type"], f["target_type"])
        for f in pair.schema_findings
    ]
    if counts is None:
        sizes, drift, key_counts = (None, None), None, [None] * 4
        stats_of_columns, patterns, counted, examples = [], [], None, []
    else:
        sizes = tuple(c.rows for c in counts)
        drift = row_drift_pct(findings, counts)
        key_counts = [n for c in counts for n in (c.null_keys, c.duplicate_keys)]
        # Rows present on both sides: each of their values was compared (rows with a NULL key,
        # left out under enforce_key warn or off, were not).
        values_compared = counts[0].compared_rows - findings.counts["missing_in_target_rows"]
        values_compared -= findings.counts["duplicate_in_source_rows"]
        stats_of_columns = column_stats(
            findings.drift_totals,
            findings.kept,
            pair.column_rules,
            values_compared,
            _coverage(pair, stats.halted_by),
            pair.masking,
        )
        # A sensitive column's pattern would tell how its values moved.
        found = [
            classify(rule, findings.drift_totals.get(rule.column, {}), values_compared)
            for rule in pair.column_rules
            if not pair.masking.hides(rule.column)
        ]
        patterns = [pattern for pattern in found if pattern is not None]
        counted = within_tolerance_counted(pair, stats.halted_by)
        examples = listed(
            findings.drift_totals,
            pair.column_rules,
            pair.within_tolerance_examples,
            findings.differences is not None,
        )
    source_null_keys, source_duplicate_keys, target_null_keys, target_duplicate_keys = key_counts
    return PairResult(
        run_id=pair.run_id,
        pair_name=pair.name,
        source_relation=pair.source.relation_name,
        target_relation=pair.target.relation_name,
        algorithm=pair.algorithm,
        source_rows=sizes[0],
        target_rows=sizes[1],
        **findings.counts,
        mismatched_values=findings.mismatched_values,
        within_tolerance_values=findings.within_tolerance_values,
        within_tolerance_counted=counted,
        differing_rows=findings.differing_rows,
        schema_findings=len(schema),
        row_drift_pct=drift,
        passed=counts is not None and passed(pair, findings, drift, stats.halted),
        halted=stats.halted,
        checksum_passes=stats.passes,
        segments_checked=stats.segments_checked,
        segments_reused=stats.segments_reused,
        rows_moved=stats.rows_moved,
        source_rows_moved=stats.source_rows_moved,
        target_rows_moved=stats.target_rows_moved,
        elapsed_seconds=elapsed,
        config_hash=pair.config_hash,
        tolerance_hash=pair.tolerance_hash,
        filters=pair.filters,
        data_compared=counts is not None,
        schema_compatible=pair.schema_compatible,
        source_schema_hash=pair.source.schema_hash,
        target_schema_hash=pair.target.schema_hash,
        source_null_keys=source_null_keys,
        source_duplicate_keys=source_duplicate_keys,
        target_null_keys=target_null_keys,
        target_duplicate_keys=target_duplicate_keys,
        keys_flagged=keys_flagged,
        status="error" if error else "complete",
        status_reason=error,
        source_schema_snapshot=canonical_json(list(pair.source.schema_snapshot)),
        target_schema_snapshot=canonical_json(list(pair.target.schema_snapshot)),
        schema_diff=pair.schema_diff,
        compatibility=pair.config["compatibility"],
        column_stats=stats_of_columns,
        column_patterns=patterns,
        within_tolerance_examples=pair.within_tolerance_examples,
        column_examples=examples,
        differences=schema,
        dead_letters=[],
        found=None if findings.differences is None else _published(pair, findings),
    )


def _published(pair: PairPlan, findings: Findings) -> DataFrame:
    """The differences as published: only the pair's examples of the values within tolerance
    (examples.py), readable, sensitive values hashed. Where no column has more than its
    examples, every one is listed without choosing: the choice is a shuffle of its own."""
    keys, rules, masking = pair.source.key_names, pair.column_rules, pair.masking
    chosen = findings.differences
    if not all_listed(findings.drift_totals, pair.within_tolerance_examples):
        chosen = capped(chosen, pair.within_tolerance_examples, masking, rules, keys)
    return present(chosen, keys, rules, masking)
