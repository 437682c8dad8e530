{#- Every run's results, one row per pair and run, appended as each run reconciles: the history
    the published views read. A run's rows are visible through them only once parity_runs has
    published it. -#}
select
    '{{ invocation_id }}' as run_id,
    {{ parity.run_started_at_literal() }} as run_started_at,
    results.*
from {{ ref('parity_pair_results') }} as results
