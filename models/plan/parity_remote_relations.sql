{#- One row per pair side that lives outside Spark: what parity_remote_columns introspects, with
    the run that listed it. -#}
{%- set plan_columns = [
    'run_id', 'pair_name', 'side', 'dialect', 'connection_env', 'statement_timeout_seconds', 'schema_name', 'table_name',
] -%}
{%- set selects = [] -%}
{%- for pair in parity.parity_pairs() -%}
    {%- for side in ['source', 'target'] -%}
        {%- set location = parity.side_location(pair[side]) -%}
        {%- if location['dialect'] != 'spark' -%}
            {%- if not location['connection_env'] -%}
                {{ exceptions.raise_compiler_error("parity pair '" ~ pair['name'] ~ "': " ~ side ~ " " ~ location['name']
                    ~ " lives in " ~ location['dialect'] ~ " but its source meta names no parity.connection_env") }}
            {%- endif -%}
            {%- set values = [invocation_id, pair['name'], side, location['dialect'], location['connection_env'],
                (location['statement_timeout_seconds'] or '') | string, location['schema'], location['table']] -%}
            {%- set fields = [] -%}
            {%- for value in values -%}
                {%- do fields.append(parity._spark_string_literal(value) ~ ' as ' ~ plan_columns[loop.index0]) -%}
            {%- endfor -%}
            {%- do selects.append('select\n    ' ~ fields | join(',\n    ')) -%}
        {%- endif -%}
    {%- endfor -%}
{%- endfor -%}
{%- if not selects -%}
    {%- set fields = [] -%}
    {%- for name in plan_columns -%}
        {%- do fields.append('cast(null as string) as ' ~ name) -%}
    {%- endfor -%}
    {%- do selects.append('select\n    ' ~ fields | join(',\n    ') ~ '\nwhere false') -%}
{%- endif %}
{{ selects | join('\nunion all\n') }}
