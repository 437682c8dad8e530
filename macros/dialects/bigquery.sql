{#- BigQuery: what it renders unlike the defaults (default.sql): types by kind, canonical
    values, row hash, checksum, key position, cell number, identifiers. Rendered only: parity
    does not connect to BigQuery yet. -#}

{#- Names as INFORMATION_SCHEMA.COLUMNS spells them (INT64, NUMERIC(12, 2), BIGNUMERIC), aliases
    such as INTEGER and DECIMAL resolved. An unparameterized NUMERIC has scale 9, a BIGNUMERIC 38.
    Strings are never padded, FLOAT64 is the only float, and timestamps always hold microseconds,
    so no finer value is ever rounded into them (the rule named is never applied). JSON, ARRAY
    and STRUCT are not canonicalized: their JSON differs from Spark's. -#}
{% macro bigquery__type_profile(data_type) %}
    {{ return(parity._profile_by_name(data_type, {
        'integer': ['int64'],
        'decimal': ['numeric', 'bignumeric'],
        'float64': ['float64'],
        'boolean': ['bool'],
        'string': ['string'],
        'date': ['date'],
        'timestamp': ['timestamp'],
        'timestamp_ntz': ['datetime'],
        'binary': ['bytes'],
    }, {'default_scale': 38 if data_type.startswith('big') else 9, 'timestamp_digits': 6, 'rounding': 'truncate'})) }}
{% endmacro %}


{% macro bigquery__canonical_value(expression, profile) %}
    {%- set kind = profile['kind'] -%}
    {%- if kind == 'integer' -%}
        {{ return('cast(' ~ expression ~ ' as string)') }}
    {%- elif kind == 'decimal' -%}
        {#- round() goes half away from zero; cast to STRING would drop trailing zeros, %f keeps them. -#}
        {{ return("format('%." ~ profile['scale'] ~ "f', round(cast(" ~ expression ~ " as bignumeric), " ~ profile['scale'] ~ "))") }}
    {%- elif kind == 'float' -%}
        {%- if profile['bits'] == 32 -%}
            {{ exceptions.raise_compiler_error("parity: bigquery cannot round a float to 32 bits: it has no single-precision type") }}
        {%- endif -%}
        {#- NaN equals nothing in BigQuery, itself included, so parity._float_text cannot find it. -#}
        {%- set value = 'cast(' ~ expression ~ ' as float64)' -%}
        {%- set value = parity._float_grid(value, profile, 'float64') -%}
        {{ return(
            "case when is_nan(" ~ value ~ ") then 'NaN'"
            ~ " when is_inf(" ~ value ~ ") and " ~ value ~ " > 0 then 'Infinity'"
            ~ " when is_inf(" ~ value ~ ") then '-Infinity'"
            ~ " when " ~ value ~ " = 0 then '0'"
            ~ " else " ~ parity._bigquery_hex_float(value) ~ " end"
        ) }}
    {%- elif kind == 'boolean_text' -%}
        {{ return(parity._boolean_text('cast(' ~ expression ~ ' as string)')) }}
    {%- elif kind == 'string' -%}
        {{ return(("rtrim(cast(" ~ expression ~ " as string), ' ')") if profile.get('padded') else ('cast(' ~ expression ~ ' as string)')) }}
    {%- elif kind == 'uuid' -%}
        {{ return('lower(cast(' ~ expression ~ ' as string))') }}
    {%- elif kind == 'date' -%}
        {{ return("format_date('%E4Y-%m-%d', " ~ expression ~ ")") }}
    {%- elif kind in ['timestamp', 'timestamp_ntz'] -%}
        {%- if profile.get('time_zone') -%}
            {{ exceptions.raise_compiler_error("parity: bigquery cannot read a naive timestamp in a time zone yet") }}
        {%- endif -%}
        {#- A DATETIME is a wall clock: counted from the DATETIME epoch, it reads as UTC. -#}
        {%- set micros = ('unix_micros(' ~ expression ~ ')') if kind == 'timestamp'
            else ("datetime_diff(" ~ expression ~ ", datetime '1970-01-01 00:00:00', microsecond)") -%}
        {%- set rounded = parity._rounded_micros(micros, profile, 'div({0}, {1})') -%}
        {{ return(parity._timestamp_text("format_timestamp('%E4Y-%m-%d %H:%M:%E6S', timestamp_micros(" ~ rounded ~ "), 'UTC')", profile['digits'])) }}
    {%- elif kind == 'binary' -%}
        {{ return('to_hex(' ~ expression ~ ')') }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}


{#- C's `%.13a` of a finite non-zero double. BigQuery can neither print hexadecimal floats nor
    read a double's bits, so the binary exponent comes from log(x, 2), corrected by one either
    way against exact powers of two (clamped to -1022, where subnormals keep a leading 0), and
    the significand is the value divided by that power of two, exactly, times 2^52: an integer
    whose 14 hex digits are the leading digit and the 13 fraction digits. -#}
{% macro _bigquery_hex_float(value) %}
    {%- set magnitude = 'abs(' ~ value ~ ')' -%}
    {%- set estimate = 'least(greatest(cast(floor(log(' ~ magnitude ~ ', 2)) as int64), -1022), 1022)' -%}
    {%- set exponent = 'greatest(' ~ estimate ~ ' + case when ' ~ magnitude ~ ' >= pow(2, ' ~ estimate ~ ' + 1) then 1 when '
        ~ magnitude ~ ' < pow(2, ' ~ estimate ~ ') then -1 else 0 end, -1022)' -%}
    {%- set significand = 'cast(' ~ magnitude ~ ' / pow(2, ' ~ exponent ~ ') * 4503599627370496 as int64)' -%}
    {{ return(
        "format('%s0x%sp%+d', case when " ~ value ~ " < 0 then '-' else '' end,"
        ~ " regexp_replace(format('%014x', " ~ significand ~ "), r'^(.)', r'\\1.'), " ~ exponent ~ ")"
    ) }}
{% endmacro %}


{#- MD5 returns BYTES; BigQuery casts a `0x` hex string to INT64. -#}
{% macro bigquery__row_hash(canonical_expressions) %}
    {%- set row = parity._row_string(canonical_expressions, 'char_length', 'string') -%}
    {{ return("cast(concat('0x', substr(to_hex(md5(" ~ row ~ ")), 18, 15)) as int64)") }}
{% endmacro %}


{#- NUMERIC holds 29 integer digits, BIGNUMERIC the 38 the spec's sums need. -#}
{% macro bigquery__segment_checksum(row_hash_column) %}
    {{ return('sum(cast(' ~ row_hash_column ~ ' as bignumeric))') }}
{% endmacro %}


{% macro bigquery__key_position(expression) %}
    {{ return('cast(' ~ expression ~ ' as bignumeric)') }}
{% endmacro %}


{#- Every operand is cast to BIGNUMERIC: integers beyond INT64 are errors. div()
    truncates, and every operand is non-negative. -#}
{% macro bigquery__cell_number(position, low, scale, cells, width) %}
    {{ return('div(div(cast(' ~ position ~ ' as bignumeric) - cast(' ~ low ~ ' as bignumeric), cast(' ~ scale ~ ' as bignumeric)) * cast('
        ~ cells ~ ' as bignumeric), cast(' ~ width ~ ' as bignumeric))') }}
{% endmacro %}


{#- Backticks, with a backslash before any backslash or backtick in the name. -#}
{% macro bigquery__quote_identifier(name) %}
    {{ return('`' ~ (name | string).replace('\\', '\\\\').replace('`', '\\`') ~ '`') }}
{% endmacro %}
