{#- The columns Spark reads from a file relation, with their nullability and nested fields. The
    catalog knows nothing of a path, so the temporary view parity.file_read left over the files
    (`described`) is described: Spark inferred the schema once, when the view was created. A
    Parquet UUID column, which Spark reads as its 16 bytes, is declared `uuid`, as the file
    declares it. -#}
{% macro file_columns(location) %}
    {%- set view = parity.quote_identifier('spark', location['described']) -%}
    {%- set uuids = location['file_view']['uuid_columns'] if location['file_view'] else [] -%}
    {%- set details = parity.spark_column_details(view) -%}
    {%- set columns = [] -%}
    {%- for row in run_query('describe ' ~ view) if row['col_name'] in details -%}
        {%- set column = {'name': row['col_name'], 'data_type': 'uuid' if row['col_name'] in uuids else row['data_type']} -%}
        {%- do column.update(details[row['col_name']]) -%}
        {%- do columns.append(column) -%}
    {%- endfor -%}
    {%- do run_query('drop view ' ~ view) -%}
    {{ return(columns) }}
{% endmacro %}
