{#- The canonical text of one value (NULL stays NULL), after the negotiated profile of its column
    pair: the same value renders to the same text on every engine. docs/canonical-encoding.md is
    the contract; each dialect's `<dialect>__canonical_value` in macros/dialects/ implements it
    for the kinds integer, decimal, float, boolean_text, string, uuid, date, timestamp,
    timestamp_ntz, binary and nested, and leaves to `default__canonical_value` the kinds every
    dialect spells alike (boolean). -#}
{% macro canonical_value(dialect, expression, profile) %}
    {%- set text = parity._dialect_macro('canonical_value', dialect)(expression, profile) -%}
    {%- if text is none -%}
        {%- set text = parity.default__canonical_value(expression, profile) -%}
    {%- endif -%}
    {%- if text is none -%}
        {{ exceptions.raise_compiler_error("parity: " ~ dialect ~ " cannot canonicalize a value of kind '" ~ profile['kind'] ~ "'") }}
    {%- endif -%}
    {{ return(text) }}
{% endmacro %}
