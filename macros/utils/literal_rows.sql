{#- A relation of literal string rows, for a model that is its macros' output: one select per row
    (a dict with every name of `columns`), assembled as text so the rendered SQL lays out the
    same for any number of rows; no row is a typed empty relation. -#}
{% macro literal_rows(columns, rows) %}
    {%- set selects = [] -%}
    {%- for row in rows -%}
        {%- set fields = [] -%}
        {%- for name in columns -%}
            {%- do fields.append(parity._spark_string_literal(row[name]) ~ ' as ' ~ name) -%}
        {%- endfor -%}
        {%- do selects.append('select\n    ' ~ fields | join(',\n    ')) -%}
    {%- else -%}
        {%- set fields = [] -%}
        {%- for name in columns -%}
            {%- do fields.append('cast(null as string) as ' ~ name) -%}
        {%- endfor -%}
        {%- do selects.append('select\n    ' ~ fields | join(',\n    ') ~ '\nwhere false') -%}
    {%- endfor -%}
    {{ return(selects | join('\nunion all\n')) }}
{% endmacro %}
