{#- The integer position of a key value in the key space that segmentation splits, in a type
    wide enough for exact cell arithmetic on that engine; none when the key's type cannot be
    segmented (the pair then needs joindiff). -#}
{% macro key_position(dialect, expression, profile) %}
    {%- set position_type = {'spark': 'bigint', 'duckdb': 'hugeint', 'postgres': 'numeric'}.get(parity._dialect_family(dialect)) -%}
    {%- if position_type is none -%}
        {{ exceptions.raise_compiler_error("parity: dialect '" ~ dialect ~ "' has no key_position implementation") }}
    {%- endif -%}
    {{ return(('cast(' ~ expression ~ ' as ' ~ position_type ~ ')') if profile['kind'] == 'integer' else none) }}
{% endmacro %}
