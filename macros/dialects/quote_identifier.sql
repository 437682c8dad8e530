{#- A quoted identifier in the dialect of the compared engine. -#}
{% macro quote_identifier(dialect, name) %}
    {{ return(parity._dialect_macro('quote_identifier', dialect)(name)) }}
{% endmacro %}


{% macro spark__quote_identifier(name) %}
    {{ return('`' ~ (name | string).replace('`', '``') ~ '`') }}
{% endmacro %}


{% macro duckdb__quote_identifier(name) %}
    {{ return(parity._double_quoted(name)) }}
{% endmacro %}


{% macro postgres__quote_identifier(name) %}
    {{ return(parity._double_quoted(name)) }}
{% endmacro %}


{% macro _double_quoted(name) %}
    {{ return('"' ~ (name | string).replace('"', '""') ~ '"') }}
{% endmacro %}
