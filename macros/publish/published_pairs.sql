{#- The published run's result of each pair, as (run_id, pair_name) of parity_run_results: the
    result the run computed, or the earlier one it kept for a pair that did not change. -#}
{% macro published_pairs() %}
    {{ return('(select computed_run_id, pair_name from ' ~ ref('parity', 'parity_run_pairs') ~ ' where run_id = ' ~ parity.published_run() ~ ')') }}
{% endmacro %}
