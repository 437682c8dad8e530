{#- Where one side of a pair lives: its dialect, the environment variable holding the
    connection to its engine (none for Spark) and its name in that engine. A relation lives
    outside Spark when it is a dbt source whose meta (on the table or the source) says so:
    meta: {parity: {dialect: duckdb, connection_env: LEGACY_DUCKDB}}, optionally with
    statement_timeout_seconds, after which that engine stops each query (default an hour, so
    that a query nobody waits for ends; 0 for no limit), connections, how many sessions at once a
    side's passes may use (default 2: one more than a single query, and gentle on a server that
    serves others), allowed_paths, the files and directories a DuckDB database's views read
    (its session reads no other), and allow_superuser, whether parity may read it as a
    superuser (or a role that may reach the server's files), which it otherwise refuses; a
    source whose meta names a file format is a directory Spark reads (parity.file_location). -#}
{% macro side_location(spec) %}
    {%- set relation = parity.parity_relation(spec) -%}
    {%- set settings = {} -%}
    {%- if 'source' in spec and execute -%}
        {%- for node in graph.sources.values() if node.source_name == spec['source'][0] and node.name == spec['source'][1] -%}
            {%- do settings.update(node.source_meta.get('parity', {})) -%}
            {%- do settings.update(node.meta.get('parity', {})) -%}
            {%- if 'format' in settings or 'path' in settings or 'path_env' in settings -%}
                {{ return(parity.file_location(settings, node)) }}
            {%- endif -%}
            {%- set dialect = settings.get('dialect', 'spark') -%}
            {%- if dialect != 'spark' -%}
                {%- set timeout = settings.get('statement_timeout_seconds') -%}
                {%- if timeout is none -%}
                    {%- set timeout = 3600 -%}
                {%- endif -%}
                {%- if timeout is string or timeout is boolean or timeout is not number or timeout < 0 -%}
                    {{ exceptions.raise_compiler_error("source " ~ node.source_name ~ "." ~ node.name
                        ~ ": parity.statement_timeout_seconds must be a number of seconds, 0 for no limit, not '" ~ timeout ~ "'") }}
                {%- endif -%}
                {%- set allowed_paths = settings.get('allowed_paths', []) -%}
                {%- if allowed_paths is string or allowed_paths is mapping or allowed_paths is not iterable
                    or allowed_paths | reject('string') | list or '' in allowed_paths -%}
                    {{ exceptions.raise_compiler_error("source " ~ node.source_name ~ "." ~ node.name
                        ~ ": parity.allowed_paths must be a list of paths (files or directories), not '" ~ allowed_paths ~ "'") }}
                {%- endif -%}
                {%- set connections = settings.get('connections', 2) -%}
                {%- if connections is string or connections is boolean or connections is not number or connections != connections | int or connections < 1 or connections > 64 -%}
                    {{ exceptions.raise_compiler_error("source " ~ node.source_name ~ "." ~ node.name
                        ~ ": parity.connections must be a whole number from 1 to 64, not '" ~ connections ~ "'") }}
                {%- endif -%}
                {%- set allow_superuser = settings.get('allow_superuser', false) -%}
                {%- if allow_superuser is not boolean -%}
                    {{ exceptions.raise_compiler_error("source " ~ node.source_name ~ "." ~ node.name
                        ~ ": parity.allow_superuser must be true or false, not '" ~ allow_superuser ~ "'") }}
                {%- endif -%}
                {{ return({
                    'dialect': dialect,
                    'connection_env': settings.get('connection_env'),
                    'statement_timeout_seconds': timeout,
                    'connections': connections,
                    'allowed_paths': allowed_paths | list,
                    'allow_superuser': allow_superuser,
                    'schema': node.schema,
                    'table': node.identifier,
                    'name': parity.quote_identifier(dialect, node.schema) ~ '.' ~ parity.quote_identifier(dialect, node.identifier),
                }) }}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return({'dialect': 'spark', 'connection_env': none, 'schema': relation.schema, 'table': relation.identifier, 'name': relation | string}) }}
{% endmacro %}
