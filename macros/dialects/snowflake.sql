{#- Snowflake: what it renders unlike the defaults (default.sql): types by kind, canonical
    values, row hash, checksum, key position, cell number. Rendered only: parity does not
    connect to Snowflake yet. -#}

{#- Names as information_schema.columns spells them (NUMBER, TEXT, TIMESTAMP_NTZ; SHOW COLUMNS
    says VARCHAR), with precision and scale appended: NUMBER(38,0), TIMESTAMP_NTZ(9). Every
    integer type is NUMBER(38,0): a NUMBER of scale 0 is an integer, so an integer key stays a
    key range. Strings are never padded (CHAR is VARCHAR), FLOAT is always a double, timestamps
    default to 9 digits and a finer value stored in a coarser column is truncated. VARIANT,
    OBJECT and ARRAY are not canonicalized: their JSON differs from Spark's. -#}
{% macro snowflake__type_profile(data_type) %}
    {%- set profile = parity._profile_by_name(data_type, {
        'decimal': ['number'],
        'float64': ['float'],
        'boolean': ['boolean'],
        'string': ['text', 'varchar'],
        'uuid': ['uuid'],
        'date': ['date'],
        'timestamp': ['timestamp_ltz', 'timestamp_tz'],
        'timestamp_ntz': ['timestamp_ntz'],
        'binary': ['binary'],
    }, {'default_scale': 0, 'timestamp_digits': 9, 'rounding': 'truncate'}) -%}
    {{ return({'kind': 'integer'} if profile == {'kind': 'decimal', 'scale': 0} else profile) }}
{% endmacro %}


{% macro snowflake__canonical_value(expression, profile) %}
    {%- set kind = profile['kind'] -%}
    {%- if kind == 'integer' -%}
        {{ return('cast(' ~ expression ~ ' as varchar)') }}
    {%- elif kind == 'decimal' -%}
        {#- round() goes half away from zero; a NUMBER prints every digit of its scale. -#}
        {{ return('cast(cast(round(' ~ expression ~ ', ' ~ profile['scale'] ~ ') as number(38, ' ~ profile['scale'] ~ ')) as varchar)') }}
    {%- elif kind == 'float' -%}
        {%- if profile['bits'] == 32 -%}
            {{ exceptions.raise_compiler_error("parity: snowflake cannot round a float to 32 bits: it has no single-precision type") }}
        {%- endif -%}
        {#- Snowflake's NaN equals itself. -#}
        {%- set value = 'cast(' ~ expression ~ ' as float)' -%}
        {%- set value = parity._float_grid(value, profile, 'float') -%}
        {{ return(parity._float_text(value, "cast('NaN' as float)", "cast('inf' as float)", parity._snowflake_hex_float(value))) }}
    {%- elif kind == 'boolean_text' -%}
        {{ return(parity._boolean_text('cast(' ~ expression ~ ' as varchar)')) }}
    {%- elif kind == 'string' -%}
        {{ return(("rtrim(cast(" ~ expression ~ " as varchar), ' ')") if profile.get('padded') else ('cast(' ~ expression ~ ' as varchar)')) }}
    {%- elif kind == 'uuid' -%}
        {{ return('lower(cast(' ~ expression ~ ' as varchar))') }}
    {%- elif kind == 'date' -%}
        {{ return("to_char(" ~ expression ~ ", 'YYYY-MM-DD')") }}
    {%- elif kind in ['timestamp', 'timestamp_ntz'] -%}
        {#- EPOCH_MICROSECOND (EPOCH_NANOSECOND, for a column of more than 6 digits) counts a zoned
            value's instant from 1970-01-01 UTC and a naive one's wall clock as if in UTC;
            TO_TIMESTAMP_NTZ(n, 6) (or 9) reads such a count back. A divisor of
            10^k gives an exact NUMBER quotient, so floor() is integer division. -#}
        {%- if profile.get('time_zone') -%}
            {{ exceptions.raise_compiler_error("parity: snowflake cannot read a naive timestamp in a time zone yet") }}
        {%- endif -%}
        {%- set held = 9 if profile.get('nanos') else 6 -%}
        {%- set unit = 'nanosecond' if held == 9 else 'microsecond' -%}
        {%- set rounded = parity._rounded_micros('date_part(epoch_' ~ unit ~ ', ' ~ expression ~ ')', profile, 'floor({0} / {1})') -%}
        {{ return(parity._timestamp_text("to_char(to_timestamp_ntz(" ~ rounded ~ ", " ~ held ~ "), 'YYYY-MM-DD HH24:MI:SS.FF" ~ held ~ "')", profile['digits'], held)) }}
    {%- elif kind == 'binary' -%}
        {{ return('hex_encode(' ~ expression ~ ', 0)') }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}


{#- C's `%.13a` of a finite non-zero double. Snowflake can neither print hexadecimal floats nor
    read a double's bits, so the binary exponent comes from log(2, x), corrected by one either
    way against exact powers of two (clamped to -1022, where subnormals keep a leading 0), and
    the significand is the value divided by that power of two, exactly, times 2^52: an integer
    whose 14 hex digits are the leading digit and the 13 fraction digits. -#}
{% macro _snowflake_hex_float(value) %}
    {%- set magnitude = 'abs(' ~ value ~ ')' -%}
    {%- set estimate = 'least(greatest(cast(floor(log(2, ' ~ magnitude ~ ')) as integer), -1022), 1022)' -%}
    {%- set exponent = 'greatest(' ~ estimate ~ ' + case when ' ~ magnitude ~ ' >= power(2, ' ~ estimate ~ ' + 1) then 1 when '
        ~ magnitude ~ ' < power(2, ' ~ estimate ~ ') then -1 else 0 end, -1022)' -%}
    {%- set significand = 'cast(' ~ magnitude ~ ' / power(2, ' ~ exponent ~ ') * 4503599627370496 as number(16, 0))' -%}
    {%- set digits = "lpad(lower(trim(to_char(" ~ significand ~ ", 'XXXXXXXXXXXXXX'))), 14, '0')" -%}
    {{ return(
        "case when " ~ value ~ " < 0 then '-' else '' end || '0x' || insert(" ~ digits ~ ", 2, 0, '.')"
        ~ " || replace('p+' || " ~ exponent ~ ", '+-', '-')"
    ) }}
{% endmacro %}


{#- MD5_NUMBER_LOWER64 is the digest's lower 64 bits as an unsigned NUMBER; the lower 60 are
    its remainder by 2^60. -#}
{% macro snowflake__row_hash(canonical_expressions) %}
    {%- set row = parity._row_string(canonical_expressions, 'length', 'varchar') -%}
    {{ return('mod(md5_number_lower64(' ~ row ~ '), 1152921504606846976)') }}
{% endmacro %}


{% macro snowflake__segment_checksum(row_hash_column) %}
    {{ return('sum(cast(' ~ row_hash_column ~ ' as number(38, 0)))') }}
{% endmacro %}


{% macro snowflake__key_position(expression) %}
    {{ return('cast(' ~ expression ~ ' as number(38, 0))') }}
{% endmacro %}


{#- A quotient of two NUMBER(38,0) may lose its fraction digits to the 38-digit limit and round:
    each one is taken exactly instead, as (a - mod(a, b)) / b of non-negative integers. -#}
{% macro snowflake__cell_number(position, low, scale, cells, width) %}
    {%- set units = '(' ~ position ~ ' - ' ~ low ~ ')' -%}
    {%- set unit = 'cast((' ~ units ~ ' - mod(' ~ units ~ ', ' ~ scale ~ ')) / ' ~ scale ~ ' as number(38, 0))' -%}
    {%- set product = '(' ~ unit ~ ' * ' ~ cells ~ ')' -%}
    {{ return('cast((' ~ product ~ ' - mod(' ~ product ~ ', ' ~ width ~ ')) / ' ~ width ~ ' as number(38, 0))') }}
{% endmacro %}
