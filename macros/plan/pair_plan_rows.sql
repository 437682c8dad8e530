{#- The two plan rows of one pair (source side, target side): introspects both relations, matches
    the compared columns, negotiates their profiles and renders each side's canonical SQL. -#}
{% macro pair_plan_rows(pair, remote_columns) %}
    {%- set where = "parity pair '" ~ pair['name'] ~ "'" -%}
    {%- set locations = {'source': parity.side_location(pair['source']), 'target': parity.side_location(pair['target'])} -%}
    {%- set described = {} -%}
    {%- for side, location in locations.items() -%}
        {%- do described.update({side: parity._described_columns(where, pair['name'], side, pair[side], location, remote_columns)}) -%}
    {%- endfor -%}
    {%- set key_count = pair['key'] | length -%}
    {%- set defaulted = not pair['columns'] -%}
    {%- set names = pair['key'] + (pair['columns'] or parity._default_compared_columns(described['source'], pair['key'] + pair['exclude_columns'])) -%}
    {%- set matched = {'source': [], 'target': []} -%}
    {%- set rules = [] -%}
    {%- set findings = [] -%}
    {%- set left_out = [] -%}
    {%- for name in names -%}
        {%- set target_name = pair['renames'].get(name, name) -%}
        {%- if defaulted and loop.index0 >= key_count and name not in pair['renames'] and parity._found_column(described['target'], target_name) is none -%}
            {%- set source_column = parity._found_column(described['source'], name) -%}
            {%- do findings.append({'kind': 'column_missing_in_target', 'column_name': name, 'source_type': source_column['data_type'], 'target_type': none}) -%}
        {%- else -%}
            {%- set source_column = parity._column_named(where, 'source', locations['source'], described['source'], name) -%}
            {%- set target_column = parity._column_named(where, 'target', locations['target'], described['target'], target_name) -%}
            {%- set profiles = parity.negotiate_profile(source_column, target_column) -%}
            {%- if profiles is string and loop.index0 < key_count -%}
                {{ exceptions.raise_compiler_error(where ~ ": key column '" ~ name ~ "': " ~ profiles) }}
            {%- elif profiles is string -%}
                {%- do left_out.append(target_column['name'] | lower) -%}
                {%- do findings.append({'kind': 'type_mismatch', 'column_name': name,
                    'source_type': source_column['data_type'] ~ ' (' ~ source_column['dialect'] ~ ')',
                    'target_type': target_column['data_type'] ~ ' (' ~ target_column['dialect'] ~ ')'}) -%}
            {%- else -%}
                {%- do matched['source'].append({'name': source_column['name'], 'profile': profiles[0]}) -%}
                {%- do matched['target'].append({'name': target_column['name'], 'profile': profiles[1]}) -%}
                {%- if loop.index0 >= key_count -%}
                    {%- do rules.append(parity.column_rule(where, name, profiles[0], pair['tolerance'])) -%}
                {%- endif -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do parity._check_tolerance_columns(where, pair['tolerance'], rules) -%}
    {%- set known = (pair['key'] + (rules | map(attribute='column') | list)) | map('lower') | list -%}
    {%- for name in pair['sensitive_columns'] if name | lower not in known -%}
        {{ exceptions.raise_compiler_error(where ~ ": sensitive_columns names column '" ~ name ~ "', which the pair neither keys on nor compares") }}
    {%- endfor -%}
    {%- if defaulted -%}
        {%- set excluded = [] -%}
        {%- for name in pair['exclude_columns'] -%}
            {%- do excluded.append(pair['renames'].get(name, name) | lower) -%}
        {%- endfor -%}
        {%- set compared = (matched['target'] | map(attribute='name') | map('lower') | list) + left_out + excluded -%}
        {%- for column in described['target'] if column['name'] | lower not in compared -%}
            {%- do findings.append({'kind': 'column_missing_in_source', 'column_name': column['name'], 'source_type': none, 'target_type': column['data_type']}) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- set window_sides = {} -%}
    {%- if pair['time_window'] -%}
        {%- for side, location in locations.items() -%}
            {%- set name = pair['time_window']['column'] -%}
            {%- set name = pair['renames'].get(name, name) if side == 'target' else name -%}
            {%- do window_sides.update({side: {'dialect': location['dialect'], 'column': parity._column_named(where, side, location, described[side], name)}}) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- set filters = parity.side_filters(where, pair, window_sides) -%}
    {%- set rows = [] -%}
    {%- for side, location in locations.items() -%}
        {%- set dialect = location['dialect'] -%}
        {%- do rows.append({
            'pair_name': pair['name'],
            'side': side,
            'dialect': dialect,
            'connection_env': location['connection_env'] or '',
            'relation_name': location['name'],
            'canonical_sql': parity.side_select(dialect, location['name'], key_count, matched[side], filters[side]),
            'checksum_sql': parity.segment_checksum(dialect, '__parity_hash'),
            'cell_sql': '' if dialect == 'spark' else parity.cell_number(dialect),
            'key_names': tojson(matched[side][:key_count] | map(attribute='name') | list),
            'column_names': tojson(matched[side][key_count:] | map(attribute='name') | list),
            'config_json': tojson(pair),
            'column_rules': tojson(rules),
            'schema_findings': tojson(findings),
            'filters': tojson(filters['applied']),
        }) -%}
    {%- endfor -%}
    {{ return(rows) }}
{% endmacro %}


{#- The columns of one side, from Spark's catalog, from the files of a file relation or, for a
    side in another engine, from what parity_remote_columns read in that engine's catalog. -#}
{% macro _described_columns(where, pair_name, side, spec, location, remote_columns) %}
    {%- set described = [] -%}
    {%- if 'format' in location -%}
        {%- do described.extend(parity.file_columns(where, side, location)) -%}
    {%- elif location['dialect'] == 'spark' -%}
        {%- for column in adapter.get_columns_in_relation(parity.parity_relation(spec)) -%}
            {%- do described.append({'name': column.name, 'data_type': column.data_type}) -%}
        {%- endfor -%}
    {%- else -%}
        {%- for column in remote_columns if column['pair_name'] == pair_name and column['side'] == side -%}
            {%- do described.append({'name': column['column_name'], 'data_type': column['data_type']}) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- for column in described -%}
        {%- do column.update({
            'dialect': location['dialect'],
            'profile': parity.type_profile(location['dialect'], column['data_type']),
        }) -%}
    {%- endfor -%}
    {%- if not described -%}
        {{ exceptions.raise_compiler_error(where ~ ": " ~ side ~ " relation " ~ location['name'] ~ " (" ~ location['dialect'] ~ ") does not exist or has no columns") }}
    {%- endif -%}
    {{ return(described) }}
{% endmacro %}


{#- Every source column but the key and the excluded columns. -#}
{% macro _default_compared_columns(source_columns, left_out) %}
    {%- set lowered = left_out | map('lower') | list -%}
    {%- set compared = [] -%}
    {%- for column in source_columns if column['name'] | lower not in lowered -%}
        {%- do compared.append(column['name']) -%}
    {%- endfor -%}
    {{ return(compared) }}
{% endmacro %}


{#- The described column of that name, case-insensitively, or none. -#}
{% macro _found_column(described, name) %}
    {%- for column in described if column['name'] | lower == name | lower -%}
        {{ return(column) }}
    {%- endfor -%}
    {{ return(none) }}
{% endmacro %}


{% macro _column_named(where, side, location, described, name) %}
    {%- set column = parity._found_column(described, name) -%}
    {%- if column is not none -%}
        {{ return(column) }}
    {%- endif -%}
    {{ exceptions.raise_compiler_error(where ~ ": column '" ~ name ~ "' not found in " ~ side ~ " relation " ~ location['name']
        ~ " (its columns: " ~ (described | map(attribute='name') | join(', ')) ~ ")") }}
{% endmacro %}
