{#- The integer position of a key value in the key space that segmentation splits; none when the
    key's type cannot be segmented (the pair then needs joindiff). -#}
{% macro key_position(dialect, expression, profile) %}
    {{ return(parity._dialect_macro('key_position', dialect)(expression, profile)) }}
{% endmacro %}


{% macro spark__key_position(expression, profile) %}
    {%- if profile['kind'] == 'integer' -%}
        {{ return('cast(' ~ expression ~ ' as bigint)') }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}


{% macro duckdb__key_position(expression, profile) %}
    {%- if profile['kind'] == 'integer' -%}
        {{ return('cast(' ~ expression ~ ' as hugeint)') }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}


{% macro postgres__key_position(expression, profile) %}
    {%- if profile['kind'] == 'integer' -%}
        {{ return('cast(' ~ expression ~ ' as numeric)') }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}
