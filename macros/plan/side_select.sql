{#- The canonical select of one side of a pair, in that side's dialect: the key position that
    segmentation splits, the canonical key and column values, and the row hash. The Python
    library only filters and groups this relation; it never builds canonical SQL itself.
    `columns` lists {name, profile} in comparison order, keys first. -#}
{% macro side_select(dialect, relation_name, key_count, columns) %}
    {%- set canonical = [] -%}
    {%- for column in columns -%}
        {%- set alias = ('__parity_k' ~ loop.index0) if loop.index0 < key_count else ('__parity_c' ~ (loop.index0 - key_count)) -%}
        {%- do canonical.append({
            'alias': alias,
            'sql': parity.canonical_value(dialect, parity.quote_identifier(dialect, column['name']), column['profile']),
        }) -%}
    {%- endfor -%}
    {%- set position = parity.key_position(dialect, parity.quote_identifier(dialect, columns[0]['name']), columns[0]['profile']) -%}
select
    canonical.*,
    {{ parity.row_hash(dialect, canonical | map(attribute='alias') | list) }} as __parity_hash
from (
    select
        {{ position if position is not none else 'null' }} as __parity_pos,
        {%- for value in canonical %}
        {{ value['sql'] }} as {{ value['alias'] }}{{ ',' if not loop.last }}
        {%- endfor %}
    from {{ relation_name }}
) as canonical
{%- endmacro %}
