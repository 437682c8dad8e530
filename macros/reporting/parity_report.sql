{#- An on-run-end hook: logs first what failed in this run (each node that errored, with the
    first line of its message), then, for every pair of the published run, its verdict, what the
    plan warns of it, counts by kind and a few example differences, and where the full results
    are. When this run published nothing (it failed, or stopped before parity_runs), the results
    are those of the last complete run: a line says so, with when that run started, and each
    pair has one line, its verdict and counts. A run or test that did not select the
    reconciliation has nothing of its own to report, and logs nothing. -#}
{% macro parity_report(example_rows=5, max_value_chars=80) %}
    {%- set statuses = parity._statuses(results) if results is defined else none -%}
    {%- if not execute or not parity._reports_here() or (statuses is not none and 'parity_pair_results' not in statuses) -%}
        {{ return('') }}
    {%- endif -%}
    {%- set summary = parity._built_relation('parity_summary') -%}
    {%- set differences = parity._built_relation('parity_differences') -%}
    {%- if summary is none or differences is none -%}
        {{ return('') }}
    {%- endif -%}
    {%- do parity._report_errors(results if results is defined else []) -%}
    {#- parity_runs succeeds only by publishing this run: else the log of runs names the last. -#}
    {%- set shown = namespace(own=true) -%}
    {%- if statuses is none or statuses.get('parity_runs') != 'success' -%}
        {%- set runs = parity._built_relation('parity_runs') -%}
        {#- Times are printed in UTC, saying so: the session's own zone is anybody's guess. -#}
        {%- set published = run_query("select run_id, date_format(to_utc_timestamp(run_started_at, current_timezone()), 'yyyy-MM-dd HH:mm:ss') || ' UTC' as started from "
            ~ runs ~ ' order by published_at desc, run_id desc limit 1') if runs is not none else none -%}
        {%- if published is none or published.rows | length == 0 -%}
            {{ return('') }}
        {%- endif -%}
        {%- set last = published.rows[0] -%}
        {%- if last['run_id'] != invocation_id -%}
            {%- set shown.own = false -%}
            {%- do log('', info=True) -%}
            {%- do log("---- this run published no results; below, the last complete run ("
                ~ last['run_id'] ~ ", started " ~ last['started'] ~ "), one line per pair: ----", info=True) -%}
        {%- endif -%}
    {%- endif -%}
    {%- set pairs = run_query('select * from ' ~ summary ~ ' order by pair_name') -%}
    {%- if not shown.own -%}
        {%- for pair in pairs -%}
            {%- do log(parity._report_short(pair), info=True) -%}
        {%- endfor -%}
        {%- do log('Full results: ' ~ summary ~ ' and ' ~ differences, info=True) if pairs | length -%}
        {{ return('') }}
    {%- endif -%}
    {%- set examples = parity._report_examples(parity._built_relation('parity_run_differences'), parity._built_relation('parity_run_results'),
        pairs, example_rows | int) -%}
    {%- set columns = parity._report_columns(parity._built_relation('parity_column_drift'), pairs) -%}
    {%- set warnings = parity._report_warnings(parity._built_relation('parity_plan'),
        statuses is not none and statuses.get('parity_plan') == 'success') -%}
    {%- for pair in pairs -%}
        {%- do log('', info=True) -%}
        {%- do log("parity pair '" ~ pair['pair_name'] ~ "': " ~ parity._verdict(pair)
            ~ " (" ~ pair['algorithm'] ~ ", " ~ pair['elapsed_seconds'] ~ "s)"
            ~ ("; " ~ pair['run_mode_reason'] if pair['run_mode'] == 'unchanged' else ""), info=True) -%}
        {%- for warning in warnings.get(pair['pair_name'], []) -%}
            {%- do log("  warning: " ~ warning, info=True) -%}
        {%- endfor -%}
        {%- do parity._report_contracts(pair) -%}
        {%- do parity._report_filter_trust(pair) -%}
        {%- do log("  " ~ pair['source_relation'] ~ ": " ~ pair['source_rows'] ~ " rows; "
            ~ pair['target_relation'] ~ ": " ~ pair['target_rows'] ~ " rows", info=True) if pair['data_compared'] -%}
        {%- do log("  missing in target " ~ pair['missing_in_target_rows'] ~ ", missing in source " ~ pair['missing_in_source_rows']
            ~ ", value mismatches " ~ pair['value_mismatch_rows'] ~ " rows (" ~ pair['mismatched_values'] ~ " values)"
            ~ ", within tolerance " ~ pair['within_tolerance_rows'] ~ " rows (" ~ pair['within_tolerance_values'] ~ " values"
            ~ (", only those seen while locating the differences: a lower bound" if pair['within_tolerance_counted'] == 'seen' else '') ~ ")"
            ~ ", duplicates in source " ~ pair['duplicate_in_source_rows'] ~ ", in target " ~ pair['duplicate_in_target_rows']
            ~ "; row drift " ~ pair['row_drift_pct'] ~ "%; schema findings " ~ pair['schema_findings'], info=True) if pair['data_compared'] -%}
        {%- do log("  checksum passes " ~ pair['checksum_passes'] ~ ", segments checked " ~ pair['segments_checked']
            ~ ", rows moved " ~ pair['rows_moved'] ~ " (out of source " ~ pair['source_rows_moved']
            ~ ", out of target " ~ pair['target_rows_moved'] ~ "), config " ~ pair['config_hash'][:12] ~ ", tolerance " ~ pair['tolerance_hash'][:12], info=True) -%}
        {%- for column in columns.get(pair['pair_name'], []) -%}
            {%- do log(parity._report_column(column), info=True) -%}
            {%- do log("  column " ~ column['column_name'] ~ " differs by one constant (" ~ column['pattern'] ~ "): " ~ column['pattern_note'], info=True) if column['pattern'] -%}
        {%- endfor -%}
        {%- if not pair['passed'] -%}
            {%- for row in examples.get(pair['pair_name'], []) -%}
                {%- do log("    " ~ (("key " ~ parity._shown(row['key'], none, max_value_chars) ~ " ") if row['key'] is not none else '') ~ row['kind'] ~ (" " ~ row['column_name'] if row['column_name'] else '')
                    ~ ": source " ~ parity._shown(row['source_value'], row['source_hash'], max_value_chars)
                    ~ " | target " ~ parity._shown(row['target_value'], row['target_hash'], max_value_chars), info=True) -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if pairs | length -%}
        {%- do log('', info=True) -%}
        {%- do log('Full results: ' ~ summary ~ ' and ' ~ differences, info=True) -%}
    {%- endif -%}
    {{ return('') }}
{% endmacro %}


{#- The first differences of each pair that did not pass, by pair name: its first
    example_rows schema findings (no key), as many whole rows (missing, duplicated), then as
    many values of each differing column, so that a column differing on every row is shown
    whatever else differs; each group by kind, then by key. One query for
    every pair, not one each, so that a run of many pairs reports as quickly as a run of one.
    Read from the history by each result's run (the summary's run_id), which is what
    parity_differences shows of them: the view finds the published results again in each
    branch of its union, twice the query's time. -#}
{% macro _report_examples(run_differences, run_results, pairs, example_rows) %}
    {%- set failed = pairs | rejectattr('passed') | list -%}
    {%- set examples = {} -%}
    {%- if failed and example_rows > 0 -%}
        {%- set shown = 'pair_name, key, kind, column_name, source_value, target_value, source_hash, target_hash' -%}
        {%- set results = parity._report_results_of(failed) -%}
        {%- set of_column = 'key is not null and column_name is not null' -%}
        {%- set found = run_query('select ' ~ shown ~ ' from ('
            ~ 'select *, row_number() over (partition by pair_name, key is null, case when ' ~ of_column ~ ' then column_name end'
            ~ ' order by kind, length(key), key, column_name) as example from ('
            ~ 'select ' ~ shown ~ ' from ' ~ run_differences ~ ' where ' ~ results
            ~ ' union all select ' ~ shown ~ ' from (select pair_name, inline(differences) from ' ~ run_results ~ ' where ' ~ results ~ '))'
            ~ ') where example <= ' ~ example_rows
            ~ ' order by pair_name, key is not null, ' ~ of_column ~ ', case when ' ~ of_column ~ ' then column_name end, example') -%}
        {%- set examples = parity._report_by_pair(found) -%}
    {%- endif -%}
    {{ return(examples) }}
{% endmacro %}


{#- The differing columns of each pair with differing values, by pair name, from
    parity_column_drift: one query for every pair. Most differing values first. -#}
{% macro _report_columns(drift, pairs) %}
    {%- set differing = [] -%}
    {%- for pair in pairs if pair['data_compared'] and (pair['mismatched_values'] or pair['within_tolerance_values']) -%}
        {%- do differing.append(pair) -%}
    {%- endfor -%}
    {%- set columns = {} -%}
    {%- if differing and drift is not none -%}
        {%- set found = run_query('select * from ' ~ drift ~ ' where ' ~ parity._report_results_of(differing)
            ~ ' and out_of_tolerance + within_tolerance > 0 order by pair_name, out_of_tolerance desc, within_tolerance desc, column_name') -%}
        {%- set columns = parity._report_by_pair(found) -%}
    {%- endif -%}
    {{ return(columns) }}
{% endmacro %}


{#- The condition that selects these pairs' results, each of the run that computed it. -#}
{% macro _report_results_of(pairs) %}
    {%- set listed = [] -%}
    {%- for pair in pairs -%}
        {%- do listed.append('(' ~ parity._spark_string_literal(pair['run_id']) ~ ', ' ~ parity._spark_string_literal(pair['pair_name']) ~ ')') -%}
    {%- endfor -%}
    {{ return('(run_id, pair_name) in (' ~ listed | join(', ') ~ ')') }}
{% endmacro %}


{#- A query's rows by their `pair_name`, in the order the query gave them. -#}
{% macro _report_by_pair(rows) %}
    {%- set grouped = {} -%}
    {%- for row in rows -%}
        {%- do grouped.setdefault(row['pair_name'], []).append(row) -%}
    {%- endfor -%}
    {{ return(grouped) }}
{% endmacro %}


{#- A differing column in one line: its values beyond and within tolerance (one per row), those
    NULL on one side, and, for a number, date or timestamp not sensitive, its largest error and
    the mean over its differing values that have one. -#}
{% macro _report_column(column) %}
    {%- set beyond = column['out_of_tolerance'] -%}
    {%- set line = "  column " ~ column['column_name'] ~ ": " ~ beyond ~ (" row differs" if beyond == 1 else " rows differ") ~ " beyond tolerance, "
        ~ column['within_tolerance'] ~ " within; NULL on one side " ~ column['null_on_one_side'] -%}
    {%- if column['max_abs_error'] is none -%}
        {{ return(line) }}
    {%- endif -%}
    {%- set unit = ' ms' if column['max_lag_ms'] is not none else (' days' if column['max_relative_error'] is none else '') -%}
    {%- set measured = column['out_of_tolerance'] + column['within_tolerance'] - column['null_on_one_side'] -%}
    {%- set mean = column['mean_abs_error'] * column['values_compared'] / measured if measured > 0 and column['mean_abs_error'] is not none else none -%}
    {{ return(line ~ "; max error " ~ parity._report_number(column['max_abs_error']) ~ unit
        ~ (", mean " ~ parity._report_number(mean) ~ unit if mean is not none else '')) }}
{% endmacro %}


{#- A measure as the report prints it: a whole number without its fraction, else 6 significant
    digits. -#}
{% macro _report_number(value) %}
    {{ return(value | int if value == value | int else '%.6g' | format(value)) }}
{% endmacro %}


{#- What the latest plan warns of each pair (parity_plan's `warnings`: a role that may write a
    relation it compares), by pair name: the role as this run found it, whichever run computed the
    result shown (none from a plan an earlier version of parity built, without the column). A
    plan this run built has the column: its columns are read only of a plan built before. -#}
{% macro _report_warnings(plan, built) %}
    {%- set warnings = {} -%}
    {%- if plan is not none and (built or 'warnings' in adapter.get_columns_in_relation(plan) | map(attribute='name') | list) -%}
        {%- for row in run_query("select pair_name, warnings from " ~ plan ~ " where warnings <> '[]'") -%}
            {%- do warnings.update({row['pair_name']: fromjson(row['warnings'])}) -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(warnings) }}
{% endmacro %}


{#- A value as the report prints it, on one line of bounded length: quoted, so that '' and ' '
    differ; a backslash, a quote and each control character escaped; at most max_chars of it,
    with the whole length when cut; a sensitive value (none, with a hash) as hidden. -#}
{% macro _shown(value, hash, max_chars) %}
    {%- if value is none -%}
        {{ return('NULL' if hash is none else 'hidden (' ~ hash[:19] ~ '...)') }}
    {%- endif -%}
    {%- set text = value | string -%}
    {%- set shown = namespace(text=text[:max_chars].replace('\\', '\\\\').replace("'", "\\'")) -%}
    {%- for code, escaped in [(10, '\\n'), (13, '\\r'), (9, '\\t')] -%}
        {%- set shown.text = shown.text.replace('%c' | format(code), escaped) -%}
    {%- endfor -%}
    {%- for code in range(32) | list + [127] -%}
        {%- set shown.text = shown.text.replace('%c' | format(code), '\\x%02x' | format(code)) -%}
    {%- endfor -%}
    {%- set cut = ' ... (' ~ (text | length) ~ ' characters)' if text | length > max_chars else '' -%}
    {{ return("'" ~ shown.text ~ "'" ~ cut) }}
{% endmacro %}


{#- A pair's status, schema contract and key counts: whether its data was compared at all, and
    why not. -#}
{% macro _report_contracts(pair) %}
    {%- if pair['status'] == 'error' -%}
        {%- do log("  not reconciled: " ~ pair['status_reason'], info=True) -%}
    {%- elif not pair['data_compared'] -%}
        {%- do log("  schema incompatible under its compatibility mode, no data compared: " ~ pair['schema_findings']
            ~ " schema findings (see parity_schema_diff)", info=True) -%}
    {%- else -%}
        {%- do log("  keys: source " ~ pair['source_null_keys'] ~ " NULL, " ~ pair['source_duplicate_keys'] ~ " duplicated; target "
            ~ pair['target_null_keys'] ~ " NULL, " ~ pair['target_duplicate_keys'] ~ " duplicated"
            ~ (" (flagged by enforce_key: warn)" if pair['keys_flagged'] else ""), info=True) -%}
    {%- endif -%}
{% endmacro %}


{#- Whether the pair's filters ran beyond the allow-list: trusted by the project, or calling
    functions it added to a dialect's list. -#}
{% macro _report_filter_trust(pair) %}
    {%- set filters = fromjson(pair['filters'] or '{}') -%}
    {%- if filters.get('trusted_filters') -%}
        {%- do log("  filters trusted (var parity_trust_filters): not held to the allow-list", info=True) -%}
    {%- endif -%}
    {%- for side, names in (filters.get('added_filter_functions') or {}).items() -%}
        {%- do log("  " ~ side ~ " filter may call functions the project added (var parity_filter_functions): " ~ names | join(', '), info=True) -%}
    {%- endfor -%}
{% endmacro %}


{#- Whether this command may report: one that runs models (run, build, retry) or the report
    itself (run-operation). Commands that only compile (compile, docs generate, show) render the
    on-run-end hooks too, with no results and `execute` true: they reconciled nothing, so they
    report nothing. -#}
{% macro _reports_here() %}
    {{ return(flags.WHICH in ['run', 'build', 'retry', 'run-operation']) }}
{% endmacro %}


{#- The status of each of this package's models the command selected (success, error or
    skipped), by model name, from the results dbt gives an on-run-end hook. -#}
{% macro _statuses(results) %}
    {%- set statuses = {} -%}
    {%- for result in results if result.node.package_name == 'parity' and result.node.resource_type == 'model' -%}
        {%- do statuses.update({result.node.name: result.status | string}) -%}
    {%- endfor -%}
    {{ return(statuses) }}
{% endmacro %}


{#- What failed in this run, before anything else: each node that errored, with the first line
    of its message (dbt's own; for a compilation or database error, whose first line only names
    the node, the line after it too). -#}
{% macro _report_errors(results) %}
    {%- set errored = [] -%}
    {%- for result in results if result.status | string == 'error' -%}
        {%- do errored.append(result) -%}
    {%- endfor -%}
    {%- if errored -%}
        {%- do log('', info=True) -%}
        {%- do log('parity: this run failed: ' ~ errored | length ~ ' node(s) errored', info=True) -%}
    {%- endif -%}
    {%- for result in errored -%}
        {%- set lines = (result.message or 'no message') | string | trim | replace('\r', '') -%}
        {%- set lines = lines.split('\n') | map('trim') | reject('equalto', '') | list -%}
        {%- set said = lines[0] ~ (': ' ~ lines[1] if ' Error in ' in lines[0] and lines | length > 1 else '') -%}
        {%- do log('  ' ~ result.node.resource_type ~ ' ' ~ result.node.name ~ ': ' ~ said, info=True) -%}
    {%- endfor -%}
{% endmacro %}


{#- A pair's verdict, as the report prints it. -#}
{% macro _verdict(pair) %}
    {{ return('ERROR' if pair['status'] == 'error' else ('PASS' if pair['passed'] else ('HALTED' if pair['halted'] else 'DIFFERENT'))) }}
{% endmacro %}


{#- A pair of an earlier run in one line: its verdict and counts, no example. -#}
{% macro _report_short(pair) %}
    {%- set line = "  parity pair '" ~ pair['pair_name'] ~ "': " ~ parity._verdict(pair) -%}
    {%- if pair['status'] == 'error' -%}
        {{ return(line ~ ": " ~ pair['status_reason']) }}
    {%- elif not pair['data_compared'] -%}
        {{ return(line ~ ": no data compared, " ~ pair['schema_findings'] ~ " schema findings") }}
    {%- endif -%}
    {{ return(line ~ ": " ~ pair['differing_rows'] ~ " differing rows, " ~ pair['mismatched_values'] ~ " mismatched values, "
        ~ pair['within_tolerance_values'] ~ " values within tolerance" ~ (" (only those seen)" if pair['within_tolerance_counted'] == 'seen' else '')
        ~ "; schema findings " ~ pair['schema_findings']) }}
{% endmacro %}
