"""hashdiff as a pipeline: each side profiled in one pass, its keys enforced, then the drill-down
over checksums, the pair's limits (circuit breaker, max_differences) asked after each
download; the cells no query could compare come out as dead letters. Where the first pass finds
both sides as they were when the pair's last result was computed, that result stands and
nothing else is asked (pipelines/incremental.py); else the segments that result found differing
are reused where they are found again unchanged (pipelines/reused_differences.py)."""

from __future__ import annotations

from contextlib import nullcontext
from time import perf_counter

from parity.algorithms.hashdiff import hashdiff
from parity.algorithms.search_stats import SearchStats
from parity.comparison.key_constraints import enforce_keys
from parity.pipelines import reused_differences
from parity.pipelines.incremental import Rerun, checksum_text
from parity.pipelines.outcome import Outcome
from parity.plan import PairPlan
from parity.results import judgement
from parity.results.examples import all_listed
from parity.results.summary import Findings, summarize
from parity.sides.side import Side, on_both
from parity.spark_settings import after_first_pass, grouped_by_key


def run(pair: PairPlan, source: Side, target: Side, rerun: Rerun) -> Outcome:
    names, rules = pair.source.column_names, pair.column_rules
    started = perf_counter()
    # A Spark side profiles a key that is not its own position by key (SparkSide.profile).
    by_key = nullcontext() if pair.source.key_is_position else grouped_by_key(source.spark)
    with by_key:
        profiles = on_both(source, target, "profile")
    profile_seconds = perf_counter() - started
    counts = (profiles[0].counts, profiles[1].counts)
    # Kept by the exact checksums, which a value moved within tolerance changes; the tolerant
    # ones drive the drill-down.
    tolerant = bool(pair.gridded_columns)
    checksums = (checksum_text(profiles[0]), checksum_text(profiles[1]))
    kept = rerun.unchanged_by_checksums(checksums)
    if kept is not None:
        return Outcome(Findings.none(), counts, SearchStats(), False, (), checksums, kept=kept)
    keys_flagged = enforce_keys(pair, counts, (source, target))
    after_first_pass(source.spark, sum(c.rows for c in counts))

    drilled = hashdiff(
        pair.name,
        source,
        target,
        pair.bisection_factor,
        pair.bisection_threshold,
        judgement.DrillLimits(pair) if pair.limited else None,
        profiles,
        tolerant=tolerant,
        profile_seconds=profile_seconds,
        last=reused_differences.last_differences(source.spark, pair, rerun),
    )
    findings = Findings.none() if drilled.diffs is None else summarize(drilled.diffs, names, rules)
    drilled.count_downloads()
    # Read back by key, a pair's differences are exact only where no key has two rows, and
    # where every value within tolerance was listed, not a few examples of them.
    unique = not any(c.duplicate_keys for c in counts)
    listed = all_listed(findings.drift_totals, pair.within_tolerance_examples)
    keeps = drilled.segments is not None and unique and listed
    keeps = keeps and reused_differences.keeps_segments(pair)
    segments = drilled.segments.text() if keeps else ""
    return Outcome(
        findings, counts, drilled.stats, keys_flagged, drilled.dead_letters, checksums, segments
    )
