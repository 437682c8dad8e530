{#- The names every side's canonical select gives its columns, one home for the macros and (through
    parity_plan) the Python library: `__parity_k<i>` for the i-th key, `__parity_c<i>` for the
    i-th compared column, `__parity_t<i>` for its tolerant text when hashed on a grid,
    `__parity_pos` for the key position, `__parity_hash` for the row hash, `__parity_exact` for
    the exact row hash of a row whose hash is tolerant (the first pass's exact checksum) and
    `__parity_native` for joindiff's native row hash (parity.native_select). -#}
{% macro column_aliases(key_count, value_count) %}
    {%- set keys, values = [], [] -%}
    {%- for index in range(key_count) -%}
        {%- do keys.append('__parity_k' ~ index) -%}
    {%- endfor -%}
    {%- for index in range(value_count) -%}
        {%- do values.append('__parity_c' ~ index) -%}
    {%- endfor -%}
    {{ return({'keys': keys, 'values': values, 'position': '__parity_pos', 'hash': '__parity_hash', 'exact_hash': '__parity_exact', 'native_hash': '__parity_native'}) }}
{% endmacro %}


{#- The alias of the exact row hash of a side whose columns are `columns`: its own where a column
    hashes on a tolerance's grid, else the row hash, which is exact. -#}
{% macro exact_hash_alias(aliases, columns) %}
    {{ return(aliases['exact_hash'] if columns | selectattr('hash_grid') | list else aliases['hash']) }}
{% endmacro %}


{#- The alias of the tolerant text of the compared column whose alias is `value_alias`. -#}
{% macro tolerant_alias(value_alias) %}
    {{ return(value_alias.replace('__parity_c', '__parity_t')) }}
{% endmacro %}
