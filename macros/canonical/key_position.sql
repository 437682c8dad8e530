{#- The integer position of a key value in the key space that segmentation splits, in a type
    wide enough for exact cell arithmetic on that engine (`<dialect>__key_position`). -#}
{% macro key_position(dialect, expression) %}
    {{ return(parity._dialect_macro('key_position', dialect)(expression)) }}
{% endmacro %}
