{#- One row per pair: what each engine runs. Resolving every pair's relations here (ref/source)
    is what draws the lineage from compared relations to the results. Each row carries the run
    (dbt invocation) that rendered it: only that run may publish results computed from it, and
    the pair's state as the last published run left it, for the reconciliation to decide whether
    to compare the pair again. -#}
{%- set side_columns = [
    'dialect', 'in_session', 'connection_env', 'statement_timeout_seconds', 'allowed_paths', 'connections', 'relation_name', 'canonical_sql', 'native_sql',
    'checksum_sql', 'exact_checksum_sql', 'profile_sql', 'blocks_sql', 'bounds_sql', 'blocks_between_sql', 'duplicates_sql', 'duplicate_examples_sql', 'checksums_sql', 'rows_sql', 'rows_of_keys_sql', 'key_names', 'column_names', 'column_profiles', 'canonical_columns', 'schema_snapshot',
    'file_view', 'fingerprint',
] -%}
{%- set plan_columns = [
    'run_id', 'pair_name', 'algorithm', 'key_columns', 'value_columns', 'position_column', 'key_is_position', 'native_hash_column', 'config_json', 'column_rules',
    'schema_findings', 'filters', 'schema_diff', 'problem', 'warnings', 'previous_state',
] -%}
{%- for side in ['source', 'target'] -%}
    {%- for name in side_columns -%}
        {%- do plan_columns.append(side ~ '_' ~ name) -%}
    {%- endfor -%}
{%- endfor -%}
{%- set pairs = parity.parity_pairs() -%}
{%- do parity.concurrent_pairs() -%}
{#- `dbt docs generate` compiles every model: it plans nothing (no query, no warning of a pair
    whose remote columns this run did not read); every other command that compiles the plan
    plans it. -#}
{%- set planning = execute and flags.WHICH != 'generate' -%}
{%- set remote_columns_relation = ref('parity_remote_columns') -%}
{%- set rows = [] -%}
{%- set previous = parity.previous_states() if planning else {} -%}
{#- Each Spark relation's description, read once for every pair that compares it: those of the
    session catalog all at once, where dbt runs Spark in its own process. -#}
{%- set descriptions = parity.spark_descriptions(pairs) if planning else {} -%}
{#- The columns parity_remote_columns read, asked only when a side lives outside Spark: a
    query, and a Spark job, fewer for a project whose pairs are all in Spark. -#}
{%- set remote_columns = [] -%}
{%- if planning and parity.sides_outside_spark(pairs) -%}
    {%- set remote_columns = run_query(
        'select pair_name, side, column_name, data_type, nullable, rounding, problem, warning, fingerprint from ' ~ remote_columns_relation
        ~ " where run_id = '" ~ invocation_id ~ "' order by pair_name, side, ordinal"
    ) -%}
{%- endif -%}
{%- for pair in pairs -%}
    {%- do parity.parity_relation(pair['source']) -%}
    {%- do parity.parity_relation(pair['target']) -%}
    {%- if planning -%}
        {%- set row = parity.pair_plan(pair, remote_columns, descriptions) -%}
        {%- do row.update({'run_id': invocation_id}) -%}
        {%- do row.update({'previous_state': previous.get('states', {}).get(pair['name']) or tojson({'missing': previous['missing']})}) -%}
        {#- A pair whose side could not be read was not planned: what it would run is empty. -#}
        {%- for name in plan_columns if name not in row -%}
            {%- do row.update({name: ''}) -%}
        {%- endfor -%}
        {%- do rows.append(row) -%}
    {%- endif -%}
{%- endfor %}
{{ parity.literal_rows(plan_columns, rows) }}
