{#- The published run's corrections: what an apply of it would write. -#}
select
    run_id,
    run_started_at,
    pair_name,
    direction,
    corrected_relation,
    key,
    operation,
    copies,
    whole_key,
    new_values,
    values_at_apply,
    before_image
from {{ ref('parity_run_corrections') }}
where (run_id, pair_name) in {{ parity.published_pairs() }}
