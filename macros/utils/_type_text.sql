{#- What a declared type's text says, read once for every macro that needs it: `name`, the type
    lower-cased without its parenthesized parts (`timestamp with time zone` of
    `timestamp(3) with time zone`, `decimal unsigned` of `decimal(12,2) unsigned`); `leading`,
    the name before any precision, element type or modifier (`array` of array<int>, `character`
    of character varying(20)); `numbers`, the first two numbers it declares in parentheses,
    none where absent (decimal(12,2) gives [12, 2], varchar(20) [20, none], text [none, none]). -#}
{% macro _type_text(data_type) %}
    {%- set text = data_type | lower | trim -%}
    {%- set name = modules.re.sub('\\([^)]*\\)', '', text) | trim -%}
    {%- set declared = modules.re.search('\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\)', text) -%}
    {%- set numbers = [none, none] if not declared
        else [declared.group(1) | int, none if declared.group(2) is none else declared.group(2) | int] -%}
    {{ return({'name': name, 'leading': modules.re.split('[<(\\[ ]', name)[0], 'numbers': numbers}) }}
{% endmacro %}
