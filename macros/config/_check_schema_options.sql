{#- Validates a normalized pair's schema contract and key options (README, "Schema contracts" and
    "Key constraints"); each error names the pair, the option and the problem. -#}
{% macro _check_schema_options(where, pair) %}
    {%- for option, modes in [('compatibility', ['none', 'backward', 'forward', 'full']), ('enforce_key', ['error', 'warn', 'off'])] -%}
        {%- if pair[option] not in modes -%}
            {{ exceptions.raise_compiler_error(where ~ ": " ~ option ~ " must be " ~ (modes[:-1] | join(', ')) ~ " or " ~ modes[-1]
                ~ ", not '" ~ pair[option] ~ "'") }}
        {%- endif -%}
    {%- endfor -%}
    {%- set tolerance = pair['column_presence_tolerance'] -%}
    {%- if tolerance is not number or tolerance is boolean or (tolerance | int) != tolerance or tolerance < 0 -%}
        {{ exceptions.raise_compiler_error(where ~ ": column_presence_tolerance must be a whole number of at least 0, not '" ~ tolerance ~ "'") }}
    {%- endif -%}
{% endmacro %}
