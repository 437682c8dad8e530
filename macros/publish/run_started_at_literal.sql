{#- When this dbt run started (dbt's run_started_at, UTC), as a Spark timestamp literal. -#}
{% macro run_started_at_literal() %}
    {{ return(parity.timestamp_literal('spark', run_started_at.strftime('%Y-%m-%d %H:%M:%S.%f'), 'timestamp')) }}
{% endmacro %}
