{#- PostgreSQL: what it renders unlike the defaults (default.sql): types by kind (format_type()
    spelling: integer, numeric(12,2), timestamp(3) with time zone...), canonical values, row
    hash, checksum, key position, cell number, query parameters, time literals, trimming. -#}

{#- An unconstrained numeric holds any scale, so the other side's decides (scale 38). A finer
    timestamp stored in a coarser column rounds half away from zero around 2000-01-01, the
    epoch of PostgreSQL's own microsecond count; nanoseconds in a text it reads round to the
    nearest microsecond, ties to even (rint). -#}
{% macro postgres__type_profile(data_type) %}
    {{ return(parity._profile_by_name(data_type, {
        'integer': ['smallint', 'integer', 'bigint'],
        'decimal': ['numeric', 'decimal'],
        'float32': ['real'],
        'float64': ['double precision'],
        'boolean': ['boolean'],
        'string': ['text', 'character varying'],
        'char': ['character'],
        'uuid': ['uuid'],
        'date': ['date'],
        'timestamp': ['timestamp with time zone'],
        'timestamp_ntz': ['timestamp without time zone', 'timestamp'],
        'binary': ['bytea'],
        'json': ['json', 'jsonb'],
    }, {'default_scale': 38, 'timestamp_digits': 6, 'rounding': 'half_away_from_2000', 'nanos_rounding': 'half_even'})) }}
{% endmacro %}


{% macro postgres__canonical_value(expression, profile) %}
    {%- set kind = profile['kind'] -%}
    {%- if kind in ['integer', 'string'] -%}
        {#- A character(n) value loses its padding as text already. -#}
        {{ return(('rtrim(cast(' ~ expression ~ " as text), ' ')") if profile.get('padded') else ('cast(' ~ expression ~ ' as text)')) }}
    {%- elif kind == 'decimal' -%}
        {{ return('cast(round(cast(' ~ expression ~ ' as numeric), ' ~ profile['scale'] ~ ') as text)') }}
    {%- elif kind == 'float' -%}
        {%- set value = 'cast(' ~ expression ~ ' as double precision)' if profile['bits'] == 64 else 'cast(cast(' ~ expression ~ ' as real) as double precision)' -%}
        {%- set value = parity._float_grid(value, profile, 'double precision') -%}
        {{ return(parity._float_text(value, "'NaN'::double precision", "'Infinity'::double precision", parity._postgres_hex_float(value))) }}
    {%- elif kind == 'boolean_text' -%}
        {{ return(parity._boolean_text('cast(' ~ expression ~ ' as text)')) }}
    {%- elif kind == 'uuid' -%}
        {{ return('lower(cast(' ~ expression ~ ' as text))') }}
    {%- elif kind == 'date' -%}
        {{ return("to_char(" ~ expression ~ ", 'YYYY-MM-DD')") }}
    {%- elif kind in ['timestamp', 'timestamp_ntz'] -%}
        {#- A naive value written in a time zone is read there (at time zone: a wall-clock time the
            zone skips or repeats is the later of its two readings), and is then an instant. -#}
        {%- if profile.get('time_zone') -%}
            {%- set expression = '(' ~ expression ~ " at time zone '" ~ profile['time_zone'] | replace("'", "''") ~ "')" -%}
            {%- set kind = 'timestamp' -%}
        {%- endif -%}
        {%- if profile['digits'] == 6 and not profile.get('grid') -%}
            {#- Nothing to round: the value's own text in UTC, without the epoch arithmetic (a zoned
                value's wall clock in UTC; a naive value is read as UTC already). -#}
            {%- set utc = ('(' ~ expression ~ ") at time zone 'UTC'") if kind == 'timestamp' else expression -%}
            {{ return("to_char(" ~ utc ~ ", 'YYYY-MM-DD HH24:MI:SS.US')") }}
        {%- endif -%}
        {%- set micros = 'cast(extract(epoch from ' ~ expression ~ ') * 1000000 as bigint)' -%}
        {%- set rounded = parity._rounded_micros(micros, profile, '({0} / {1})') -%}
        {#- interval * number goes through a double: seconds and microseconds apart stay exact. -#}
        {{ return(parity._timestamp_text("to_char(timestamp 'epoch' + (" ~ rounded ~ " / 1000000) * interval '1 second' + (" ~ rounded ~ " % 1000000) * interval '1 microsecond', 'YYYY-MM-DD HH24:MI:SS.US')", profile['digits'])) }}
    {%- elif kind == 'binary' -%}
        {{ return("encode(" ~ expression ~ ", 'hex')") }}
    {%- elif kind in ['json', 'json_text'] -%}
        {{ return(parity._postgres_json_text('cast(' ~ expression ~ ' as jsonb)', 4)) }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}


{#- C's `%.13a` of a double, from its IEEE 754 bits (float8send), since PostgreSQL has no
    hexadecimal float format: the last 13 of the 16 hex digits are the fraction as they stand;
    the first 3 hold the sign bit and the biased exponent. -#}
{% macro _postgres_hex_float(value) %}
    {%- set digits = "encode(float8send(" ~ value ~ "), 'hex')" -%}
    {%- set high = "cast(cast('x' || left(" ~ digits ~ ", 3) as bit(12)) as integer)" -%}
    {%- set exponent = '(' ~ high ~ ' & 2047)' -%}
    {{ return(
        "(case when " ~ high ~ " >= 2048 then '-' else '' end)"
        ~ " || (case when " ~ exponent ~ " = 0 then '0x0.' else '0x1.' end)"
        ~ " || substr(" ~ digits ~ ", 4)"
        ~ " || (case when " ~ exponent ~ " = 0 then 'p-1022' when " ~ exponent ~ " >= 1023 then 'p+' || (" ~ exponent ~ " - 1023)"
        ~ " else 'p' || (" ~ exponent ~ " - 1023) end)"
    ) }}
{% endmacro %}


{#- Compact JSON with object keys sorted (by code point, as Spark's variant sorts them) and
    numbers without trailing zeros, to `depth` levels of nesting; a value nested deeper keeps
    jsonb's own text (spaces after separators), so it shows as a difference. Each level reads
    its children through one subquery (object members and array elements alike), which keeps
    the rendered SQL linear in depth. -#}
{% macro _postgres_json_text(value, depth) %}
    {%- if depth == 0 -%}
        {{ return('cast(' ~ value ~ ' as text)') }}
    {%- endif -%}
    {%- set children = '__parity_json' ~ depth -%}
    {%- set child = parity._postgres_json_text(children ~ '.value', depth - 1) -%}
    {%- set json_type = 'jsonb_typeof(' ~ value ~ ')' -%}
    {%- set members = "select key, value, 0 as position from jsonb_each(case when " ~ json_type ~ " = 'object' then " ~ value ~ " end)"
        ~ " union all select null, value, position from jsonb_array_elements(case when " ~ json_type ~ " = 'array' then " ~ value ~ " end)"
        ~ " with ordinality as elements (value, position)" -%}
    {%- set listed = "(select string_agg(case when " ~ children ~ ".key is null then '' else to_json(" ~ children ~ ".key)::text || ':' end || "
        ~ child ~ ", ',' order by " ~ children ~ '.key collate "C", ' ~ children ~ ".position) from (" ~ members ~ ") as " ~ children ~ ")" -%}
    {{ return(
        "case when " ~ json_type ~ " = 'number' then cast(trim_scale(cast(" ~ value ~ " as numeric)) as text)"
        ~ " when " ~ json_type ~ " in ('object', 'array') then (case when " ~ json_type ~ " = 'object' then '{' else '[' end)"
        ~ " || coalesce(" ~ listed ~ ", '') || (case when " ~ json_type ~ " = 'object' then '}' else ']' end)"
        ~ " else cast(" ~ value ~ " as text) end"
    ) }}
{% endmacro %}


{#- The row string of docs/canonical-encoding.md in one concat, each field read twice: a NULL
    field's length prefix is NULL, which coalesce turns into '-', and concat skips the NULL
    value itself. -#}
{% macro postgres__row_hash(canonical_expressions) %}
    {%- set fields = [] -%}
    {%- for value in canonical_expressions -%}
        {%- do fields.append("coalesce(char_length(" ~ value ~ ") || ':', '-'), " ~ value) -%}
    {%- endfor -%}
    {%- set row = 'concat(' ~ fields | join(', ') ~ ')' -%}
    {{ return("cast(cast(('x' || substring(md5(" ~ row ~ "), 18, 15)) as bit(60)) as bigint)") }}
{% endmacro %}


{#- sum(bigint) is exact: it adds in 128 bits and answers a numeric. -#}
{% macro postgres__segment_checksum(row_hash_column) %}
    {{ return('sum(' ~ row_hash_column ~ ')') }}
{% endmacro %}


{#- Every integer type of PostgreSQL fits a bigint. -#}
{% macro postgres__key_position(expression) %}
    {{ return('cast(' ~ expression ~ ' as bigint)') }}
{% endmacro %}


{#- numeric arithmetic is exact at any size; div() truncates, and every operand is non-negative. -#}
{% macro postgres__cell_number(position, low, scale, cells, width) %}
    {{ return('div(div(' ~ position ~ ' - cast(' ~ low ~ ' as numeric), cast(' ~ scale ~ ' as numeric)) * cast('
        ~ cells ~ ' as numeric), cast(' ~ width ~ ' as numeric))') }}
{% endmacro %}


{#- A semi-join on the unnested array: hashed, where a generic plan of `= any(array)` would
    scan the array for every row. -#}
{% macro postgres__cell_listed(cell, parameter) %}
    {{ return(cell ~ ' in (select unnest(cast(' ~ parameter ~ ' as numeric[])))') }}
{% endmacro %}


{% macro postgres__query_parameter(number) %}
    {{ return('$' ~ number) }}
{% endmacro %}


{% macro postgres__timestamp_literal(utc_text, kind) %}
    {%- if kind == 'date' -%}
        {{ return("date '" ~ utc_text[:10] ~ "'") }}
    {%- endif -%}
    {{ return(("timestamp '" ~ utc_text ~ "'") if kind == 'timestamp_ntz' else ("timestamptz '" ~ utc_text ~ "+00'")) }}
{% endmacro %}


{% macro postgres__trim_spaces(text) %}
    {{ return("btrim(" ~ text ~ ", ' ')") }}
{% endmacro %}


{#- PostgreSQL pulls a plain subquery up into the query that reads it, and shares no common
    subexpression: `offset 0` stops the pull-up. -#}
{% macro postgres__subquery_fence() %}
    {{ return('offset 0') }}
{% endmacro %}


{#- An arithmetic shift floors negative positions too. -#}
{% macro postgres__key_block(position) %}
    {{ return({
        'number': '(' ~ position ~ ' >> 5)',
        'keys': 'bit_or(cast(1 as bigint) << cast(' ~ position ~ ' & 31 as integer))',
    }) }}
{% endmacro %}


{#- `= any` of an array: an index scan where the key has an index, a hashed test where not. -#}
{% macro postgres__key_listed(key, parameter) %}
    {{ return(key ~ ' = any(cast(' ~ parameter ~ ' as bigint[]))') }}
{% endmacro %}
