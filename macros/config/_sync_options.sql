{#- A pair's `sync` options, validated and with their defaults: how its corrections are applied
    (README, "Correcting the target"). They say nothing of how the pair is compared, so the
    pair's config_hash leaves them out (src/parity/plan.py). -#}
{% macro _sync_options(where, sync) %}
    {%- set defaults = {'direction': 'source_to_target', 'max_corrections': '1%', 'apply_connection_env': none} -%}
    {%- set allowed = defaults.keys() | join(', ') -%}
    {%- if sync is not mapping -%}
        {{ exceptions.raise_compiler_error(where ~ ": 'sync' must be a mapping of " ~ allowed ~ ", not '" ~ sync ~ "'") }}
    {%- endif -%}
    {%- for option in sync if option not in defaults -%}
        {{ exceptions.raise_compiler_error(where ~ ": unknown sync option '" ~ option ~ "' (allowed: " ~ allowed ~ ")") }}
    {%- endfor -%}
    {%- set options = {} -%}
    {%- do options.update(defaults) -%}
    {%- do options.update(sync) -%}
    {%- if options['direction'] not in ['source_to_target', 'target_to_source'] -%}
        {{ exceptions.raise_compiler_error(where ~ ": sync direction must be source_to_target or target_to_source, not '" ~ options['direction'] ~ "'") }}
    {%- endif -%}
    {#- A whole number of rows, or a percentage of the corrected side's rows ('1%'). -#}
    {%- set limit = options['max_corrections'] -%}
    {%- set share = limit[:-1] if limit is string and limit.endswith('%') else none -%}
    {%- set valid = (limit is number and limit is not boolean and (limit | int) == limit and limit >= 0)
        or (share is not none and parity._tolerance_number(share) is not none and 0 <= parity._tolerance_number(share) <= 100) -%}
    {%- if not valid -%}
        {{ exceptions.raise_compiler_error(where ~ ": sync max_corrections must be a whole number of at least 0 or a percentage from 0% to 100%, not '" ~ limit ~ "'") }}
    {%- endif -%}
    {%- set variable = options['apply_connection_env'] -%}
    {%- if variable is not none and (variable is not string or not variable) -%}
        {{ exceptions.raise_compiler_error(where ~ ": sync apply_connection_env must name an environment variable, not '" ~ variable ~ "'") }}
    {%- endif -%}
    {{ return(options) }}
{% endmacro %}
