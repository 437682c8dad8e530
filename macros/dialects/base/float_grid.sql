{#- A float on its tolerance's grid: part of the dialects' shared base (macros/dialects/base/),
    which each dialect's macros call with its engine's functions. The base calls no concept macro,
    so calls run one way: canonical/ → dialects/ → base/. -#}

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
