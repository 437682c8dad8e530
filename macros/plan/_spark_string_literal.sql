{#- A Spark SQL string literal holding `text` exactly: backslashes and quotes escaped. -#}
{% macro _spark_string_literal(text) %}
    {{ return("'" ~ (text | string).replace('\\', '\\\\').replace("'", "\\'") ~ "'") }}
{% endmacro %}
