{#- The log of published runs, one row each: appended only when this run's results in
    parity_run_results pass their consistency audits (macros/publish/audit_run.sql), so an
    audit that fails leaves the previous run published. -#}
{%- set history = ref('parity_run_results') -%}
{%- set differences = ref('parity_run_differences') -%}
{%- set results = ref('parity_pair_results') -%}
{#- Only when a run or build executes this model: compiling it (docs, linting) audits nothing. -#}
{%- if execute and flags.WHICH in ['run', 'build'] -%}
    {%- do parity.audit_run(history, differences, results, invocation_id, parity.parity_pairs() | map(attribute='name') | list) -%}
{%- endif %}
select
    '{{ invocation_id }}' as run_id,
    {{ parity.run_started_at_literal() }} as run_started_at,
    current_timestamp() as published_at,
    count(*) as pairs,
    count_if(passed) as pairs_passed
from {{ history }}
where run_id = '{{ invocation_id }}'
