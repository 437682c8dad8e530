{#- Per-column drift of every published run, one row per run, pair and compared column: the
    time series of how far each column drifts (values out of and within tolerance, errors,
    temporal lag), with the configuration and tolerance that produced it. -#}
select
    run_results.run_id,
    run_results.run_started_at,
    run_results.pair_name,
    run_results.config_hash,
    run_results.tolerance_hash,
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
