{{ config(materialized="view") }}
{#- One row per pair side that lives outside Spark: what parity_remote_columns introspects, with
    the run that listed it. -#}
{%- set plan_columns = [
    'run_id', 'pair_name', 'side', 'dialect', 'connection_env', 'statement_timeout_seconds', 'allowed_paths', 'allow_superuser', 'schema_name', 'table_name',
] -%}
{%- set rows = [] -%}
{%- for pair, side in parity.sides_outside_spark(parity.parity_pairs()) -%}
    {%- set location = parity.side_location(pair[side]) -%}
    {%- if not location['connection_env'] -%}
        {{ exceptions.raise_compiler_error("parity pair '" ~ pair['name'] ~ "': " ~ side ~ " " ~ location['name']
            ~ " lives in " ~ location['dialect'] ~ " but its source meta names no parity.connection_env") }}
    {%- endif -%}
    {%- do rows.append({
        'run_id': invocation_id,
        'pair_name': pair['name'],
        'side': side,
        'dialect': location['dialect'],
        'connection_env': location['connection_env'],
        'statement_timeout_seconds': (location['statement_timeout_seconds'] or '') | string,
        'allowed_paths': tojson(location['allowed_paths']),
        'allow_superuser': location['allow_superuser'] | string | lower,
        'schema_name': location['schema'],
        'table_name': location['table'],
    }) -%}
{%- endfor %}
{{ parity.literal_rows(plan_columns, rows) }}
