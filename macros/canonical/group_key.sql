{#- What a query groups a canonical key field by, so that two keys are one group only where their
    canonical texts are the same characters: the field itself, or where the engine compares text
    by a collation that ignores trailing spaces, its bytes (`<dialect>__group_key`). -#}
{% macro group_key(dialect, expression) %}
    {{ return(parity._dialect_macro('group_key', dialect)(expression)) }}
{% endmacro %}
