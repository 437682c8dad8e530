{#- A Spark relation's columns through SQL, `[{name, data_type, nullable, fields}]`, [] when it
    does not exist: where dbt's Spark is not in its own process (adapter.parity_spark_columns,
    which reads the same in one lookup, returns none). Two statements: the plain describe
    spells each type (char and varchar kept), `describe extended ... as json` gives
    nullability and nested fields (spark_column_details). -#}
{% macro spark_columns(spec, relation_name) %}
    {%- set columns = adapter.get_columns_in_relation(parity.parity_relation(spec)) -%}
    {%- set details = parity.spark_column_details(relation_name) if columns else {} -%}
    {%- set described = [] -%}
    {%- for column in columns -%}
        {%- set found = {'name': column.name, 'data_type': column.data_type} -%}
        {%- do found.update(details.get(column.name, {'nullable': none, 'fields': []})) -%}
        {%- do described.append(found) -%}
    {%- endfor -%}
    {{ return(described) }}
{% endmacro %}


{#- Nullability and nested fields of a Spark relation's columns, by column name, from `describe
    extended ... as json` (the plain describe reports neither). Every struct field, array element
    and map key and value is a field, named by its path from the column: `address.city`,
    `tags[]`, `totals{value}.amount`. -#}
{% macro spark_column_details(relation_name) %}
    {%- set described = fromjson(run_query('describe extended ' ~ relation_name ~ ' as json').rows[0][0]) -%}
    {%- set details = {} -%}
    {%- for column in described['columns'] -%}
        {%- set fields = [] -%}
        {%- do parity._nested_fields(column['type'], column['name'], fields) -%}
        {%- do details.update({column['name']: {'nullable': column['nullable'], 'fields': fields}}) -%}
    {%- endfor -%}
    {{ return(details) }}
{% endmacro %}


{% macro _nested_fields(type, path, fields) %}
    {%- if type['name'] == 'struct' -%}
        {%- for field in type['fields'] -%}
            {%- do parity._nested_field(path ~ '.' ~ field['name'], field['type'], field['nullable'], fields) -%}
        {%- endfor -%}
    {%- elif type['name'] == 'array' -%}
        {%- do parity._nested_field(path ~ '[]', type['element_type'], type['element_nullable'], fields) -%}
    {%- elif type['name'] == 'map' -%}
        {%- do parity._nested_field(path ~ '{key}', type['key_type'], false, fields) -%}
        {%- do parity._nested_field(path ~ '{value}', type['value_type'], type['value_nullable'], fields) -%}
    {%- endif -%}
{% endmacro %}


{% macro _nested_field(path, type, nullable, fields) %}
    {%- do fields.append({'path': path, 'data_type': parity._spark_type_text(type), 'nullable': nullable}) -%}
    {%- do parity._nested_fields(type, path, fields) -%}
{% endmacro %}


{#- A type of Spark's JSON description, spelled as Spark's plain describe spells it. -#}
{% macro _spark_type_text(type) %}
    {%- set name = type['name'] -%}
    {%- if name == 'struct' -%}
        {%- set members = [] -%}
        {%- for field in type['fields'] -%}
            {%- do members.append(field['name'] ~ ':' ~ parity._spark_type_text(field['type'])) -%}
        {%- endfor -%}
        {{ return('struct<' ~ members | join(',') ~ '>') }}
    {%- elif name == 'array' -%}
        {{ return('array<' ~ parity._spark_type_text(type['element_type']) ~ '>') }}
    {%- elif name == 'map' -%}
        {{ return('map<' ~ parity._spark_type_text(type['key_type']) ~ ',' ~ parity._spark_type_text(type['value_type']) ~ '>') }}
    {%- elif 'precision' in type -%}
        {{ return(name ~ '(' ~ type['precision'] ~ ',' ~ type['scale'] ~ ')') }}
    {%- elif 'length' in type -%}
        {{ return(name ~ '(' ~ type['length'] ~ ')') }}
    {%- endif -%}
    {{ return({'timestamp_ltz': 'timestamp'}.get(name, name)) }}
{% endmacro %}


{#- The columns of the Spark relations the pairs compare, by relation name, as many as dbt's own
    session reads at once (adapter.parity_spark_columns_of: one metastore call per database);
    {} where Spark runs outside dbt. The plan reads each relation left out on its own. -#}
{% macro spark_descriptions(pairs) %}
    {%- set names = [] -%}
    {%- for pair in pairs -%}
        {%- for side in ['source', 'target'] -%}
            {%- set location = parity.side_location(pair[side]) -%}
            {%- if location['dialect'] == 'spark' and 'format' not in location and location['name'] not in names -%}
                {%- do names.append(location['name']) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(adapter.parity_spark_columns_of(names) or {}) }}
{% endmacro %}
