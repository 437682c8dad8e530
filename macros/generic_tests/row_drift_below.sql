{#- Fails when the pair's row drift (rows missing or extra on either side, as a percentage of the
    larger side) exceeds max_pct, or when the pair has no result. -#}
{% test row_drift_below(model, pair, max_pct) %}
    {%- set pair_literal = parity._spark_string_literal(pair) -%}
    {%- if max_pct is not number or max_pct is boolean or max_pct < 0 -%}
        {{ exceptions.raise_compiler_error("parity.row_drift_below on pair '" ~ pair ~ "': max_pct must be a number of at least 0, not '" ~ max_pct ~ "'") }}
    {%- endif -%}
select
    pair_name,
    row_drift_pct,
    differing_rows
from {{ ref('parity', 'parity_summary') }}
where pair_name = {{ pair_literal }} and row_drift_pct > {{ max_pct }}
union all
select
    {{ pair_literal }} as pair_name,
    cast(null as double) as row_drift_pct,
    cast(null as bigint) as differing_rows
where {{ parity._no_result(pair) }}
{% endtest %}
