{#- The published run's verdict of each pair: the result it computed, or the earlier result it
    kept for a pair that did not change (`run_id` says which run computed it, `run_mode` which it
    was and why). -#}
select
    results.run_id,
    results.run_started_at,
    -- The verdict (macros/publish/verdict_columns.sql).
    {%- for column in parity.verdict_columns() %}
        results.{{ column }},
    {%- endfor %}
    results.dead_letters,
    pairs.run_mode,
    pairs.run_mode_reason
from {{ ref('parity_run_pairs') }} as pairs
inner join {{ ref('parity_run_results') }} as results
    on pairs.computed_run_id = results.run_id and pairs.pair_name = results.pair_name
where pairs.run_id = {{ parity.published_run() }}
