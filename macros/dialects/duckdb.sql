{#- DuckDB: what it renders unlike the defaults (default.sql): types by kind (information_schema
    spelling: INTEGER, DECIMAL(12,2), TIMESTAMP WITH TIME ZONE...), canonical values, row hash,
    key position, cell number, query parameters, time literals. -#}

{#- A finer timestamp cast to a coarser one (TIMESTAMP_MS, TIMESTAMP_S, or TIMESTAMP from
    TIMESTAMP_NS) rounds half away from zero around 1970-01-01. TIMESTAMP_NS and TIMESTAMPTZ_NS
    hold nanoseconds. -#}
{% macro duckdb__type_profile(data_type) %}
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
    {%- endif -%}
    {{ return(none) }}
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
