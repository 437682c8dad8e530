{#- A dbt source that is a directory of files Spark reads: its meta names the format and the
    path, or the environment variable holding the path (paths differ per machine):
    meta: {parity: {format: parquet, path: /data/orders}} or {format: json, path_env: ORDERS_DIR}.
    Spark reads it as the relation parquet.`/data/orders`. A declaration's problem is kept, not
    raised: this also runs where no pair is known (parity_remote_relations), and the error must
    name the pair and side. -#}
{% macro file_location(settings, node) %}
    {%- set format = settings.get('format') -%}
    {%- set path_env = settings.get('path_env') -%}
    {%- set path = settings.get('path') -%}
    {%- if path_env and 'path' not in settings -%}
        {%- set path = env_var(path_env | string, '') -%}
    {%- endif -%}
    {%- set problem = none -%}
    {%- if format not in ['parquet', 'json'] -%}
        {%- set problem = "parity.format must be parquet or json, not '" ~ format ~ "'" -%}
    {%- elif settings.get('dialect', 'spark') != 'spark' -%}
        {%- set problem = "files are read by Spark, so parity.dialect cannot be '" ~ settings['dialect'] ~ "'" -%}
    {%- elif ('path' in settings) == ('path_env' in settings) -%}
        {%- set problem = "give exactly one of parity.path and parity.path_env" -%}
    {%- elif not path -%}
        {%- set problem = ("environment variable " ~ path_env ~ " (parity.path_env) is not set") if path_env else "parity.path is empty" -%}
    {%- endif -%}
    {{ return({
        'dialect': 'spark',
        'connection_env': none,
        'source': node.source_name ~ '.' ~ node.name,
        'format': format,
        'path': path,
        'problem': problem,
        'name': none if problem else format ~ '.' ~ parity.quote_identifier('spark', path),
    }) }}
{% endmacro %}
