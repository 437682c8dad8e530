{#- How many pairs the reconciliation runs at once (the var `parity_concurrent_pairs`, which
    parity_pair_results reads through its meta, set in its properties: a package's
    dbt_project.yml never sees the vars): checked where the plan starts, so a bad value fails the
    run before any row is read. -#}
{% macro concurrent_pairs() %}
    {%- set value = var('parity_concurrent_pairs', 1) -%}
    {%- if value is not number or value is boolean or (value | int) != value or value < 1 -%}
        {{ exceptions.raise_compiler_error("parity: var 'parity_concurrent_pairs' must be a whole number of at least 1, not '" ~ value ~ "'") }}
    {%- endif -%}
    {{ return(value) }}
{% endmacro %}
