{#- The canonical select parity renders for a Spark relation holding one column of every kind
    it canonicalizes: `dbt compile` shows it, and sqlfluff lints it, which is how the dialect
    macros themselves are kept lint-clean. -#}
{%- set kinds = [
    ('order_id', {'kind': 'integer'}),
    ('amount', {'kind': 'decimal', 'scale': 2}),
    ('discount', {'kind': 'float', 'digits': 15}),
    ('is_gift', {'kind': 'boolean'}),
    ('status', {'kind': 'string'}),
    ('ship_date', {'kind': 'date'}),
    ('ordered_at', {'kind': 'timestamp'}),
    ('local_time', {'kind': 'timestamp_ntz'}),
    ('payload', {'kind': 'binary'}),
    ('attributes', {'kind': 'nested'}),
] -%}
{%- set columns = [] -%}
{%- for name, profile in kinds -%}
    {%- do columns.append({'name': name, 'profile': profile}) -%}
{%- endfor -%}
{{ parity.side_select('spark', 'lakehouse.orders', 1, columns) }}
