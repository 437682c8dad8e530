{#- The pull-request check's summary, as markdown a reviewer reads (and pastes into the pull
    request): per model its verdict, rows in production and here, rows added, removed and
    changed, the columns that changed (rows and share of rows compared), its schema changes and
    a few example rows of each kind (sensitive values hidden, as parity_differences hides them);
    for a model with no key, its rows, schema changes and column profiles (parity.ci_profiles).
    Written to the target folder as parity_ci_summary.md and printed, by parity's own on-run-end
    hook, only when the `parity_ci` var asks for a check and this run published its results. -#}
{% macro ci_summary(max_models=20, example_rows=3, max_value_chars=40) %}
    {%- set statuses = parity._statuses(results) if results is defined else {} -%}
    {%- set asked = execute and var('parity_ci', none) is not none and statuses.get('parity_runs') == 'success' -%}
    {%- set models = parity.ci_models() if asked else [] -%}
    {%- if not models -%}
        {{ return('') }}
    {%- endif -%}
    {%- set summary = parity._built_relation('parity_summary') -%}
    {%- set names = models | selectattr('pair') | map(attribute='name') | list -%}
    {%- set rows = {} -%}
    {%- if names -%}
        {%- for row in run_query('select * from ' ~ summary ~ ' where pair_name in (' ~ parity._ci_listed(names) ~ ')') -%}
            {%- do rows.update({row['pair_name']: row}) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- set profiles = {} -%}
    {%- for model in models if model.reason == 'no key' -%}
        {%- do profiles.update({model.name: parity.ci_profiles(model)}) -%}
    {%- endfor -%}
    {%- set verdicts = {} -%}
    {%- for model in models -%}
        {%- do verdicts.update({model.name: parity._ci_verdict(model, rows.get(model.name), profiles.get(model.name))}) -%}
    {%- endfor -%}
    {%- set lines = ['## parity: this change against `' ~ var('parity_ci')['against'] ~ '`', ''] -%}
    {%- set counted = [] -%}
    {%- for verdict in ['changed', 'unchanged', 'new', 'removed', 'error'] -%}
        {%- set n = verdicts.values() | select('equalto', verdict) | list | length -%}
        {%- do counted.append(n ~ ' ' ~ verdict) if n -%}
    {%- endfor -%}
    {%- do lines.append(models | length ~ ' models: ' ~ counted | join(', ') ~ '.') -%}
    {%- do lines.extend(['', '| model | verdict | rows (' ~ var('parity_ci')['against'] ~ ' → here) | added | removed | changed | schema changes |',
        '| --- | --- | --- | --- | --- | --- | --- |']) -%}
    {%- set shown = models[:max_models] -%}
    {%- for model in shown -%}
        {%- set row = rows.get(model.name) -%}
        {%- set profile = profiles.get(model.name) -%}
        {%- if model.reason == 'removed' -%}
            {%- set counted = run_query('select count(*) from ' ~ model.production).rows[0][0] -%}
            {%- do lines.append('| ' ~ model.name ~ ' | removed | ' ~ counted ~ ' → - | | | | |') -%}
        {%- elif profile is not none -%}
            {%- do lines.append('| ' ~ model.name ~ ' | ' ~ parity._ci_verdict_text(model, verdicts[model.name]) ~ ', no key | '
                ~ profile['rows'][0] ~ ' → ' ~ profile['rows'][1] ~ ' | | | | ' ~ profile['schema'] | length ~ ' |') -%}
        {%- elif row is not none and row['data_compared'] -%}
            {%- do lines.append('| ' ~ model.name ~ ' | ' ~ parity._ci_verdict_text(model, verdicts[model.name]) ~ ' | ' ~ row['source_rows'] ~ ' → ' ~ row['target_rows']
                ~ ' | ' ~ (row['missing_in_source_rows'] + row['duplicate_in_target_rows']) ~ ' | ' ~ (row['missing_in_target_rows'] + row['duplicate_in_source_rows'])
                ~ ' | ' ~ row['value_mismatch_rows'] ~ ' | ' ~ row['schema_findings'] ~ ' |') -%}
        {%- else -%}
            {%- do lines.append('| ' ~ model.name ~ ' | ' ~ parity._ci_verdict_text(model, verdicts[model.name]) ~ ' | | | | | |') -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if models | length > max_models -%}
        {%- do lines.append('') -%}
        {%- do lines.append('and ' ~ (models | length - max_models) ~ ' more models: see parity_summary.') -%}
    {%- endif -%}
    {%- set changed = [] -%}
    {%- for model in shown if verdicts[model.name] in ['changed', 'error'] -%}
        {%- do changed.append(model.name) -%}
    {%- endfor -%}
    {%- do lines.extend(parity._ci_details(changed | reject('in', profiles) | list, rows, example_rows, max_value_chars)) -%}
    {%- for name in changed if name in profiles -%}
        {%- do lines.extend(['', '### ' ~ name, 'No key: values not matched row by row.']) -%}
        {%- do lines.append('Columns changed: ' ~ profiles[name]['changes'] | join(', ') ~ '.') if profiles[name]['changes'] -%}
        {%- do lines.append('Schema: ' ~ profiles[name]['schema'] | join(', ') ~ '.') if profiles[name]['schema'] -%}
    {%- endfor -%}
    {%- set text = lines | join('\n') ~ '\n' -%}
    {%- set path = adapter.parity_write_artifact('parity_ci_summary.md', text) -%}
    {%- do log('', info=True) -%}
    {%- do log(text ~ '\n(written to ' ~ path ~ ')', info=True) -%}
    {{ return('') }}
{% endmacro %}


{#- changed, unchanged, new or error: a model's verdict in the check, by its result, or by its
    profiles where it has no key. -#}
{% macro _ci_verdict(model, row, profile=none) %}
    {%- if profile is not none -%}
        {{ return(profile['verdict']) }}
    {%- elif model.reason -%}
        {{ return(model.reason) }}
    {%- elif row is none or row['status'] == 'error' -%}
        {{ return('error') }}
    {%- endif -%}
    {{ return('unchanged' if row['passed'] and row['differing_rows'] == 0 and row['schema_findings'] == 0 else 'changed') }}
{% endmacro %}


{#- The verdict as the table shows it: with what the model expects, where that is not met. -#}
{% macro _ci_verdict_text(model, verdict) %}
    {%- set unmet = model.expect is not none and verdict in ['changed', 'unchanged'] and verdict != model.expect -%}
    {{ return(('**' ~ verdict ~ '** (expected ' ~ model.expect ~ ')') if unmet else verdict) }}
{% endmacro %}


{#- Each changed model's columns, schema changes and example rows: one query each for all. -#}
{% macro _ci_details(names, rows, example_rows, max_value_chars) %}
    {%- set lines = [] -%}
    {%- if not names -%}
        {{ return(lines) }}
    {%- endif -%}
    {%- set listed = parity._ci_listed(names) -%}
    {%- set drift = parity._built_relation('parity_column_drift') -%}
    {%- set columns = run_query('select pair_name, column_name, out_of_tolerance, values_compared from ' ~ drift
        ~ ' where pair_name in (' ~ listed ~ ') and out_of_tolerance > 0 and (run_id, pair_name) in (select run_id, pair_name from '
        ~ parity._built_relation('parity_summary') ~ ') order by pair_name, out_of_tolerance desc, column_name') -%}
    {%- set schema = run_query('select pair_name, column_name, change from ' ~ parity._built_relation('parity_schema_diff')
        ~ " where pair_name in (" ~ listed ~ ") and change != 'unchanged' order by pair_name, column_name") -%}
    {%- set examples = run_query('select pair_name, kind, key, column_name, source_value, target_value, source_hash, target_hash from ('
        ~ 'select *, row_number() over (partition by pair_name, kind order by length(key), key, column_name) as example from '
        ~ parity._built_relation('parity_differences') ~ ' where pair_name in (' ~ listed ~ ') and key is not null'
        ~ ') where example <= ' ~ example_rows ~ ' order by pair_name, kind, example') -%}
    {%- set kinds = {
        'missing_in_target': 'removed', 'missing_in_source': 'added', 'value_mismatch': 'changed',
        'duplicate_in_source': 'copy removed', 'duplicate_in_target': 'copy added', 'within_tolerance': 'within tolerance',
    } -%}
    {%- for name in names -%}
        {%- set row = rows.get(name) -%}
        {%- do lines.extend(['', '### ' ~ name]) -%}
        {%- if row is none or row['status'] == 'error' -%}
            {%- do lines.append('Not compared: ' ~ (row['status_reason'] if row is not none else 'no result')) -%}
        {%- endif -%}
        {%- set changes = [] -%}
        {%- for column in columns if column['pair_name'] == name -%}
            {%- set share = (100.0 * column['out_of_tolerance'] / column['values_compared']) | round(1) if column['values_compared'] else none -%}
            {%- do changes.append('`' ~ column['column_name'] ~ '` ' ~ column['out_of_tolerance'] ~ (' row' if column['out_of_tolerance'] == 1 else ' rows')
                ~ (' (' ~ share ~ '%)' if share is not none else '')) -%}
        {%- endfor -%}
        {%- do lines.append('Columns changed: ' ~ changes | join(', ') ~ '.') if changes -%}
        {%- set altered = [] -%}
        {%- for change in schema if change['pair_name'] == name -%}
            {%- do altered.append('`' ~ change['column_name'] ~ '` ' ~ change['change']) -%}
        {%- endfor -%}
        {%- do lines.append('Schema: ' ~ altered | join(', ') ~ '.') if altered -%}
        {%- set shown = examples | selectattr('pair_name', 'equalto', name) | list -%}
        {%- if shown -%}
            {%- do lines.extend(['', '| kind | key | column | ' ~ var('parity_ci')['against'] ~ ' | here |', '| --- | --- | --- | --- | --- |']) -%}
            {%- for example in shown -%}
                {%- do lines.append('| ' ~ kinds.get(example['kind'], example['kind']) ~ ' | ' ~ parity._ci_text(example['key'], none, max_value_chars)
                    ~ ' | ' ~ (example['column_name'] or '') ~ ' | ' ~ parity._ci_text(example['source_value'], example['source_hash'], max_value_chars, not example['column_name'])
                    ~ ' | ' ~ parity._ci_text(example['target_value'], example['target_hash'], max_value_chars, not example['column_name']) ~ ' |') -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(lines) }}
{% endmacro %}


{#- A value in a markdown table cell: NULL, hidden (a sensitive value's hash), a dash for no row
    (a whole row on one side only), or its text cut to max_chars, with no character that would
    end the cell or the row. -#}
{% macro _ci_text(value, hash, max_chars, whole_row=false) %}
    {%- if value is none -%}
        {{ return('hidden' if hash is not none else '-' if whole_row else 'NULL') }}
    {%- endif -%}
    {%- set text = value | string -%}
    {%- set cut = text[:max_chars] ~ ('…' if text | length > max_chars else '') -%}
    {{ return('`' ~ cut.replace('`', "'").replace('|', '\\|').replace('\n', ' ').replace('\r', ' ') ~ '`') }}
{% endmacro %}


{#- Names as a list of Spark string literals. -#}
{% macro _ci_listed(names) %}
    {%- set literals = [] -%}
    {%- for name in names -%}
        {%- do literals.append(parity._spark_string_literal(name)) -%}
    {%- endfor -%}
    {{ return(literals | join(', ')) }}
{% endmacro %}
