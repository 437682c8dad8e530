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


{#- The float grid's label of a double `value` as SQL: the nearest multiple of the step, through
    the sum with 1.5 * 2^52 steps (IEEE rounds it to a step, ties to even, in every engine);
    or the value rounded to 53 - s bits by Veltkamp's split, v*(2^s+1) - (v*(2^s+1) - v); or the
    value itself (NaN, infinities, and magnitudes outside both grids). `double` is the
    dialect's double type, for the constants. -#}
{% macro _float_grid(value, profile, double) %}
    {%- set grid = profile.get('grid') -%}
    {%- if grid is none -%}
        {{ return(value) }}
    {%- endif -%}
    {%- set constant = "cast('{}' as " ~ double ~ ")" -%}
    {%- set branches = [] -%}
    {%- if grid['step'] is not none -%}
        {%- set magic = constant.format(1.5 * 2.0 ** 52 * grid['step']) -%}
        {%- do branches.append("when abs(" ~ value ~ ") < " ~ constant.format(grid['relative_from']) ~ " then ((" ~ value ~ " + " ~ magic ~ ") - " ~ magic ~ ")") -%}
    {%- else -%}
        {%- do branches.append("when abs(" ~ value ~ ") < " ~ constant.format(grid['relative_from']) ~ " then " ~ value) -%}
    {%- endif -%}
    {%- if grid['dropped_bits'] -%}
        {%- set split = "(" ~ value ~ " * " ~ constant.format((2 ** grid['dropped_bits'] + 1) ~ '') ~ ")" -%}
        {%- do branches.append("when abs(" ~ value ~ ") < " ~ constant.format(grid['relative_below']) ~ " then (" ~ split ~ " - (" ~ split ~ " - " ~ value ~ "))") -%}
    {%- endif -%}
    {{ return("(case " ~ branches | join(' ') ~ " else " ~ value ~ " end)") }}
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
