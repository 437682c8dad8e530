{#- The cell number of a row's key position at one depth of the segment grid, as SQL with the
    placeholders {low}, {scale}, {cells} and {width} that the library fills with integers
    (src/parity/algorithms/keyspace.py: ((position - low) div scale) * cells div width, all exact).
    Spark computes it through its DataFrame API instead, in bigint where that cannot overflow. -#}
{% macro cell_number(dialect) %}
    {{ return(parity._dialect_macro('cell_number', dialect)()) }}
{% endmacro %}
