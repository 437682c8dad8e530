{#- A side's schema as its engine reports it, one entry per column in order (parity_schema_snapshots):
    the declared type, its precision and scale (a decimal's digits, a timestamp's fractional
    digits), a string's maximum length, nullability (none where the engine does not say) and the
    nested fields. Its hash (src/parity/plan.py) tells two schemas apart. -#}
{% macro schema_snapshot(described) %}
    {%- set snapshot = [] -%}
    {%- for column in described -%}
        {%- set kind = column['profile']['kind'] -%}
        {%- set declared = parity._type_text(column['data_type'])['numbers'] -%}
        {%- do snapshot.append({
            'ordinal': loop.index0,
            'column_name': column['name'],
            'data_type': column['data_type'],
            'nullable': column['nullable'],
            'precision': column['profile']['digits'] if kind in ['timestamp', 'timestamp_ntz'] else (declared[0] if kind == 'decimal' else none),
            'scale': ((declared[1] or 0) if declared[0] is not none else none) if kind == 'decimal' else none,
            'max_length': declared[0] if kind == 'string' else none,
            'nested_fields': column['fields'],
        }) -%}
    {%- endfor -%}
    {{ return(snapshot) }}
{% endmacro %}
