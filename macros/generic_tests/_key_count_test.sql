{#- The failing rows of a key test: the side's count from parity_summary when it is not zero (NULL
    when the keys were not counted), or a NULL count when the pair has no result. -#}
{% macro _key_count_test(pair, side, count) %}
    {%- if side not in ['source', 'target'] -%}
        {{ exceptions.raise_compiler_error("parity key test on pair '" ~ pair ~ "': side must be source or target, not '" ~ side ~ "'") }}
    {%- endif -%}
    {%- set pair_literal = parity._spark_string_literal(pair) -%}
    {%- set column = side ~ '_' ~ count -%}
select
    pair_name,
    '{{ side }}' as side,
    {{ column }} as {{ count }}
from {{ ref('parity', 'parity_summary') }}
where pair_name = {{ pair_literal }} and coalesce({{ column }}, 1) > 0
union all
select
    {{ pair_literal }} as pair_name,
    '{{ side }}' as side,
    cast(null as bigint) as {{ count }}
where {{ parity._no_result(pair) }}
{% endmacro %}
