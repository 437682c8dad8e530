{#- The integer position of a key value in the key space that segmentation splits, in a type
    wide enough for exact cell arithmetic on that engine (`<dialect>__key_position`). -#}
{% macro key_position(dialect, expression) %}
    {{ return(parity._dialect_macro('key_position', dialect)(expression)) }}
{% endmacro %}


{#- Whether a pair's key is its own position: a single integer key. Any other key is positioned
    by the hash of its canonical fields (parity.side_select). -#}
{% macro key_is_position(key_count, columns) %}
    {{ return(key_count == 1 and columns[0]['profile']['kind'] == 'integer') }}
{% endmacro %}
