{#- A float's canonical text: part of the dialects' shared base (macros/dialects/base/), which each
    dialect's macros call with its engine's functions. The base calls no concept macro, so calls run
    one way: canonical/ → dialects/ → base/. -#}

{#- A float's canonical text, given the dialect's double value (already narrowed to float32 when
    the pair negotiated 32 bits), its spelling of NaN (equal to itself in every engine here) and
    of positive infinity, and its C99 `%.13a` text of a finite non-zero value. -#}
{% macro _float_text(value, nan, infinity, hex_text) %}
    {{ return(
        "case when " ~ value ~ " is null then null"
        ~ " when " ~ value ~ " = " ~ nan ~ " then 'NaN'"
        ~ " when " ~ value ~ " = " ~ infinity ~ " then 'Infinity'"
        ~ " when " ~ value ~ " = -" ~ infinity ~ " then '-Infinity'"
        ~ " when " ~ value ~ " = 0 then '0'"
        ~ " else " ~ hex_text ~ " end"
    ) }}
{% endmacro %}
