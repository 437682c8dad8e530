{#- How Spark reads a file relation, or why it cannot: `{problem, reads, file_view, described}`,
    where `reads` is the relation the side's SQL selects from, `file_view` how parity's library
    reads Parquet files with UUID columns (a temporary view with them as binary), else none, and
    `described` a temporary view over the files, for file_columns to describe (one per side). In
    dbt's own SparkSession (the session method) the library reads the files
    (adapter.parity_file_read): a path it cannot read is the pair's problem, kept in its plan row,
    so the other pairs are still planned. With Spark outside dbt's process the files are read
    through SQL, where an unreadable path fails the plan. -#}
{% macro file_read(where, side, location) %}
    {%- if location['problem'] -%}
        {{ return({'problem': location['problem']}) }}
    {%- endif -%}
    {%- set unreadable = "Spark cannot read " ~ location['format'] ~ " files at " ~ location['path'] -%}
    {%- set view = '__parity_described_' ~ side -%}
    {%- set read = adapter.parity_file_read(location['format'], location['path'], view) -%}
    {%- if read is none -%}
        {%- do try_or_compiler_error(where ~ ": " ~ side ~ " relation (source " ~ location['source'] ~ "): " ~ unreadable,
            run_query, 'create or replace temporary view ' ~ parity.quote_identifier('spark', view) ~ ' as select * from ' ~ location['name']) -%}
        {{ return({'problem': none, 'reads': location['name'], 'file_view': none, 'described': view}) }}
    {%- endif -%}
    {%- if read['problem'] -%}
        {{ return({'problem': unreadable ~ ": " ~ read['problem']}) }}
    {%- endif -%}
    {%- set file_view = read['file_view'] -%}
    {{ return({
        'problem': none,
        'reads': parity.quote_identifier('spark', file_view['view']) if file_view else location['name'],
        'file_view': file_view,
        'described': view,
    }) }}
{% endmacro %}
