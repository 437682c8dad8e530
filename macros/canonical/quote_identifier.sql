{#- A quoted identifier in the dialect of the compared engine. -#}
{% macro quote_identifier(dialect, name) %}
    {{ return(parity._dialect_macro('quote_identifier', dialect)(name)) }}
{% endmacro %}
