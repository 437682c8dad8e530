{#- A UTC instant as a literal the dialect compares with a column of the given kind (timestamp,
    timestamp_ntz or date): for the bounds of a pair's time window. -#}
{% macro timestamp_literal(dialect, utc_text, kind) %}
    {{ return(parity._dialect_macro('timestamp_literal', dialect)(utc_text, kind)) }}
{% endmacro %}
