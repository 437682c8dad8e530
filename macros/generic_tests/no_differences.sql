{#- Fails with one row per difference beyond the pair's tolerance (within_tolerance differences do
    not count), or one row if the pair has no result at all: a pair that was not reconciled is
    not in parity. Tune with warn_if / error_if. -#}
{% test no_differences(model, pair) %}
    {{ config(fail_calc='count(*)') }}
    {%- set pair_literal = parity._spark_string_literal(pair) -%}
select
    pair_name,
    key,
    kind,
    column_name,
    source_value,
    target_value
from {{ ref('parity', 'parity_differences') }}
where pair_name = {{ pair_literal }} and kind != 'within_tolerance'
union all
select
    {{ pair_literal }} as pair_name,
    cast(null as string) as key,
    'not_reconciled' as kind,
    cast(null as string) as column_name,
    cast(null as string) as source_value,
    cast(null as string) as target_value
where {{ parity._no_result(pair) }}
{% endtest %}
