{#- One row per pair and side: what each engine runs. Resolving every pair's relations here
    (ref/source) is what draws the lineage from compared relations to the results. Each row
    carries the run (dbt invocation) that rendered it: only that run may publish results
    computed from it. -#}
{%- set plan_columns = [
    'run_id', 'pair_name', 'side', 'dialect', 'connection_env', 'statement_timeout_seconds', 'relation_name',
    'canonical_sql', 'checksum_sql', 'cell_sql', 'key_names', 'column_names', 'config_json', 'column_rules', 'schema_findings', 'filters',
    'schema_snapshot', 'schema_diff',
] -%}
{%- set pairs = parity.parity_pairs() -%}
{%- set remote_columns_relation = ref('parity_remote_columns') -%}
{%- set rows = [] -%}
{%- if execute and pairs -%}
    {%- set remote_columns = run_query(
        'select pair_name, side, column_name, data_type, nullable from ' ~ remote_columns_relation
        ~ " where run_id = '" ~ invocation_id ~ "' order by pair_name, side, ordinal"
    ) -%}
{%- endif -%}
{%- for pair in pairs -%}
    {%- do parity.parity_relation(pair['source']) -%}
    {%- do parity.parity_relation(pair['target']) -%}
    {%- if execute -%}
        {%- for row in parity.pair_plan_rows(pair, remote_columns) -%}
            {%- do row.update({'run_id': invocation_id}) -%}
            {%- do rows.append(row) -%}
        {%- endfor -%}
    {%- endif -%}
{%- endfor -%}

{#- Each select is assembled as text, so the rendered SQL lays out the same for any number of pairs. -#}
{%- set selects = [] -%}
{%- for row in rows -%}
    {%- set fields = [] -%}
    {%- for name in plan_columns -%}
        {%- do fields.append(parity._spark_string_literal(row[name]) ~ ' as ' ~ name) -%}
    {%- endfor -%}
    {%- do selects.append('select\n    ' ~ fields | join(',\n    ')) -%}
{%- else -%}
    {%- set fields = [] -%}
    {%- for name in plan_columns -%}
        {%- do fields.append('cast(null as string) as ' ~ name) -%}
    {%- endfor -%}
    {%- do selects.append('select\n    ' ~ fields | join(',\n    ') ~ '\nwhere false') -%}
{%- endfor %}
{{ selects | join('\nunion all\n') }}
