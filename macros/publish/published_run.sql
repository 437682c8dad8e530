{#- The run the result views show: the last one parity_runs published. -#}
{% macro published_run() %}
    {{ return('(select run_id from ' ~ ref('parity', 'parity_runs') ~ ' order by published_at desc, run_id desc limit 1)') }}
{% endmacro %}
