{#- The queries parity sends a side in `dialect` (remote_queries), for a relation holding one
    column of every kind the dialect canonicalizes (but `leave_out`), keyed first by its integer
    column alone, then by it and a second column; each after a comment naming it. The analyses in
    analyses/remote_queries/ render them against tests/golden/remote_queries/. -#}
{% macro _every_remote_query(dialect, relation_name, leave_out) %}
    {%- set columns = parity._every_kind_columns(leave_out, dialect) -%}
    {%- set rendered = [] -%}
    {%- for key_count in [1, 2] -%}
        {%- set aliases = parity.column_aliases(key_count, (columns | length) - key_count) -%}
        {%- for name, sql in parity.remote_queries(dialect, relation_name, key_count, columns, none, aliases).items() -%}
            {%- do rendered.append('-- ' ~ key_count ~ ' key column' ~ ('s' if key_count > 1 else '') ~ ': ' ~ name ~ '\n' ~ sql ~ '\n') -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return('\n' ~ rendered | join('\n')) }}
{% endmacro %}
