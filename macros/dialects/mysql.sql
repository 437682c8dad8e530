{#- MySQL 8 and MariaDB: what they render unlike the defaults (default.sql): types by kind,
    canonical values, row hash, checksum, key position, cell number, query parameters, listed
    cells and keys, key blocks, time literals, identifiers, trimming and case. The tests run it
    on MariaDB 10.11; where MySQL 8 could differ, the SQL keeps to what both document. -#}

{#- Names as information_schema.columns.column_type spells them (decimal(12,2), int unsigned,
    datetime(3); MariaDB adds display widths, int(11)). BOOLEAN is tinyint(1), an integer, which
    pairs with a boolean as 1/0. Temporal
    columns default to 0 fractional digits, and MySQL rounds finer values half up when it stores
    them (MariaDB truncates them: the rule its server's mode gives replaces this one, read by
    parity_remote_columns). JSON is not canonicalized: MySQL reorders object keys its own way. -#}
{% macro mysql__type_profile(data_type) %}
    {%- set integers = [] -%}
    {%- for name in ['tinyint', 'smallint', 'mediumint', 'int', 'bigint'] -%}
        {%- do integers.extend([name, name ~ ' unsigned']) -%}
    {%- endfor -%}
    {{ return(parity._profile_by_name(data_type, {
        'integer': integers,
        'decimal': ['decimal', 'decimal unsigned'],
        'float32': ['float', 'float unsigned'],
        'float64': ['double', 'double unsigned'],
        'string': ['varchar', 'tinytext', 'text', 'mediumtext', 'longtext'],
        'char': ['char'],
        'date': ['date'],
        'timestamp': ['timestamp'],
        'timestamp_ntz': ['datetime'],
        'binary': ['binary', 'varbinary', 'tinyblob', 'blob', 'mediumblob', 'longblob'],
    }, {'default_scale': 0, 'timestamp_digits': 0, 'rounding': 'half_up'})) }}
{% endmacro %}


{#- Text is converted to utf8mb4 first, so the MD5 reads the same UTF-8 bytes as every other
    engine whatever the column's character set. Its collation plays no part: no canonical text
    is compared, and keys are grouped by their bytes (mysql__group_key). -#}
{% macro mysql__canonical_value(expression, profile) %}
    {%- set kind = profile['kind'] -%}
    {%- set text = 'convert(' ~ expression ~ ' using utf8mb4)' -%}
    {%- if kind == 'integer' -%}
        {{ return('cast(' ~ expression ~ ' as char)') }}
    {%- elif kind == 'decimal' -%}
        {#- A cast to a smaller scale rounds half away from zero, and never leaves a negative zero. -#}
        {{ return('cast(cast(' ~ expression ~ ' as decimal(65, ' ~ profile['scale'] ~ ')) as char)') }}
    {%- elif kind == 'float' -%}
        {#- CAST(... AS FLOAT) rounds to single precision in current releases; early 8.0
            releases returned the double unchanged, so there only a FLOAT column is exact at
            32 bits. -#}
        {%- set value = 'cast(' ~ expression ~ ' as double)' if profile['bits'] == 64 else 'cast(cast(' ~ expression ~ ' as float) as double)' -%}
        {%- set value = parity._float_grid(value, profile, 'double') -%}
        {#- MySQL's DOUBLE holds no NaN or infinity: only zero is special. -#}
        {{ return("case when " ~ value ~ " = 0 then '0' else " ~ parity._mysql_hex_float(value) ~ " end") }}
    {%- elif kind == 'boolean_text' -%}
        {{ return(parity._boolean_text(text)) }}
    {%- elif kind == 'string' -%}
        {{ return(('rtrim(' ~ text ~ ')') if profile.get('padded') else text) }}
    {%- elif kind == 'uuid' -%}
        {{ return('lower(' ~ text ~ ')') }}
    {%- elif kind == 'date' -%}
        {{ return("date_format(" ~ expression ~ ", '%Y-%m-%d')") }}
    {%- elif kind in ['timestamp', 'timestamp_ntz'] -%}
        {%- if profile.get('time_zone') -%}
            {{ exceptions.raise_compiler_error("parity: mysql cannot read a naive timestamp in a time zone yet") }}
        {%- endif -%}
        {#- unix_timestamp() of a TIMESTAMP column is its stored UTC instant, untouched by the
            session time zone; DATETIME is a wall clock, counted from a DATETIME epoch. -#}
        {%- set micros = ('cast(unix_timestamp(' ~ expression ~ ') * 1000000 as signed)') if kind == 'timestamp'
            else ("timestampdiff(microsecond, timestamp '1970-01-01 00:00:00', " ~ expression ~ ")") -%}
        {%- set rounded = parity._rounded_micros(micros, profile, '({0} div {1})') -%}
        {{ return(parity._timestamp_text("date_format(timestamp '1970-01-01 00:00:00' + interval " ~ rounded ~ " microsecond, '%Y-%m-%d %H:%i:%s.%f')", profile['digits'])) }}
    {%- elif kind == 'binary' -%}
        {{ return('lower(hex(' ~ expression ~ '))') }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}


{#- C's `%.13a` of a finite non-zero double. MySQL can neither print hexadecimal floats nor read
    a double's bits, so the binary exponent comes from log2() (std::log2, corrected by one either
    way against exact powers of two, and held between -1023 and 1022 so that pow() stays finite),
    and the significand is the value divided by that power of two, exactly, times 2^52: an
    integer that hex() prints as `1` and the 13 fraction digits. MariaDB stores subnormal
    doubles: below 2^-1022 the power is 2^-1022, the integer has 13 digits and `0` leads. -#}
{% macro _mysql_hex_float(value) %}
    {%- set magnitude = 'abs(' ~ value ~ ')' -%}
    {%- set estimate = 'least(greatest(cast(floor(log2(' ~ magnitude ~ ')) as signed), -1023), 1022)' -%}
    {%- set exponent = 'greatest(' ~ estimate ~ ' + case when ' ~ magnitude ~ ' >= pow(2, ' ~ estimate ~ ' + 1) then 1 when '
        ~ magnitude ~ ' < pow(2, ' ~ estimate ~ ') then -1 else 0 end, -1022)' -%}
    {%- set significand = 'cast(' ~ magnitude ~ ' / pow(2, ' ~ exponent ~ ') * 4503599627370496 as unsigned)' -%}
    {{ return(
        "concat(case when " ~ value ~ " < 0 then '-' else '' end, '0x', insert(lpad(lower(hex(" ~ significand ~ ")), 14, '0'), 2, 0, '.'),"
        ~ " replace(concat('p+', " ~ exponent ~ "), '+-', '-'))"
    ) }}
{% endmacro %}


{% macro mysql__row_hash(canonical_expressions) %}
    {%- set row = parity._row_string(canonical_expressions, 'char_length', 'char') -%}
    {{ return('cast(conv(substring(md5(convert(' ~ row ~ ' using utf8mb4)), 18, 15), 16, 10) as unsigned)') }}
{% endmacro %}


{% macro mysql__segment_checksum(row_hash_column) %}
    {{ return('sum(cast(' ~ row_hash_column ~ ' as decimal(65, 0)))') }}
{% endmacro %}


{% macro mysql__key_position(expression) %}
    {{ return('cast(' ~ expression ~ ' as decimal(65, 0))') }}
{% endmacro %}


{#- DIV converts its result to BIGINT, which a cell number may exceed: each quotient is taken
    exactly in decimal instead, as (a - mod(a, b)) / b of non-negative integers. -#}
{% macro mysql__cell_number(position, low, scale, cells, width) %}
    {%- set units = '(' ~ position ~ ' - ' ~ low ~ ')' -%}
    {%- set unit = 'cast((' ~ units ~ ' - mod(' ~ units ~ ', ' ~ scale ~ ')) / ' ~ scale ~ ' as decimal(65, 0))' -%}
    {%- set product = '(' ~ unit ~ ' * ' ~ cells ~ ')' -%}
    {{ return('cast((' ~ product ~ ' - mod(' ~ product ~ ', ' ~ width ~ ')) / ' ~ width ~ ' as decimal(65, 0))') }}
{% endmacro %}


{#- A query's parameters are user variables, which parity's client sets before the query
    (src/parity/sides/connections.py): the plan's SQL then goes to the server as written. -#}
{% macro mysql__query_parameter(number) %}
    {{ return('@__parity_' ~ number) }}
{% endmacro %}


{#- MySQL has no arrays: a list travels as a JSON array, which json_table unnests. -#}
{% macro _mysql_listed(parameter) %}
    {{ return("(select listed.item from json_table(" ~ parameter ~ ", '$[*]' columns (item decimal(65, 0) path '$')) as listed)") }}
{% endmacro %}


{% macro mysql__cell_listed(cell, parameter) %}
    {{ return(cell ~ ' in ' ~ parity._mysql_listed(parameter)) }}
{% endmacro %}


{% macro mysql__key_listed(key, parameter) %}
    {{ return(key ~ ' in ' ~ parity._mysql_listed(parameter)) }}
{% endmacro %}


{#- Positions are decimals, so blocks are floored quotients (never a shift, which MySQL takes
    on unsigned 64 bits); bit_or adds up unsigned 64-bit integers. -#}
{% macro mysql__key_block(position) %}
    {%- set size = 2 ** parity.key_block_bits() -%}
    {%- set number = 'floor(' ~ position ~ ' / ' ~ size ~ ')' -%}
    {{ return({
        'number': number,
        'keys': 'bit_or(1 << cast(' ~ position ~ ' - ' ~ number ~ ' * ' ~ size ~ ' as unsigned))',
    }) }}
{% endmacro %}


{#- parity's session runs at time_zone '+00:00', so a DATETIME literal compared with a TIMESTAMP
    column is read as UTC. -#}
{% macro mysql__timestamp_literal(utc_text, kind) %}
    {%- if kind == 'date' -%}
        {{ return("date '" ~ utc_text[:10] ~ "'") }}
    {%- endif -%}
    {{ return("timestamp '" ~ utc_text ~ "'") }}
{% endmacro %}


{#- Every MySQL collation of text, utf8mb4_bin included, may pad trailing spaces ('a' = 'a '):
    canonical keys are grouped by their bytes. -#}
{% macro mysql__group_key(expression) %}
    {{ return('cast(' ~ expression ~ ' as binary)') }}
{% endmacro %}


{% macro mysql__quote_identifier(name) %}
    {{ return('`' ~ (name | string).replace('`', '``') ~ '`') }}
{% endmacro %}


{% macro mysql__trim_spaces(text) %}
    {{ return("trim(both ' ' from " ~ text ~ ")") }}
{% endmacro %}


{#- None: MySQL has no translate(), and its lower() follows the collation, which may fold more
    than the verdict does; a tolerant column of a pair with a MySQL side hashes its case
    exactly. (26 nested replace() calls would do, but nest deeper than sqlfluff parses.) -#}
{% macro mysql__ascii_lower(text) %}
    {{ return(none) }}
{% endmacro %}


{#- What its SQL can do beyond the canonical select (default__capabilities). -#}
{% macro mysql__capabilities() %}
    {{ return({'key_blocks': true, 'hashed_blocks': false, 'listed_keys': true}) }}
{% endmacro %}
