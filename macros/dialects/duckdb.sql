{#- DuckDB: what it renders unlike the defaults (default.sql): types by kind (information_schema
    spelling: INTEGER, DECIMAL(12,2), TIMESTAMP WITH TIME ZONE...), canonical values, row hash,
    key position, cell number, query parameters, time literals. -#}

{#- A finer timestamp cast to a coarser one (TIMESTAMP_MS, TIMESTAMP_S, or TIMESTAMP from
    TIMESTAMP_NS) rounds half away from zero around 1970-01-01. TIMESTAMP_NS and TIMESTAMPTZ_NS
    hold nanoseconds. Nested types (STRUCT(...), MAP(...), lists spelled `T[]` or `T[n]`)
    compare as JSON documents, as the JSON type does: DuckDB's catalog lists no nested fields. -#}
{% macro duckdb__type_profile(data_type) %}
    {%- if data_type.endswith(']') or data_type.startswith(('struct(', 'map(')) -%}
        {{ return({'kind': 'json'}) }}
    {%- endif -%}
    {{ return(parity._profile_by_name(data_type, {
        'integer': ['tinyint', 'smallint', 'integer', 'bigint', 'hugeint', 'utinyint', 'usmallint', 'uinteger', 'ubigint'],
        'decimal': ['decimal', 'numeric'],
        'float32': ['float', 'real'],
        'float64': ['double'],
        'boolean': ['boolean'],
        'string': ['varchar'],
        'uuid': ['uuid'],
        'date': ['date'],
        'timestamp': ['timestamp with time zone', 'timestamptz', 'timestamptz_ns'],
        'timestamp_ntz': ['timestamp', 'timestamp_us', 'timestamp_ms', 'timestamp_s', 'timestamp_ns'],
        'binary': ['blob'],
        'json': ['json'],
    }, {'default_scale': 3, 'timestamp_digits': 6, 'digits_by_name': {'timestamp_ms': 3, 'timestamp_s': 0, 'timestamp_ns': 9, 'timestamptz_ns': 9},
        'rounding': 'half_away_from_1970'})) }}
{% endmacro %}


{% macro duckdb__canonical_value(expression, profile) %}
    {%- set kind = profile['kind'] -%}
    {%- if kind in ['integer', 'string'] -%}
        {{ return(("rtrim(cast(" ~ expression ~ " as varchar), ' ')") if profile.get('padded') else ('cast(' ~ expression ~ ' as varchar)')) }}
    {%- elif kind == 'decimal' -%}
        {%- set text = 'cast(cast(' ~ expression ~ ' as decimal(38, ' ~ profile['scale'] ~ ')) as varchar)' -%}
        {#- DuckDB writes a decimal(38, 38) without its leading zero: .5, -.5. -#}
        {{ return(("regexp_replace(" ~ text ~ ", '^(-?)[.]', '\\10.')") if profile['scale'] == 38 else text) }}
    {%- elif kind == 'float' -%}
        {%- set value = 'cast(' ~ expression ~ ' as double)' if profile['bits'] == 64 else 'cast(cast(' ~ expression ~ ' as float) as double)' -%}
        {%- set value = parity._float_grid(value, profile, 'double') -%}
        {{ return(parity._float_text(value, "'NaN'::double", "'Infinity'::double", "printf('%.13a', " ~ value ~ ")")) }}
    {%- elif kind == 'boolean_text' -%}
        {{ return(parity._boolean_text('cast(' ~ expression ~ ' as varchar)')) }}
    {%- elif kind == 'uuid' -%}
        {{ return('lower(cast(' ~ expression ~ ' as varchar))') }}
    {%- elif kind == 'date' -%}
        {{ return("strftime(cast(" ~ expression ~ " as date), '%Y-%m-%d')") }}
    {%- elif kind in ['timestamp', 'timestamp_ntz'] -%}
        {%- set zone = profile.get('time_zone') -%}
        {%- if profile.get('nanos') -%}
            {#- Nanoseconds pass 2^63 once lifted (parity._floored_micros): a hugeint. -#}
            {%- set instant = ("timezone('" ~ zone | replace("'", "''") ~ "', " ~ expression ~ ")") if zone else expression -%}
            {%- set rounded = parity._rounded_micros('cast(epoch_ns(' ~ instant ~ ') as hugeint)', profile, '({0} // {1})') -%}
            {{ return(parity._timestamp_text("strftime(make_timestamp_ns(cast(" ~ rounded ~ " as bigint)), '%Y-%m-%d %H:%M:%S.%n')", profile['digits'], 9)) }}
        {%- endif -%}
        {#- timezone() of a TIMESTAMP_MS or _S would answer a TIMESTAMPTZ_NS: a TIMESTAMP first. -#}
        {%- set instant = ("timezone('" ~ zone | replace("'", "''") ~ "', cast(" ~ expression ~ " as timestamp))") if zone else expression -%}
        {%- set rounded = parity._rounded_micros('epoch_us(' ~ instant ~ ')', profile, '({0} // {1})') -%}
        {{ return(parity._timestamp_text("strftime(make_timestamp(" ~ rounded ~ "), '%Y-%m-%d %H:%M:%S.%f')", profile['digits'])) }}
    {%- elif kind == 'binary' -%}
        {{ return('lower(hex(' ~ expression ~ '))') }}
    {%- elif kind == 'json' -%}
        {{ return(parity._duckdb_json_text('to_json(' ~ expression ~ ')')) }}
    {%- elif kind == 'json_text' -%}
        {#- The document is read only where it is valid: DuckDB runs the subquery for every row. -#}
        {{ return("case when not json_valid(" ~ expression ~ ") then " ~ parity._invalid_json_text(expression)
            ~ " else " ~ parity._duckdb_json_text("case when json_valid(" ~ expression ~ ") then cast(" ~ expression ~ " as json) end") ~ " end") }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}


{#- Canonical JSON of a JSON value at any depth, as PostgreSQL's (_postgres_json_text): a
    recursive CTE lists every node with its path and its text, concatenated in path order.
    Object keys are mapped so that code point order is UTF-16's; to_json escapes strings as the
    encoding does. -#}
{% macro _duckdb_json_text(value) %}
    {%- set key = "regexp_replace(__parity_member.key, '([\\x{E000}-\\x{FFFF}])', chr(1114111) || '\\1', 'g')" -%}
    {%- set kind = 'json_type(__parity_node.value)' -%}
    {%- set step = "'1' || case when " ~ kind ~ " = 'OBJECT' then " ~ key ~ " else lpad(__parity_member.key, 10, '0') end" -%}
    {%- set separated = "select __parity_member.value, " ~ step ~ " as step, case when row_number() over (order by " ~ step ~ ") > 1 then ',' else '' end"
        ~ " || case when " ~ kind ~ " = 'OBJECT' then cast(to_json(__parity_member.key) as varchar) || ':' else '' end as prefix"
        ~ " from json_each(__parity_node.value) as __parity_member"
        ~ " where " ~ kind ~ " in ('OBJECT', 'ARRAY') and not (" ~ kind ~ " = 'OBJECT' and __parity_member.type = 'NULL')" -%}
    {%- set nodes = "with recursive __parity_node (path, prefix, value) as (select cast([] as varchar[]), '', " ~ value ~ " where " ~ value ~ " is not null"
        ~ " union all select list_append(__parity_node.path, __parity_member.step), __parity_member.prefix, __parity_member.value"
        ~ " from __parity_node, lateral (" ~ separated ~ ") as __parity_member)" -%}
    {%- set double = 'cast(cast(__parity_node.value as varchar) as double)' -%}
    {%- set number = "case when isinf(" ~ double ~ ") then (case when " ~ double ~ " > 0 then 'Infinity' else '-Infinity' end) else "
        ~ parity._json_number_text('cast(__parity_node.value as varchar)', 'regexp_full_match({0}, {1})', double, "printf('%.14e', " ~ double ~ ")", 'cast(cast(' ~ double ~ ' as bigint) as varchar)',
            double ~ ' = trunc(' ~ double ~ ')', "printf('%.13a', " ~ double ~ ")") ~ " end" -%}
    {%- set token = "__parity_node.prefix || case " ~ kind ~ " when 'OBJECT' then '{' when 'ARRAY' then '['"
        ~ " when 'VARCHAR' then cast(to_json(json_extract_string(__parity_node.value, '$')) as varchar)"
        ~ " when 'BOOLEAN' then cast(__parity_node.value as varchar) when 'NULL' then 'null' else " ~ number ~ " end" -%}
    {%- set tokens = nodes ~ " select __parity_node.path, " ~ token ~ " as token from __parity_node"
        ~ " union all select list_append(__parity_node.path, '2'), case " ~ kind ~ " when 'OBJECT' then '}' else ']' end"
        ~ " from __parity_node where " ~ kind ~ " in ('OBJECT', 'ARRAY')" -%}
    {{ return("(select string_agg(__parity_token.token, '' order by __parity_token.path) from (" ~ tokens ~ ") as __parity_token)") }}
{% endmacro %}


{% macro duckdb__row_hash(canonical_expressions) %}
    {%- set row = parity._row_string(canonical_expressions, 'length', 'varchar') -%}
    {{ return("cast(('0x' || substring(md5(" ~ row ~ "), 18, 15)) as bigint)") }}
{% endmacro %}


{% macro duckdb__key_position(expression) %}
    {{ return('cast(' ~ expression ~ ' as hugeint)') }}
{% endmacro %}


{% macro duckdb__cell_number(position, low, scale, cells, width) %}
    {{ return('(((' ~ position ~ ' - cast(' ~ low ~ ' as hugeint)) // cast(' ~ scale ~ ' as hugeint)) * cast('
        ~ cells ~ ' as hugeint)) // cast(' ~ width ~ ' as hugeint)') }}
{% endmacro %}


{% macro duckdb__cell_listed(cell, parameter) %}
    {{ return(cell ~ ' in (select unnest(cast(' ~ parameter ~ ' as hugeint[])))') }}
{% endmacro %}


{% macro duckdb__query_parameter(number) %}
    {{ return('$' ~ number) }}
{% endmacro %}


{% macro duckdb__timestamp_literal(utc_text, kind) %}
    {{ return(parity.timestamp_literal('postgres', utc_text, kind)) }}
{% endmacro %}


{#- As PostgreSQL numbers them: the same shifts and bits on a hugeint. -#}
{% macro duckdb__key_block(position) %}
    {{ return(parity.postgres__key_block(position)) }}
{% endmacro %}


{% macro duckdb__key_listed(key, parameter) %}
    {{ return(key ~ ' in (select unnest(cast(' ~ parameter ~ ' as hugeint[])))') }}
{% endmacro %}


{#- What its SQL can do beyond the canonical select (default__capabilities). -#}
{% macro duckdb__capabilities() %}
    {{ return({'key_blocks': true, 'hashed_blocks': false, 'listed_keys': true}) }}
{% endmacro %}
