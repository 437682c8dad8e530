{#- The plan row of one pair: introspects both relations, classifies and matches their columns
    (parity.schema_diff), negotiates their profiles, chooses the algorithm and renders what each
    side runs. Pair-level fields once; each side's under its `source_` or `target_` prefix. -#}
{% macro pair_plan(pair, remote_columns, descriptions) %}
    {%- set where = "parity pair '" ~ pair['name'] ~ "'" -%}
    {%- set locations = {'source': parity.side_location(pair['source']), 'target': parity.side_location(pair['target'])} -%}
    {%- set warnings = parity._side_warnings(pair['name'], remote_columns) -%}
    {%- set problems = [] -%}
    {%- for side, location in locations.items() if 'format' in location -%}
        {%- do location.update(parity.file_read(where, side, location)) -%}
        {%- if location['problem'] -%}
            {%- do problems.append(side ~ " relation (source " ~ location['source'] ~ "): " ~ location['problem']) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if problems -%}
        {#- The other side's files, if read, are not described. -#}
        {%- for location in locations.values() if location.get('described') -%}
            {%- do run_query('drop view if exists ' ~ parity.quote_identifier('spark', location['described'])) -%}
        {%- endfor -%}
        {{ return(parity._not_planned(pair, locations, problems, warnings, remote_columns)) }}
    {%- endif -%}
    {%- set described = {} -%}
    {%- for side, location in locations.items() -%}
        {%- set columns = parity._described_columns(pair['name'], side, pair[side], location, remote_columns, descriptions) -%}
        {%- if columns is string -%}
            {%- do problems.append(columns) -%}
        {%- endif -%}
        {%- do described.update({side: columns}) -%}
    {%- endfor -%}
    {%- set key_count = pair['key'] | length -%}
    {#- Every column the pair names, on both sides, before anything is planned of it. -#}
    {%- set unknown = parity.named_columns_problem(pair, locations, described) if not problems else '' -%}
    {%- if unknown -%}
        {%- do problems.append(unknown) -%}
    {%- endif -%}
    {%- set diff = parity.schema_diff(pair, described) if not problems else {} -%}
    {%- if diff.get('problem') -%}
        {%- do problems.append(diff['problem']) -%}
    {%- endif -%}
    {%- if problems -%}
        {{ return(parity._not_planned(pair, locations, problems, warnings, remote_columns)) }}
    {%- endif -%}
    {%- set matched = diff['compared'] -%}
    {%- set findings = parity.schema_findings(pair, diff['changes'], {'source': locations['source']['dialect'], 'target': locations['target']['dialect']}) -%}
    {%- set rules = [] -%}
    {%- for column in matched['source'][key_count:] -%}
        {%- do rules.append(parity.column_rule(column['name'], column['profile'], pair['tolerance'])) -%}
    {%- endfor -%}
    {%- set window_sides = {} -%}
    {%- if pair['time_window'] -%}
        {%- for side, location in locations.items() -%}
            {%- set name = pair['time_window']['column'] -%}
            {%- set name = pair['renames'].get(name, name) if side == 'target' else name -%}
            {%- do window_sides.update({side: {'dialect': location['dialect'], 'column': parity._found_column(described[side], name)}}) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- for problem in [
        parity._tolerance_columns_problem(pair['tolerance'], rules),
        parity._tolerance_kinds_problem(matched['source'][key_count:], pair['tolerance']),
        parity._sensitive_columns_problem(pair, rules),
        parity._window_kinds_problem(pair, window_sides),
    ] if problem -%}
        {%- do problems.append(problem) -%}
    {%- endfor -%}
    {%- if problems -%}
        {{ return(parity._not_planned(pair, locations, problems, warnings, remote_columns)) }}
    {%- endif -%}
    {%- set dialects = [locations['source']['dialect'], locations['target']['dialect']] -%}
    {%- for rule in rules -%}
        {%- set grid = parity.hash_grid(rule['kind'], rule['tolerance'], dialects) if pair['tolerant_checksums'] else none -%}
        {%- set position = key_count + loop.index0 -%}
        {%- if grid -%}
            {%- do rule.update({'hash_grid': grid}) -%}
            {%- for side in ['source', 'target'] -%}
                {%- do matched[side][position].update({'hash_grid': grid}) -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set filters = parity.side_filters(where, pair, {'source': dialects[0], 'target': dialects[1]}, window_sides) -%}
    {%- set aliases = parity.column_aliases(key_count, rules | length) -%}
    {#- A side in Spark (a table, a view or files) is read through the session; any other through
        its own engine's connection. -#}
    {%- set in_session = {'source': dialects[0] == 'spark', 'target': dialects[1] == 'spark'} -%}
    {%- set algorithm = parity._algorithm(where, pair['algorithm'], in_session.values() | list) -%}
    {%- set native = parity.natively_keyed(matched['source'][:key_count], matched['target'][:key_count])
        + parity.natively_hashed(matched['source'][key_count:], matched['target'][key_count:]) -%}
    {%- set row = {
        'pair_name': pair['name'],
        'algorithm': algorithm,
        'key_columns': tojson(aliases['keys']),
        'value_columns': tojson(aliases['values']),
        'position_column': aliases['position'],
        'key_is_position': parity.key_is_position(key_count, matched['source']) | string | lower,
        'native_hash_column': aliases['native_hash'],
        'config_json': tojson(pair),
        'column_rules': tojson(rules),
        'schema_findings': tojson(findings),
        'filters': tojson(filters['applied']),
        'schema_diff': tojson(diff['changes']),
        'problem': '',
        'warnings': tojson(warnings),
    } -%}
    {%- for side, location in locations.items() -%}
        {%- set dialect = location['dialect'] -%}
        {#- What the SQL selects from: the relation, or the view over files that parity registers. -#}
        {%- set reads = location.get('reads', location['name']) -%}
        {%- set canonical_sql = parity.side_select(dialect, reads, key_count, matched[side], filters[side], exact=true) -%}
        {#- Each matched column's canonical text over the relation itself, for an apply to read the
            rows it corrects as the comparison read them. -#}
        {%- set canonical_columns = [] -%}
        {%- for column in matched[side] -%}
            {%- do canonical_columns.append(parity.canonical_value(dialect, parity.quote_identifier(dialect, column['name']), column['profile'])) -%}
        {%- endfor -%}
        {%- set queries = {'profile': '', 'checksums': '', 'rows': ''} if in_session[side]
            else parity.remote_queries(dialect, location['name'], key_count, matched[side], filters[side], aliases) -%}
        {%- do row.update({
            side ~ '_dialect': dialect,
            side ~ '_in_session': in_session[side] | string | lower,
            side ~ '_connection_env': location['connection_env'] or '',
            side ~ '_statement_timeout_seconds': (location.get('statement_timeout_seconds') or '') | string,
            side ~ '_allowed_paths': tojson(location.get('allowed_paths', [])),
            side ~ '_connections': (location.get('connections') or 1) | string,
            side ~ '_relation_name': location['name'],
            side ~ '_canonical_sql': canonical_sql,
            side ~ '_native_sql': parity.native_select(reads, key_count, matched[side], native, filters[side]) if algorithm == 'joindiff' else '',
            side ~ '_checksum_sql': parity.segment_checksum(dialect, aliases['hash']),
            side ~ '_exact_checksum_sql': parity.segment_checksum(dialect, parity.exact_hash_alias(aliases, matched[side])),
            side ~ '_profile_sql': queries['profile'],
            side ~ '_blocks_sql': queries['blocks'],
            side ~ '_bounds_sql': queries['bounds'],
            side ~ '_blocks_between_sql': queries['blocks_between'],
            side ~ '_duplicates_sql': queries['duplicates'],
            side ~ '_duplicate_examples_sql': queries['duplicate_examples'],
            side ~ '_checksums_sql': queries['checksums'],
            side ~ '_rows_sql': queries['rows'],
            side ~ '_rows_of_keys_sql': queries['rows_of_keys'],
            side ~ '_key_names': tojson(matched[side][:key_count] | map(attribute='name') | list),
            side ~ '_column_names': tojson(matched[side][key_count:] | map(attribute='name') | list),
            side ~ '_column_profiles': tojson(matched[side] | map(attribute='profile') | list),
            side ~ '_canonical_columns': tojson(canonical_columns),
            side ~ '_schema_snapshot': tojson(parity.schema_snapshot(described[side])),
            side ~ '_file_view': tojson(location['file_view']) if location.get('file_view') else '',
            side ~ '_fingerprint': parity._side_fingerprint(pair['name'], side, remote_columns),
        }) -%}
    {%- endfor -%}
    {{ return(row) }}
{% endmacro %}


{#- The plan row of a pair not planned (`_unplanned_row`), its problems said in dbt's log as the
    plan finds them, within seconds of the run's start: a warning naming the pair, once. Those
    parity_remote_columns found (an engine it could not reach or read) it logged itself, once per
    connection. -#}
{% macro _not_planned(pair, locations, problems, warnings, remote_columns) %}
    {%- set logged = [] -%}
    {%- for column in remote_columns if column['pair_name'] == pair['name'] and column['problem'] -%}
        {%- do logged.append(column['problem']) -%}
    {%- endfor -%}
    {%- for problem in problems if problem not in logged -%}
        {%- do exceptions.warn("parity pair '" ~ pair['name'] ~ "': not planned: " ~ problem) -%}
    {%- endfor -%}
    {{ return(parity._unplanned_row(pair, locations, problems | join('; '), warnings)) }}
{% endmacro %}


{#- The columns of `sensitive_columns` the pair neither keys on nor compares (an excluded column,
    one left out as a schema finding): the pair's problem, naming them all; '' when there is none. -#}
{% macro _sensitive_columns_problem(pair, rules) %}
    {%- set known = (pair['key'] + (rules | map(attribute='column') | list)) | map('lower') | list -%}
    {%- set unknown = [] -%}
    {%- for name in pair['sensitive_columns'] if name | lower not in known -%}
        {%- do unknown.append("'" ~ name ~ "'") -%}
    {%- endfor -%}
    {{ return(("sensitive_columns names column " ~ (unknown | join(', ')) ~ ", which the pair neither keys on nor compares") if unknown else '') }}
{% endmacro %}


{#- The plan row of a pair whose side could not be read: its configuration and the problem,
    which fails the pair when it is reconciled, and nothing planned (parity_plan leaves every
    other field empty). -#}
{% macro _unplanned_row(pair, locations, problem, warnings) %}
    {%- set row = {
        'pair_name': pair['name'],
        'algorithm': pair['algorithm'],
        'key_columns': '[]',
        'value_columns': '[]',
        'key_is_position': 'false',
        'config_json': tojson(pair),
        'column_rules': '[]',
        'schema_findings': '[]',
        'filters': '{}',
        'schema_diff': '[]',
        'problem': problem,
        'warnings': tojson(warnings),
    } -%}
    {%- for side, location in locations.items() -%}
        {%- do row.update({
            side ~ '_dialect': location['dialect'],
            side ~ '_in_session': (location['dialect'] == 'spark') | string | lower,
            side ~ '_relation_name': location['name'] or '',
            side ~ '_key_names': '[]',
            side ~ '_column_names': '[]',
            side ~ '_column_profiles': '[]',
            side ~ '_canonical_columns': '[]',
            side ~ '_schema_snapshot': '[]',
        }) -%}
    {%- endfor -%}
    {{ return(row) }}
{% endmacro %}


{#- What the plan says of the pair's sides outside Spark, each naming its side and relation: a
    role that may write the relation (parity_remote_columns). -#}
{% macro _side_warnings(pair_name, remote_columns) %}
    {%- set warnings = [] -%}
    {%- for column in remote_columns if column['pair_name'] == pair_name and column['warning'] -%}
        {%- do warnings.append(column['warning']) -%}
    {%- endfor -%}
    {{ return(warnings) }}
{% endmacro %}


{#- The algorithm a pair runs: `auto` is joindiff when both sides are in the Spark session, else
    hashdiff; joindiff is refused for a side outside it. -#}
{% macro _algorithm(where, algorithm, sides_in_session) %}
    {%- set in_session = sides_in_session | select | list | length == 2 -%}
    {%- if algorithm == 'joindiff' and not in_session -%}
        {{ exceptions.raise_compiler_error(where ~ ": joindiff needs both sides in the Spark session: use hashdiff") }}
    {%- endif -%}
    {{ return(algorithm if algorithm != 'auto' else ('joindiff' if in_session else 'hashdiff')) }}
{% endmacro %}


{#- The columns of one side, from Spark's catalog, from the files of a file relation or, for a
    side in another engine, from what parity_remote_columns read in that engine's catalog: name,
    declared type, nullability (none when unknown), nested fields, dialect and type profile; or,
    when the side has no columns to describe (a relation that does not exist, an engine that
    could not be read), why, as a string: the pair's problem. -#}
{% macro _described_columns(pair_name, side, spec, location, remote_columns, descriptions) %}
    {%- set described = [] -%}
    {%- set where = side ~ " relation " ~ location['name'] ~ " (" ~ location['dialect'] ~ ")" -%}
    {%- if 'format' in location -%}
        {%- do described.extend(parity.file_columns(location)) -%}
    {%- elif location['dialect'] == 'spark' -%}
        {#- Described once per plan, however many pairs compare it: in one lookup of dbt's own
            session where dbt runs Spark (adapter.parity_spark_columns), else through SQL. -#}
        {%- if location['name'] not in descriptions -%}
            {%- set columns = adapter.parity_spark_columns(location['name']) -%}
            {%- do descriptions.update({location['name']: parity.spark_columns(spec, location['name']) if columns is none else columns}) -%}
        {%- endif -%}
        {%- for found in descriptions[location['name']] -%}
            {%- do described.append({'name': found['name'], 'data_type': found['data_type'], 'nullable': found['nullable'], 'fields': found['fields']}) -%}
        {%- endfor -%}
    {%- else -%}
        {%- for column in remote_columns if column['pair_name'] == pair_name and column['side'] == side -%}
            {%- if column['problem'] -%}
                {{ return(column['problem']) }}
            {%- endif -%}
            {%- do described.append({'name': column['column_name'], 'data_type': column['data_type'], 'nullable': column['nullable'], 'fields': [], 'rounding': column['rounding']}) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- for column in described -%}
        {%- set profile = parity.type_profile(location['dialect'], column['data_type']) -%}
        {#- The rule the server stored finer fractions of a second by, where it says one. -#}
        {%- set rounding = column.pop('rounding', none) -%}
        {%- if rounding and 'rounding' in profile -%}
            {%- do profile.update({'rounding': rounding}) -%}
        {%- endif -%}
        {%- do column.update({'dialect': location['dialect'], 'profile': profile}) -%}
    {%- endfor -%}
    {%- if not described and location['connection_env'] -%}
        {{ return(where ~ " does not exist or has no columns, or its columns were not read in this run: build parity_remote_relations"
            ~ " and parity_remote_columns with parity_plan (dbt build selects them all)") }}
    {%- elif not described -%}
        {{ return(where ~ " does not exist or has no columns") }}
    {%- endif -%}
    {{ return(described) }}
{% endmacro %}


{#- The change fingerprint parity_remote_columns read for a side in PostgreSQL (its first row's),
    or '' where it read none. -#}
{% macro _side_fingerprint(pair_name, side, remote_columns) %}
    {%- for column in remote_columns if column['pair_name'] == pair_name and column['side'] == side and column['fingerprint'] -%}
        {{ return(column['fingerprint']) }}
    {%- endfor -%}
    {{ return('') }}
{% endmacro %}
