{#- Every run's results, one row per pair and run, appended as each run reconciles: the history
    the published views read. A run's rows are visible through them only once parity_runs has
    published it. -#}
select
    '{{ invocation_id }}' as run_id,
    {{ parity.run_started_at_literal() }} as run_started_at,
    -- Every column the reconciliation writes (src/parity/results.py, RESULT_SCHEMA).
    results.pair_name,
    results.source_relation,
    results.target_relation,
    results.algorithm,
    results.source_rows,
    results.target_rows,
    results.missing_in_target_rows,
    results.missing_in_source_rows,
    results.value_mismatch_rows,
    results.duplicate_in_source_rows,
    results.duplicate_in_target_rows,
    results.within_tolerance_rows,
    results.mismatched_values,
    results.within_tolerance_values,
    results.differing_rows,
    results.schema_findings,
    results.row_drift_pct,
    results.passed,
    results.halted,
    results.checksum_passes,
    results.segments_checked,
    results.rows_moved,
    results.source_rows_moved,
    results.target_rows_moved,
    results.elapsed_seconds,
    results.config_hash,
    results.tolerance_hash,
    results.filters,
    results.column_stats,
    results.differences
from {{ ref('parity_pair_results') }} as results
