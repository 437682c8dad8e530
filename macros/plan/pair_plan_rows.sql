{#- The two plan rows of one pair (source side, target side): introspects both relations, matches
    the compared columns, negotiates their profiles and renders each side's canonical SQL. -#}
{% macro pair_plan_rows(pair) %}
    {%- set where = "parity pair '" ~ pair['name'] ~ "'" -%}
    {%- set relations = {'source': parity.parity_relation(pair['source']), 'target': parity.parity_relation(pair['target'])} -%}
    {%- set described = {} -%}
    {%- for side, relation in relations.items() -%}
        {%- do described.update({side: parity._described_columns(where, side, relation)}) -%}
    {%- endfor -%}
    {%- set names = pair['key'] + (pair['columns'] or parity._default_compared_columns(described['source'], pair['key'])) -%}
    {%- set matched = {'source': [], 'target': []} -%}
    {%- for name in names -%}
        {%- set source_column = parity._column_named(where, 'source', relations['source'], described['source'], name) -%}
        {%- set target_column = parity._column_named(where, 'target', relations['target'], described['target'], pair['renames'].get(name, name)) -%}
        {%- set profile = parity.negotiate_profile(where, source_column, target_column) -%}
        {%- do matched['source'].append({'name': source_column['name'], 'profile': profile}) -%}
        {%- do matched['target'].append({'name': target_column['name'], 'profile': profile}) -%}
    {%- endfor -%}
    {%- set rows = [] -%}
    {%- for side in ['source', 'target'] -%}
        {%- do rows.append({
            'pair_name': pair['name'],
            'side': side,
            'dialect': 'spark',
            'relation_name': relations[side] | string,
            'canonical_sql': parity.side_select('spark', relations[side], pair['key'] | length, matched[side]),
            'checksum_sql': parity.segment_checksum('spark', '__parity_hash'),
            'key_names': tojson(matched[side][:pair['key'] | length] | map(attribute='name') | list),
            'column_names': tojson(matched[side][pair['key'] | length:] | map(attribute='name') | list),
            'segmentable': matched[side][0]['profile']['kind'] == 'integer',
            'config_json': tojson(pair),
        }) -%}
    {%- endfor -%}
    {{ return(rows) }}
{% endmacro %}


{% macro _described_columns(where, side, relation) %}
    {%- set described = [] -%}
    {%- for column in adapter.get_columns_in_relation(relation) -%}
        {%- do described.append({
            'name': column.name,
            'data_type': column.data_type,
            'profile': parity.type_profile('spark', column.data_type),
        }) -%}
    {%- endfor -%}
    {%- if not described -%}
        {{ exceptions.raise_compiler_error(where ~ ": " ~ side ~ " relation " ~ relation ~ " does not exist or has no columns") }}
    {%- endif -%}
    {{ return(described) }}
{% endmacro %}


{% macro _default_compared_columns(source_columns, key) %}
    {%- set lowered_key = key | map('lower') | list -%}
    {%- set compared = [] -%}
    {%- for column in source_columns if column['name'] | lower not in lowered_key -%}
        {%- do compared.append(column['name']) -%}
    {%- endfor -%}
    {{ return(compared) }}
{% endmacro %}


{% macro _column_named(where, side, relation, described, name) %}
    {%- for column in described if column['name'] | lower == name | lower -%}
        {{ return(column) }}
    {%- endfor -%}
    {{ exceptions.raise_compiler_error(where ~ ": column '" ~ name ~ "' not found in " ~ side ~ " relation " ~ relation
        ~ " (its columns: " ~ (described | map(attribute='name') | join(', ')) ~ ")") }}
{% endmacro %}
