{#- The rows of a relation (`tail`: what follows its name in the query: where, order by, limit),
    each as a dict by column name, as Spark writes them in JSON: every type, arrays and structs
    included; a decimal as a number; a time as ISO 8601 text in UTC to the microsecond; NULL as
    null. -#}
{% macro _json_rows(relation, tail) %}
    {%- set rows = [] -%}
    {%- for row in run_query('select to_json(struct(*), ' ~ parity._json_options() ~ ') from ' ~ relation ~ ' ' ~ tail) -%}
        {%- do rows.append(fromjson(row[0])) -%}
    {%- endfor -%}
    {{ return(rows) }}
{% endmacro %}


{#- to_json's options for _json_rows: times in UTC to the microsecond, NULL fields kept. -#}
{% macro _json_options() %}
    {{- return("map('timeZone', 'UTC', 'ignoreNullFields', 'false', 'timestampFormat', 'yyyy-MM-dd\\'T\\'HH:mm:ss.SSSSSSXXX')") -}}
{% endmacro %}
