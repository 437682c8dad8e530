{#- Every run's results, one row per pair the run compared, appended as each run reconciles
    (a pair kept unchanged is not written again: parity_run_pairs points at its result): the
    history the published views read (the differences found in the data: parity_run_differences). A run's rows are visible through them only once parity_runs has
    published it. Only results computed from this run's own plan are appended: results a stopped
    run left in parity_pair_results never enter the history of a later run. -#}
select
    results.run_id,
    {{ parity.run_started_at_literal() }} as run_started_at,
    -- Every column the reconciliation writes (src/parity/results/pair_result.py, PairResult):
    -- its verdict (macros/publish/verdict_columns.sql), the state a re-run decides by, and what
    -- the result publishes beside its verdict.
    {%- for column in parity.verdict_columns() %}
        results.{{ column }},
    {%- endfor %}
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
    results.within_tolerance_examples,
    results.column_examples,
    results.differences,
    results.dead_letters
from {{ ref('parity_pair_results') }} as results
where
    results.run_id = '{{ invocation_id }}'
    and results.difference is null
    -- A pair kept unchanged is no result of this run: parity_run_pairs points at its own.
    and results.computed_run_id = results.run_id
