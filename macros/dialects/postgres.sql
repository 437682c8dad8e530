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
        {{ return(parity._postgres_json_text('cast(' ~ expression ~ ' as jsonb)')) }}
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


{#- Canonical JSON of a jsonb value at any depth, in one correlated subquery: a recursive CTE
    lists every node with its path (object keys, mapped so that PostgreSQL's code point order
    is UTF-16's, and zero-padded array positions) and its text: a separator, its key, then an
    opening bracket or its scalar text; each container adds a closing bracket after its
    children, and the texts concatenated in path order are the document. Members whose value
    is null are left out. -#}
{% macro _postgres_json_text(value) %}
    {%- set key = "regexp_replace(__parity_member.key, E'([\\\\ue000-\\\\uffff])', chr(1114111) || E'\\\\1', 'g')" -%}
    {%- set kind = 'jsonb_typeof(__parity_node.value)' -%}
    {%- set children = "select '1' || " ~ key ~ " as step, to_json(__parity_member.key)::text || ':' as prefix, __parity_member.value"
        ~ " from jsonb_each(case when " ~ kind ~ " = 'object' then __parity_node.value end) as __parity_member"
        ~ " where jsonb_typeof(__parity_member.value) <> 'null'"
        ~ " union all select '1' || lpad(cast(__parity_element.position as text), 10, '0'), '', __parity_element.value"
        ~ " from jsonb_array_elements(case when " ~ kind ~ " = 'array' then __parity_node.value end)"
        ~ " with ordinality as __parity_element (value, position)" -%}
    {%- set separated = "select __parity_child.step, case when row_number() over (order by __parity_child.step collate \"C\") > 1 then ',' else '' end"
        ~ " || " ~ parity._postgres_json_escapes('__parity_child.prefix') ~ " as prefix, __parity_child.value from (" ~ children ~ ") as __parity_child" -%}
    {%- set nodes = "with recursive __parity_node (path, prefix, value) as (select cast(array[] as text[]), '', " ~ value ~ " where " ~ value ~ " is not null"
        ~ " union all select __parity_node.path || __parity_member.step, __parity_member.prefix, __parity_member.value"
        ~ " from __parity_node cross join lateral (" ~ separated ~ ") as __parity_member)" -%}
    {%- set token = "__parity_node.prefix || case " ~ kind ~ " when 'object' then '{' when 'array' then '['"
        ~ " when 'number' then " ~ parity._postgres_json_number('cast(__parity_node.value as numeric)')
        ~ " when 'string' then " ~ parity._postgres_json_escapes('cast(__parity_node.value as text)')
        ~ " else cast(__parity_node.value as text) end" -%}
    {%- set tokens = nodes ~ " select __parity_node.path, " ~ token ~ " as token from __parity_node"
        ~ " union all select __parity_node.path || cast(array['2'] as text[]), case " ~ kind ~ " when 'object' then '}' else ']' end"
        ~ " from __parity_node where " ~ kind ~ " in ('object', 'array')" -%}
    {{ return("(select string_agg(__parity_token.token, '' order by __parity_token.path collate \"C\") from (" ~ tokens ~ ") as __parity_token)") }}
{% endmacro %}


{#- A JSON number's canonical text from its exact numeric (docs/canonical-encoding.md, "JSON
    numbers"). A number of at most 15 significant digits in the normal range of doubles is its
    own canonical text, written plainly: the double that rounds from it has no other such
    decimal. Others go through the double: beyond its range the infinity it rounds to, or zero;
    else as _json_number_text, with the 15 digits rounded from the exact value, which is as
    near the double as C's rounding of the double is. -#}
{% macro _postgres_json_number(number) %}
    {%- set text = 'cast(trim_scale(' ~ number ~ ') as text)' -%}
    {%- set unsigned = 'ltrim(' ~ text ~ ", '-')" -%}
    {%- set significant = "length(rtrim(ltrim(replace(" ~ unsigned ~ ", '.', ''), '0'), '0'))" -%}
    {%- set whole, fraction = "split_part(" ~ unsigned ~ ", '.', 1)", "split_part(" ~ unsigned ~ ", '.', 2)" -%}
    {%- set exponent = "(case when " ~ whole ~ " <> '0' then length(" ~ whole ~ ") - 1 else length(ltrim(" ~ fraction ~ ", '0')) - length(" ~ fraction ~ ") - 1 end)" -%}
    {%- set double = 'cast(' ~ number ~ ' as double precision)' -%}
    {%- set rounded = 'round(' ~ number ~ ', 14 - ' ~ exponent ~ ')' -%}
    {%- set hex = parity._postgres_hex_float(double) -%}
    {{ return(
        "case when " ~ significant ~ " <= 15 and (" ~ number ~ " = 0 or abs(" ~ number ~ ") between 2.2250738585072014e-308 and 1.7976931348623157e308) then " ~ text
        ~ " when abs(" ~ number ~ ") > 1.7976931348623158e308 then (case when " ~ number ~ " > 0 then 'Infinity' else '-Infinity' end)"
        ~ " when abs(" ~ number ~ ") < 2.4703282292062328e-324 then '0'"
        ~ " when " ~ double ~ " = trunc(" ~ double ~ ") and abs(" ~ double ~ ") < 9007199254740992 then cast(cast(" ~ double ~ " as bigint) as text)"
        ~ " when abs(" ~ double ~ ") < 2.2250738585072014e-308 or abs(" ~ rounded ~ ") > 1.7976931348623157e308 then " ~ hex
        ~ " when cast(" ~ rounded ~ " as double precision) = " ~ double ~ " then cast(trim_scale(" ~ rounded ~ ") as text)"
        ~ " else " ~ hex ~ " end"
    ) }}
{% endmacro %}


{#- PostgreSQL escapes a control character as \u001f, the encoding (as Spark, DuckDB) as \u001F:
    the hex letters of such escapes upper-cased, an escape being a backslash after an even run
    of them. E'' strings read alike whatever standard_conforming_strings says. -#}
{% macro _postgres_json_escapes(text) %}
    {%- set fixed = namespace(text=text) -%}
    {%- for letter in 'abcdef' -%}
        {%- set fixed.text = "regexp_replace(" ~ fixed.text ~ ", E'(?<!\\\\\\\\)((?:\\\\\\\\\\\\\\\\)*\\\\\\\\u00[01])" ~ letter ~ "', E'\\\\1" ~ letter | upper ~ "', 'g')" -%}
    {%- endfor -%}
    {{ return("case when strpos(" ~ text ~ ", E'\\\\u00') > 0 then " ~ fixed.text ~ " else " ~ text ~ " end") }}
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


{#- `= any` of the array: PostgreSQL 14 and later hash it where the plan is custom to the
    bound array, which parity's sessions force (sides/connections.py), and a scan that tests it
    may run in parallel workers; a semi-join on the unnested array cannot, and took twice as
    long on a wide table. -#}
{% macro postgres__cell_listed(cell, parameter) %}
    {{ return(cell ~ ' = any(cast(' ~ parameter ~ ' as numeric[]))') }}
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
    {%- set bits = parity.key_block_bits() -%}
    {{ return({
        'number': '(' ~ position ~ ' >> ' ~ bits ~ ')',
        'keys': 'bit_or(cast(1 as bigint) << cast(' ~ position ~ ' & ' ~ (2 ** bits - 1) ~ ' as integer))',
    }) }}
{% endmacro %}


{#- A hashed position is a non-negative bigint below 2^60: its top 15 bits by a shift. -#}
{% macro postgres__hashed_block(position) %}
    {{ return('(' ~ position ~ ' >> ' ~ (60 - parity.hashed_block_bits()) ~ ')') }}
{% endmacro %}


{#- `= any` of an array: an index scan where the key has an index, a hashed test where not. -#}
{% macro postgres__key_listed(key, parameter) %}
    {{ return(key ~ ' = any(cast(' ~ parameter ~ ' as bigint[]))') }}
{% endmacro %}


{#- What its SQL can do beyond the canonical select (default__capabilities). -#}
{% macro postgres__capabilities() %}
    {{ return({'key_blocks': true, 'hashed_blocks': true, 'listed_keys': true}) }}
{% endmacro %}
