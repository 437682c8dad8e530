{#- joindiff's first-pass select for a Spark relation with a column of every kind: the columns
    both sides would hold in the same plain type hashed as Spark holds them, the others by their
    canonical or tolerant text; tests/golden/spark_native.sql.golden holds it. -#}
{%- set columns = parity._every_kind_columns(['document'], 'spark') -%}
{%- set plain = ['integer', 'decimal', 'float', 'boolean', 'string', 'date', 'timestamp', 'binary'] -%}
{%- set native = [] -%}
{%- for column in columns[1:] -%}
    {%- do native.append(column['profile']['kind'] in plain and not column['profile'].get('padded')) -%}
{%- endfor -%}
{{ parity.native_select('lakehouse.orders', 1, columns, native, "`status` <> 'test'") }}
