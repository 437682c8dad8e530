{#- Raises a compilation error naming the pair and the side unless a side's `where` is exactly one
    SQL expression in that side's dialect: checked by parity's library (parity.predicates, through
    the dbt_parity start-up hook), before any engine sees it. -#}
{% macro _check_predicate(where, side, dialect, text) %}
    {%- if adapter.parity_predicate_problem is not defined -%}
        {{ exceptions.raise_compiler_error(where ~ ": parity checks every 'where' with its Python library, which is not installed"
            ~ " where dbt runs: pip install dbt-parity") }}
    {%- endif -%}
    {%- set problem = adapter.parity_predicate_problem(dialect, text) -%}
    {%- if problem -%}
        {{ exceptions.raise_compiler_error(where ~ ": the " ~ side ~ " side's where is refused (" ~ dialect ~ "): " ~ problem ~ ". The where: " ~ text) }}
    {%- endif -%}
{% endmacro %}
