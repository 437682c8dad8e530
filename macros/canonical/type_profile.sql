{#- What a declared column type means for canonicalization: its kind and the precision it
    carries. Each dialect (`<dialect>__type_profile` in macros/dialects/) lists its type names by
    kind and its traits; names are matched without their parenthesized precision. -#}
{% macro type_profile(dialect, data_type) %}
    {{ return(parity._dialect_macro('type_profile', dialect)(data_type | lower | trim)) }}
{% endmacro %}
