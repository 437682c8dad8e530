{#- A Spark SQL expression for the string `text`, read alike whatever the session's parser
    settings: a plain literal when `text` holds no quote or backslash, else its UTF-8 bytes in
    hex (with spark.sql.parser.escapedStringLiterals on, backslash escapes would stay as typed),
    cast to a string: a constant, as an inline table's values must be (literal_rows). -#}
{% macro _spark_string_literal(text) %}
    {%- set text = text | string -%}
    {%- if "'" not in text and '\\' not in text -%}
        {{ return("'" ~ text ~ "'") }}
    {%- endif -%}
    {{ return("cast(X'" ~ text.encode('utf-8').hex() ~ "' as string)") }}
{% endmacro %}
