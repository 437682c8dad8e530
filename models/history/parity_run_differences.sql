{#- Every run's differences found in the pairs' data, one row each, appended as each run
    reconciles, beside parity_run_results (which holds each pair's schema findings). Written by
    Spark from the reconciliation's own rows: however many differences a pair has, none is
    gathered into one row. Visible through parity_differences only once parity_runs has
    published the run. -#}
select
    results.run_id,
    {{ parity.run_started_at_literal() }} as run_started_at,
    results.pair_name,
    results.difference.key,
    results.difference.kind,
    results.difference.column_name,
    results.difference.source_value,
    results.difference.target_value,
    results.difference.delta,
    results.difference.relative_error,
    results.difference.source_canonical,
    results.difference.target_canonical,
    results.difference.source_hash,
    results.difference.target_hash
from {{ ref('parity_pair_results') }} as results
where results.run_id = '{{ invocation_id }}' and results.difference is not null
