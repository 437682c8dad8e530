{#- Each pair's state as the published run left it (the result that run published for the pair,
    computed by it or by an earlier run, its status and why, its verdict and counts, with the published run's own
    fingerprints and the hash over them: parity_run_pairs), by pair name, as canonical JSON for the reconciliation
    to decide whether to compare the pair again (src/parity/pipelines/incremental.py); or, for
    every pair, {"missing": why} when there is no state to trust: no run published yet, history
    kept by an older version of parity, or a full refresh (`dbt build --full-refresh`, or the
    var parity_incremental false). Read by name (the history is downstream of the plan: a ref
    would be a cycle), through the graph, so a schema of the user's choosing is followed. -#}
{% macro previous_states() %}
    {%- if flags.FULL_REFRESH -%}
        {{ return({'missing': '--full-refresh: every pair compared in full'}) }}
    {%- elif not var('parity_incremental', true) -%}
        {{ return({'missing': 'parity_incremental is false: every pair compared in full'}) }}
    {%- endif -%}
    {%- set relations = {} -%}
    {%- for name in ['parity_runs', 'parity_run_pairs', 'parity_run_results', 'parity_run_differences'] -%}
        {%- do relations.update({name: parity._built_relation(name)}) -%}
    {%- endfor -%}
    {%- if relations['parity_runs'] is none or relations['parity_run_results'] is none -%}
        {{ return({'missing': 'no earlier published result'}) }}
    {%- endif -%}
    {%- set kept = adapter.get_columns_in_relation(relations['parity_run_results']) | map(attribute='name') | list -%}
    {%- set pointed = [] if relations['parity_run_pairs'] is none
        else adapter.get_columns_in_relation(relations['parity_run_pairs']) | map(attribute='name') | list -%}
    {%- if 'state_hash' not in pointed or 'segment_checksums' not in kept -%}
        {{ return({'missing': 'the history was kept by an earlier version of parity, without state'}) }}
    {%- endif -%}
    {#- The result's verdict and counts, which the state hash covers too (incremental.VERDICT_FIELDS),
        as text: its drift with the 6 decimals it is rounded to. -#}
    {%- set verdict = [] -%}
    {%- for name in ['data_compared', 'passed', 'halted', 'keys_flagged', 'schema_compatible', 'source_rows', 'target_rows',
        'missing_in_target_rows', 'missing_in_source_rows', 'value_mismatch_rows', 'duplicate_in_source_rows',
        'duplicate_in_target_rows', 'within_tolerance_rows', 'mismatched_values', 'within_tolerance_values', 'differing_rows',
        'schema_findings', 'source_null_keys', 'source_duplicate_keys', 'target_null_keys', 'target_duplicate_keys'] -%}
        {%- do verdict.append('cast(results.' ~ name ~ ' as string) as ' ~ name) -%}
    {%- endfor -%}
    {%- do verdict.append('cast(cast(results.row_drift_pct as decimal(20, 6)) as string) as row_drift_pct') -%}
    {%- set found = run_query(
        'select results.pair_name, results.run_id, results.status, results.status_reason, results.config_hash, results.tolerance_hash,'
        ~ ' results.source_schema_hash, results.target_schema_hash, pairs.source_fingerprint, pairs.target_fingerprint,'
        ~ ' results.source_checksum, results.target_checksum, results.segment_checksums, pairs.state_hash, ' ~ verdict | join(', ')
        ~ ' from ' ~ relations['parity_run_pairs'] ~ ' as pairs'
        ~ ' inner join ' ~ relations['parity_run_results'] ~ ' as results'
        ~ ' on results.run_id = pairs.computed_run_id and results.pair_name = pairs.pair_name'
        ~ ' where pairs.run_id = (select run_id from ' ~ relations['parity_runs'] ~ ' order by published_at desc, run_id desc limit 1)'
    ) -%}
    {%- set states = {} -%}
    {%- for row in found -%}
        {%- set state = {} -%}
        {%- for name in found.column_names if name != 'pair_name' -%}
            {%- do state.update({name: row[name]}) -%}
        {%- endfor -%}
        {%- if relations['parity_run_differences'] is not none -%}
            {%- do state.update({'differences_relation': relations['parity_run_differences'] | string}) -%}
        {%- endif -%}
        {%- do states.update({row['pair_name']: tojson(state)}) -%}
    {%- endfor -%}
    {{ return({'states': states, 'missing': 'no earlier published result of the pair'}) }}
{% endmacro %}
