{#- Fails when the pair's verdict is not passed (a difference beyond tolerance, more row drift
    than max_row_drift_pct accepts, or a schema finding), or when the pair has no result. -#}
{% test in_parity(model, pair) %}
    {%- set pair_literal = parity._spark_string_literal(pair) -%}
select
    pair_name,
    value_mismatch_rows,
    row_drift_pct,
    schema_findings
from {{ ref('parity', 'parity_summary') }}
where pair_name = {{ pair_literal }} and not passed
union all
select
    {{ pair_literal }} as pair_name,
    cast(null as bigint) as value_mismatch_rows,
    cast(null as double) as row_drift_pct,
    cast(null as bigint) as schema_findings
where {{ parity._no_result(pair) }}
{% endtest %}
