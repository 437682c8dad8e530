{#- The one place a pair's columns are classified. Each column of the pair (the key, the compared
    columns and, with the default `columns`, the target's columns the source lacks) is matched
    through `renames`, negotiated for comparison, and classified by what changed from source to
    target: `compared` holds the columns both sides canonicalize ({name, data_type, profile} per
    side, key first), `changes` one row per column and change (parity_schema_diff), from which
    parity.schema_findings draws the pair's schema findings. Every column the pair names is on its
    side (parity.named_columns_problem checked them first); a key column whose types cannot be
    compared returns {problem} instead: the pair's error, while every other pair is planned. -#}
{% macro schema_diff(pair, described) %}
    {%- set key_count = pair['key'] | length -%}
    {%- set defaulted = not pair['columns'] -%}
    {%- set names = pair['key'] + (pair['columns'] or parity._default_compared_columns(described['source'], pair['key'] + pair['exclude_columns'])) -%}
    {%- set compared = {'source': [], 'target': []} -%}
    {%- set changes = [] -%}
    {%- set paired_targets = [] -%}
    {%- for name in names -%}
        {%- set target_name = pair['renames'].get(name, name) -%}
        {%- if defaulted and loop.index0 >= key_count and name not in pair['renames'] and parity._found_column(described['target'], target_name) is none -%}
            {%- do changes.append(parity._column_change('removed', name, parity._found_column(described['source'], name), none, false)) -%}
        {%- else -%}
            {%- set source_column = parity._found_column(described['source'], name) -%}
            {%- set target_column = parity._found_column(described['target'], target_name) -%}
            {%- do paired_targets.append(target_column['name'] | lower) -%}
            {%- set profiles = parity.negotiate_profile(source_column, target_column, parity._side_time_zones(pair)) -%}
            {%- if profiles is string and loop.index0 < key_count -%}
                {{ return({'problem': "key column '" ~ name ~ "': " ~ profiles}) }}
            {%- elif profiles is not string -%}
                {%- do compared['source'].append({'name': source_column['name'], 'data_type': source_column['data_type'], 'profile': profiles[0]}) -%}
                {%- do compared['target'].append({'name': target_column['name'], 'data_type': target_column['data_type'], 'profile': profiles[1]}) -%}
            {%- endif -%}
            {%- do changes.extend(parity._column_changes(name, source_column, target_column, profiles is not string)) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if defaulted -%}
        {%- for name in pair['exclude_columns'] -%}
            {%- do paired_targets.append(pair['renames'].get(name, name) | lower) -%}
        {%- endfor -%}
        {%- for column in described['target'] if column['name'] | lower not in paired_targets -%}
            {%- do changes.append(parity._column_change('added', column['name'], none, column, false)) -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return({'compared': compared, 'changes': changes}) }}
{% endmacro %}


{#- The changes of a column present on both sides: renamed, its type's change, its nullability
    and its nested fields'; `unchanged` when there is none. -#}
{% macro _column_changes(name, source_column, target_column, comparable) %}
    {%- set changes = [] -%}
    {%- if source_column['name'] | lower != target_column['name'] | lower -%}
        {%- do changes.append(parity._column_change('renamed', name, source_column, target_column, comparable)) -%}
    {%- endif -%}
    {%- do changes.extend(parity._type_changes(name, source_column, target_column, comparable)) -%}
    {%- if source_column['profile']['kind'] == target_column['profile']['kind'] == 'nested' and comparable -%}
        {%- do changes.extend(parity._nested_field_changes(name, source_column, target_column)) -%}
    {%- endif -%}
    {%- if not changes -%}
        {%- do changes.append(parity._column_change('unchanged', name, source_column, target_column, comparable)) -%}
    {%- endif -%}
    {{ return(changes) }}
{% endmacro %}


{#- The type and nullability changes of a column or of a nested field (`field_path`). -#}
{% macro _type_changes(name, source_column, target_column, comparable, field_path=none) %}
    {%- set changes = [] -%}
    {%- set type_change = parity.type_change(source_column, target_column, comparable) -%}
    {%- if type_change != 'unchanged' -%}
        {%- do changes.append(parity._column_change(type_change, name, source_column, target_column, comparable, field_path)) -%}
    {%- endif -%}
    {%- if source_column['nullable'] is not none and target_column['nullable'] is not none and source_column['nullable'] != target_column['nullable'] -%}
        {%- do changes.append(parity._column_change('nullability_changed', name, source_column, target_column, comparable, field_path)) -%}
    {%- endif -%}
    {{ return(changes) }}
{% endmacro %}


{#- Nested fields added, removed or changed between two nested columns of the same container,
    matched by their path from the column, case-insensitively. -#}
{% macro _nested_field_changes(name, source_column, target_column) %}
    {%- set fields = {'source': {}, 'target': {}} -%}
    {%- for side, column in [('source', source_column), ('target', target_column)] -%}
        {%- for field in column['fields'] -%}
            {%- set path = field['path'][column['name'] | length:] -%}
            {%- do fields[side].update({path | lower: {
                'path': name ~ path,
                'data_type': field['data_type'],
                'nullable': field['nullable'],
                'dialect': column['dialect'],
                'profile': parity.type_profile(column['dialect'], field['data_type']),
            }}) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set changes = [] -%}
    {%- for path, field in fields['source'].items() -%}
        {%- set other = fields['target'].get(path) -%}
        {%- if other is none -%}
            {%- do changes.append(parity._column_change('nested_field_removed', name, field, none, true, field['path'])) -%}
        {%- else -%}
            {%- set comparable = parity.negotiate_profile(field, other) is not string -%}
            {%- do changes.extend(parity._type_changes(name, field, other, comparable, field['path'])) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- for path, field in fields['target'].items() if path not in fields['source'] -%}
        {%- do changes.append(parity._column_change('nested_field_added', name, none, field, true, field['path'])) -%}
    {%- endfor -%}
    {{ return(changes) }}
{% endmacro %}


{#- One row of the schema diff. `compared`: the column's values are in the comparison. -#}
{% macro _column_change(change, name, source_column, target_column, compared, field_path=none) %}
    {%- set row = {
        'column_name': name,
        'target_column_name': target_column['name'] if target_column is not none and field_path is none else none,
        'field_path': field_path,
        'change': change,
        'source_type': source_column['data_type'] if source_column is not none else none,
        'target_type': target_column['data_type'] if target_column is not none else none,
        'source_nullable': source_column['nullable'] if source_column is not none else none,
        'target_nullable': target_column['nullable'] if target_column is not none else none,
        'compared': compared,
    } -%}
    {%- do row.update(parity._compatible_directions(row)) -%}
    {{ return(row) }}
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
