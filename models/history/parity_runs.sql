{#- The log of published runs, one row each: appended only when this run's results in
    parity_run_results pass their consistency audits (macros/publish/audit_run.sql), so an
    audit that fails leaves the previous run published. -#}
{%- set history = ref('parity_run_results') -%}
{%- set differences = ref('parity_run_differences') -%}
{%- set results = ref('parity_pair_results') -%}
{%- set run_pairs = ref('parity_run_pairs') -%}
{#- Only when a run or build executes this model: compiling it (docs, linting) audits nothing. -#}
{%- if execute and flags.WHICH in ['run', 'build'] -%}
    {%- do parity.audit_run(history, differences, results, run_pairs, invocation_id, parity.parity_pairs() | map(attribute='name') | list) -%}
{%- endif %}
select
    '{{ invocation_id }}' as run_id,
    {{ parity.run_started_at_literal() }} as run_started_at,
    current_timestamp() as published_at,
    count(*) as pairs,
    count_if(results.passed) as pairs_passed,
    count_if(results.status = 'error') as pairs_in_error,
    count_if(pairs.run_mode = 'unchanged') as pairs_unchanged
from {{ run_pairs }} as pairs
inner join {{ history }} as results
    on pairs.computed_run_id = results.run_id and pairs.pair_name = results.pair_name
where pairs.run_id = '{{ invocation_id }}'
