{#- Fails with one row per change in the pair's schema diff that `mode` (none, backward, forward or
    full) does not accept, or one row if the pair has no result. Tune with warn_if / error_if. -#}
{% test schema_compatible(model, pair, mode) %}
    {{ config(fail_calc='count(*)') }}
    {%- set rejected = {
        'none': 'false',
        'backward': 'not backward_compatible',
        'forward': 'not forward_compatible',
        'full': 'not (backward_compatible and forward_compatible)',
    } -%}
    {%- if mode not in rejected -%}
        {{ exceptions.raise_compiler_error("parity.schema_compatible on pair '" ~ pair ~ "': mode must be none, backward, forward or full, not '" ~ mode ~ "'") }}
    {%- endif -%}
    {%- set pair_literal = parity._spark_string_literal(pair) -%}
select
    pair_name,
    column_name,
    field_path,
    change,
    source_type,
    target_type
from {{ ref('parity', 'parity_schema_diff') }}
where pair_name = {{ pair_literal }} and {{ rejected[mode] }}
union all
select
    {{ pair_literal }} as pair_name,
    cast(null as string) as column_name,
    cast(null as string) as field_path,
    'not_reconciled' as change,
    cast(null as string) as source_type,
    cast(null as string) as target_type
where {{ parity._no_result(pair) }}
{% endtest %}
