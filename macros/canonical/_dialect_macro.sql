{#- Explicit dispatch on the dialect of the compared engine (not on the dbt adapter, which is
    always Spark here): returns the macro `<dialect>__<concept>` of this package. -#}
{% macro _dialect_macro(concept, dialect) %}
    {%- set implementation = parity.get(parity._dialect_family(dialect) ~ '__' ~ concept) -%}
    {%- if implementation is none -%}
        {{ exceptions.raise_compiler_error("parity: dialect '" ~ dialect ~ "' has no " ~ concept ~ " implementation") }}
    {%- endif -%}
    {{ return(implementation) }}
{% endmacro %}


{#- Dialects that share one SQL implementation. -#}
{% macro _dialect_family(dialect) %}
    {{ return({'databricks': 'spark'}.get(dialect, dialect)) }}
{% endmacro %}
