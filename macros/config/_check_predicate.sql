{#- Raises a compilation error naming the pair, the side and the dialect unless a side's `where`
    is a filter: one SQL expression in that side's dialect, holding only what a filter may
    (parity.predicates, through the dbt_parity start-up hook), checked before any engine sees
    it. The project's vars may add functions to the dialect's list, or trust its filters. -#}
{% macro _check_predicate(where, side, dialect, text) %}
    {%- if adapter.parity_predicate_problem is not defined -%}
        {{ exceptions.raise_compiler_error(where ~ ": parity checks every 'where' with its Python library, which is not installed"
            ~ " where dbt runs: pip install dbt-parity") }}
    {%- endif -%}
    {%- set trust = parity._filter_trust() -%}
    {%- set problem = adapter.parity_predicate_problem(dialect, text, trust['functions'].get(dialect, []), trust['trusted']) -%}
    {%- if problem -%}
        {{ exceptions.raise_compiler_error(where ~ ": the " ~ side ~ " side's where is refused (" ~ dialect ~ "): " ~ problem ~ ". The where: " ~ text) }}
    {%- endif -%}
{% endmacro %}


{#- What the project's vars grant filters beyond the allow-list: `parity_trust_filters` (true:
    any one expression) and `parity_filter_functions` ({dialect: [function, ...]}: functions
    added to a dialect's list). Returns {'trusted': bool, 'functions': {dialect: [lower-case
    names]}}. -#}
{% macro _filter_trust() %}
    {%- set trusted = var('parity_trust_filters', false) -%}
    {%- if trusted is not boolean -%}
        {{ exceptions.raise_compiler_error("parity: var 'parity_trust_filters' must be true or false, not '" ~ trusted ~ "'") }}
    {%- endif -%}
    {%- set declared = var('parity_filter_functions', {}) or {} -%}
    {%- set functions = {} -%}
    {%- if declared is not mapping -%}
        {{ exceptions.raise_compiler_error("parity: var 'parity_filter_functions' must map a dialect to a list of function names, as {postgres: [my_function]}") }}
    {%- endif -%}
    {%- for dialect, names in declared.items() -%}
        {%- if names is string or names is mapping or names is not iterable or (names | reject('string') | list) -%}
            {{ exceptions.raise_compiler_error("parity: var 'parity_filter_functions." ~ dialect ~ "' must be a list of function names") }}
        {%- endif -%}
        {%- do functions.update({dialect: names | map('lower') | sort | list}) -%}
    {%- endfor -%}
    {{ return({'trusted': trusted, 'functions': functions}) }}
{% endmacro %}
