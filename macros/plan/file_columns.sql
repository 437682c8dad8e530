{#- The columns Spark infers for a file relation, with their nullability and nested fields. The
    catalog knows nothing of a path, so a temporary view over it is described (Spark infers the
    schema once, when the view is created); the error of a path Spark cannot read names the pair
    and side (Spark's own message is in dbt's debug log). -#}
{% macro file_columns(where, side, location) %}
    {%- set described = where ~ ": " ~ side ~ " relation (source " ~ location['source'] ~ ")" -%}
    {%- if location['problem'] -%}
        {{ exceptions.raise_compiler_error(described ~ ": " ~ location['problem']) }}
    {%- endif -%}
    {%- set view = parity.quote_identifier('spark', '__parity_described_files') -%}
    {%- do try_or_compiler_error(
        described ~ ": Spark cannot read " ~ location['format'] ~ " files at " ~ location['path']
            ~ ": the path does not exist, or holds nothing Spark can read as " ~ location['format']
            ~ ", or a type Spark cannot read (such as a Parquet timestamp in nanoseconds)",
        run_query, 'create or replace temporary view ' ~ view ~ ' as select * from ' ~ location['name']) -%}
    {%- set details = parity.spark_column_details(view) -%}
    {%- set columns = [] -%}
    {%- for row in run_query('describe ' ~ view) if row['col_name'] in details -%}
        {%- set column = {'name': row['col_name'], 'data_type': row['data_type']} -%}
        {%- do column.update(details[row['col_name']]) -%}
        {%- do columns.append(column) -%}
    {%- endfor -%}
    {%- do run_query('drop view ' ~ view) -%}
    {{ return(columns) }}
{% endmacro %}
