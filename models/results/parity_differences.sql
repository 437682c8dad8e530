{#- The published run's differences: those found in the pairs' data, then each pair's schema
    findings. -#}
select
    run_id,
    pair_name,
    key,
    kind,
    column_name,
    source_value,
    target_value,
    delta,
    relative_error,
    source_canonical,
    target_canonical,
    source_hash,
    target_hash
from {{ ref('parity_run_differences') }}
where (run_id, pair_name) in {{ parity.published_pairs() }}
union all
select
    run_id,
    pair_name,
    inline(differences) as (
        key,
        kind,
        column_name,
        source_value,
        target_value,
        delta,
        relative_error,
        source_canonical,
        target_canonical,
        source_hash,
        target_hash
    )
from {{ ref('parity_run_results') }}
where (run_id, pair_name) in {{ parity.published_pairs() }}
