{#- The spellings of a boolean in a string: part of the dialects' shared base
    (macros/dialects/base/), which each dialect's macros call with its engine's functions. The base
    calls no concept macro, so calls run one way: canonical/ → dialects/ → base/. -#}

{#- A string column that may hold booleans ('t'/'f', 'true'/'false', 'yes'/'no', '0'/'1', any
    case) paired with a boolean column: those spellings become '1'/'0', anything else stays as it
    is and so shows as a difference. -#}
{% macro _boolean_text(expression) %}
    {%- set spelled = 'lower(trim(' ~ expression ~ '))' -%}
    {{ return(
        "case when " ~ spelled ~ " in ('t', 'true', 'y', 'yes', '1') then '1'"
        ~ " when " ~ spelled ~ " in ('f', 'false', 'n', 'no', '0') then '0'"
        ~ " else " ~ expression ~ " end"
    ) }}
{% endmacro %}
