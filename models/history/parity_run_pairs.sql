{#- Every run's pairs, one row per run and pair, appended as each run reconciles: what the run did
    with the pair (compared it, or kept its last result because nothing it depends on changed)
    and why, and the run whose result it publishes for the pair (`computed_run_id`, itself when
    compared). The published views follow it to that run's rows of parity_run_results and
    parity_run_differences, so a kept result is never copied into the history. With them, this
    run's input fingerprints and the state hash over them and that result's state: the next run
    decides by these (macros/plan/previous_states.sql). -#}
select
    results.run_id,
    {{ parity.run_started_at_literal() }} as run_started_at,
    results.pair_name,
    results.computed_run_id,
    results.run_mode,
    results.run_mode_reason,
    results.source_fingerprint,
    results.target_fingerprint,
    results.state_hash
from {{ ref('parity_pair_results') }} as results
where results.run_id = '{{ invocation_id }}' and results.difference is null
