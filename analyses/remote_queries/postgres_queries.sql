{#- The queries parity sends a PostgreSQL side (macros/plan/remote_queries.sql), rendered for a
    relation holding one column of every kind the dialect canonicalizes, keyed first by its
    integer column alone, then by it and a second column; each query after a comment naming it.
    tests/golden/remote_queries/postgres.sql.golden holds them. -#}
{%- set columns = parity._every_kind_columns(['attributes'], 'postgres') -%}
{%- for key_count in [1, 2] -%}
    {%- set aliases = parity.column_aliases(key_count, (columns | length) - key_count) -%}
    {%- set queries = parity.remote_queries('postgres', 'public.orders', key_count, columns, none, aliases) -%}
    {%- for name, sql in queries.items() %}
-- {{ key_count }} key column{{ 's' if key_count > 1 }}: {{ name }}
{{ sql }}
{% endfor -%}
{%- endfor -%}
