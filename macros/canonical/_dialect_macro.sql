{#- Explicit dispatch on the dialect of the compared engine (not on the dbt adapter, which is
    always Spark here): returns the macro `<dialect>__<concept>` of this package, or
    `default__<concept>` (macros/dialects/default.sql) where the dialect renders it as every
    other does. -#}
{% macro _dialect_macro(concept, dialect) %}
    {%- set implementation = parity.get(parity._dialect_family(dialect) ~ '__' ~ concept) or parity.get('default__' ~ concept) -%}
    {%- if implementation is none -%}
        {{ exceptions.raise_compiler_error("parity: dialect '" ~ dialect ~ "' has no " ~ concept ~ " implementation") }}
    {%- endif -%}
    {{ return(implementation) }}
{% endmacro %}


{#- Dialects that share one SQL implementation. -#}
{% macro _dialect_family(dialect) %}
    {{ return({'databricks': 'spark'}.get(dialect, dialect)) }}
{% endmacro %}
