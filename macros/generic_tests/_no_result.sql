{#- The condition of a generic test's "no result" row: true when the pair has no complete result
    in the published run (parity_summary), so that a pair that was not reconciled, or failed
    (status `error`), fails the test. -#}
{% macro _no_result(pair) -%}
not exists (
    select 1 from {{ ref('parity', 'parity_summary') }}
    where pair_name = {{ parity._spark_string_literal(pair) }} and status = 'complete'
)
{%- endmacro %}
