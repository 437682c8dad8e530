{#- The row string the row hash is taken of: part of the dialects' shared base
    (macros/dialects/base/), which each dialect's macros call with its engine's functions. The base
    calls no concept macro, so calls run one way: canonical/ → dialects/ → base/. -#}

{#- The row string: `<characters>:<text>` per field, `-` for NULL, given the dialect's function
    counting characters (code points) and its text type. -#}
{% macro _row_string(canonical_expressions, char_length, text_type) %}
    {%- set fields = [] -%}
    {%- for value in canonical_expressions -%}
        {%- do fields.append("case when " ~ value ~ " is null then '-' else concat(cast(" ~ char_length ~ "(" ~ value ~ ") as "
            ~ text_type ~ "), ':', " ~ value ~ ") end") -%}
    {%- endfor -%}
    {{ return('concat(' ~ fields | join(', ') ~ ')') }}
{% endmacro %}
