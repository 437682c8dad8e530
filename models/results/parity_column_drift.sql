{#- Per-column drift of every published run, one row per run, pair and compared column: the
    time series of how far each column drifts (values out of and within tolerance, errors,
    temporal lag), with the configuration and tolerance that produced it, how many of its values
    within tolerance parity_differences lists (NULL in runs of a parity that listed every one),
    and the pattern its differences follow, if one holds on nearly every compared row (NULL in
    runs of a parity that did not look for one). -#}
with drift as (
    select
        run_results.run_id,
        run_results.run_started_at,
        run_results.pair_name,
        run_results.config_hash,
        run_results.tolerance_hash,
        run_results.column_patterns,
        run_results.column_examples,
        inline(run_results.column_stats) as (
            column_name,
            values_compared,
            out_of_tolerance,
            within_tolerance,
            null_on_one_side,
            max_abs_error,
            mean_abs_error,
            max_relative_error,
            mean_relative_error,
            max_lag_ms,
            p99_lag_ms,
            coverage
        )
    from {{ ref('parity_run_results') }} as run_results
    where run_results.run_id in (select runs.run_id from {{ ref('parity_runs') }} as runs)
)

select
    drift.run_id,
    drift.run_started_at,
    drift.pair_name,
    drift.config_hash,
    drift.tolerance_hash,
    drift.column_name,
    drift.values_compared,
    drift.out_of_tolerance,
    drift.within_tolerance,
    try_element_at(
        filter(drift.column_examples, listed -> listed.column_name = drift.column_name), 1
    ).within_tolerance_listed as within_tolerance_listed,
    drift.null_on_one_side,
    drift.max_abs_error,
    drift.mean_abs_error,
    drift.max_relative_error,
    drift.mean_relative_error,
    drift.max_lag_ms,
    drift.p99_lag_ms,
    drift.coverage,
    try_element_at(
        filter(drift.column_patterns, found -> found.column_name = drift.column_name), 1
    ).pattern as pattern,
    try_element_at(
        filter(drift.column_patterns, found -> found.column_name = drift.column_name), 1
    ).pattern_note as pattern_note
from drift
