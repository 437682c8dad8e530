{#- How a value is rendered on the grid macros/tolerance/hash_grid.sql chose for its column: the
    label of its cell, as SQL of the side's dialect, hashed in segment checksums instead of its
    exact canonical text. -#}

{#- The text a tolerant column contributes to the row hash of segment checksums: its canonical
    text (docs/canonical-encoding.md) of the grid's label of the value. -#}
{% macro tolerant_text(dialect, expression, profile, grid) %}
    {%- if grid['kind'] == 'string' -%}
        {{ return(parity._string_grid(dialect, parity.canonical_value(dialect, expression, profile), grid)) }}
    {%- endif -%}
    {%- set gridded = {'grid': grid} -%}
    {%- do gridded.update(profile) -%}
    {{ return(parity.canonical_value(dialect, expression, gridded)) }}
{% endmacro %}


{#- The string grid's label of canonical text as SQL, in the dialect's functions. -#}
{% macro _string_grid(dialect, text, grid) %}
    {%- if grid['trim'] -%}
        {%- set text = parity._dialect_macro('trim_spaces', dialect)(text) -%}
    {%- endif -%}
    {%- if grid['case_insensitive'] -%}
        {%- set text = parity._dialect_macro('ascii_lower', dialect)(text) -%}
    {%- endif -%}
    {{ return(("nullif(" ~ text ~ ", '')") if grid['empty_equals_null'] else text) }}
{% endmacro %}
