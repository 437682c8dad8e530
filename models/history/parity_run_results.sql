{#- Every run's results, one row per pair the run compared, appended as each run reconciles
    (a pair kept unchanged is not written again: parity_run_pairs points at its result): the
    history the published views read (the differences found in the data: parity_run_differences). A run's rows are visible through them only once parity_runs has
    published it. Only results computed from this run's own plan are appended: results a stopped
    run left in parity_pair_results never enter the history of a later run. -#}
select
    results.run_id,
    {{ parity.run_started_at_literal() }} as run_started_at,
    -- Every column the reconciliation writes (src/parity/results/pair_result.py, PairResult).
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
    results.within_tolerance_counted,
    results.differing_rows,
    results.schema_findings,
    results.row_drift_pct,
    results.passed,
    results.halted,
    results.checksum_passes,
    results.segments_checked,
    results.segments_reused,
    results.rows_moved,
    results.source_rows_moved,
    results.target_rows_moved,
    results.elapsed_seconds,
    results.config_hash,
    results.tolerance_hash,
    results.filters,
    results.data_compared,
    results.schema_compatible,
    results.source_schema_hash,
    results.target_schema_hash,
    results.source_null_keys,
    results.source_duplicate_keys,
    results.target_null_keys,
    results.target_duplicate_keys,
    results.keys_flagged,
    results.status,
    results.status_reason,
    results.source_fingerprint,
    results.target_fingerprint,
    results.source_checksum,
    results.target_checksum,
    results.segment_checksums,
    results.state_hash,
    results.source_schema_snapshot,
    results.target_schema_snapshot,
    results.schema_diff,
    results.compatibility,
    results.column_stats,
    results.column_patterns,
    results.differences,
    results.dead_letters
from {{ ref('parity_pair_results') }} as results
where
    results.run_id = '{{ invocation_id }}'
    and results.difference is null
    -- A pair kept unchanged is no result of this run: parity_run_pairs points at its own.
    and results.computed_run_id = results.run_id
