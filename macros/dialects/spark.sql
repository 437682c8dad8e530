{#- Spark (and Databricks): what it renders unlike the defaults (default.sql): types by kind,
    canonical values, row hash, key position, identifiers, time literals, trimming. Cell numbers
    are computed by the DataFrame API (src/parity/sides/spark.py). -#}

{% macro spark__type_profile(data_type) %}
    {%- if data_type == 'uuid' -%}
        {#- A Parquet UUID column, which Spark reads as its 16 bytes (parity.file_columns). -#}
        {{ return({'kind': 'uuid', 'bytes': true}) }}
    {%- endif -%}
    {{ return(parity._profile_by_name(data_type, {
        'integer': ['tinyint', 'byte', 'smallint', 'short', 'int', 'integer', 'bigint', 'long'],
        'decimal': ['decimal', 'dec', 'numeric'],
        'float32': ['float', 'real'],
        'float64': ['double'],
        'boolean': ['boolean'],
        'string': ['string', 'varchar'],
        'char': ['char'],
        'date': ['date'],
        'timestamp': ['timestamp', 'timestamp_ltz'],
        'timestamp_ntz': ['timestamp_ntz'],
        'binary': ['binary'],
        'nested': ['array', 'struct', 'map'],
    }, {'default_scale': 0, 'timestamp_digits': 6, 'rounding': 'truncate'})) }}
{% endmacro %}


{% macro spark__canonical_value(expression, profile) %}
    {%- set kind = profile['kind'] -%}
    {%- if kind == 'integer' -%}
        {{ return('cast(' ~ expression ~ ' as string)') }}
    {%- elif kind == 'decimal' -%}
        {#- cast(... as string) writes plain digits, except that with ANSI off (dbt-spark's
            session) a value below 1e-6 at a scale above 6 comes out as 0E-8 or 1.0E-7: only
            those go through format_number, which prints plain digits whatever the settings but
            costs twice the cast (the cast to the negotiated scale has rounded already, so it
            only adds grouping commas). Not abs(): Spark 4.x raises NUMERIC_VALUE_OUT_OF_RANGE on abs() of some 38-digit decimals. -#}
        {%- set scale = profile['scale'] -%}
        {%- set value = 'cast(' ~ expression ~ ' as decimal(38, ' ~ scale ~ '))' -%}
        {%- if scale <= 6 -%}
            {{ return('cast(' ~ value ~ ' as string)') }}
        {%- endif -%}
        {{ return("case when " ~ value ~ " not between -0.000001 and 0.000001 then cast(" ~ value ~ " as string)"
            ~ " else replace(format_number(" ~ value ~ ", " ~ scale ~ "), ',', '') end") }}
    {%- elif kind == 'float' -%}
        {#- Spark's optimizer takes an integer's cast to float then double for one cast to double
            (it counts float as wider than bigint), which never rounds to float32: an integer
            reaches float32 through a decimal, which it does not simplify. -#}
        {%- set single = ('cast(' ~ expression ~ ' as decimal(20, 0))') if profile.get('integer') else expression -%}
        {%- set value = 'cast(' ~ expression ~ ' as double)' if profile['bits'] == 64 else 'cast(cast(' ~ single ~ ' as float) as double)' -%}
        {%- set value = parity._float_grid(value, profile, 'double') -%}
        {#- Java's %a omits the exponent's plus sign that C's prints: one is added after the p and
            taken back before a minus, so format_string, the costly part, runs once per value.
            Building the text by arithmetic (log2, exact powers of two) measured no faster:
            Spark evaluates a CASE branch's repeated subexpressions each time. -#}
        {%- set java_hex = "format_string('%.13a', " ~ value ~ ")" -%}
        {{ return(parity._float_text(value, "double('NaN')", "double('Infinity')",
            "replace(replace(" ~ java_hex ~ ", 'p', 'p+'), 'p+-', 'p-')")) }}
    {%- elif kind == 'boolean_text' -%}
        {{ return(parity._boolean_text('cast(' ~ expression ~ ' as string)')) }}
    {%- elif kind == 'string' -%}
        {{ return(('rtrim(cast(' ~ expression ~ ' as string))') if profile.get('padded') else ('cast(' ~ expression ~ ' as string)')) }}
    {%- elif kind == 'uuid' and profile.get('bytes') -%}
        {#- A Parquet UUID, read as its 16 bytes: their hex, hyphenated 8-4-4-4-12. -#}
        {{ return("lower(regexp_replace(hex(" ~ expression ~ "), '^(.{8})(.{4})(.{4})(.{4})(.{12})$', '$1-$2-$3-$4-$5'))") }}
    {%- elif kind == 'uuid' -%}
        {{ return('lower(cast(' ~ expression ~ ' as string))') }}
    {%- elif kind == 'date' -%}
        {{ return('cast(cast(' ~ expression ~ ' as date) as string)') }}
    {%- elif kind in ['timestamp', 'timestamp_ntz'] -%}
        {%- set wall = parity._spark_utc_wall_clock(expression, profile['time_zone']) if profile.get('time_zone') else expression -%}
        {%- set micros = ('unix_micros(' ~ expression ~ ')') if kind == 'timestamp'
            else parity._spark_wall_clock_micros(wall) -%}
        {{ return(parity._timestamp_text(parity._spark_micros_text(parity._rounded_micros(micros, profile, '({0} div {1})')), profile['digits'])) }}
    {%- elif kind == 'binary' -%}
        {{ return('lower(hex(' ~ expression ~ '))') }}
    {%- elif kind == 'nested' -%}
        {#- Through a variant, which sorts object keys and reads numbers; the options pin what the
            session would decide: nested timestamps in UTC, NULL fields left out. -#}
        {{ return(parity._spark_json_text("to_json(parse_json(to_json(" ~ expression ~ ", map('timeZone', 'UTC', 'ignoreNullFields', 'true'))))")) }}
    {%- elif kind == 'json_text' -%}
        {%- set document = 'try_parse_json(' ~ expression ~ ')' -%}
        {{ return("case when " ~ expression ~ " is null then null when " ~ document ~ " is null then " ~ parity._invalid_json_text(expression)
            ~ " else " ~ parity._spark_json_text('to_json(' ~ document ~ ')') ~ " end") }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}


{#- Canonical JSON from the compact JSON a variant writes (keys sorted by UTF-16 code units,
    strings escaped as the encoding asks): split into tokens, a string being one token; where a
    null token is, members whose value is null dropped with the commas they leave; numbers
    rewritten. Each step binds the previous one's tokens as a lambda variable, so the text is
    split once. -#}
{% macro _spark_json_text(json) %}
    {%- set tokens = "regexp_extract_all(" ~ json ~ ", " ~ parity._spark_string_literal('"(?:[^"\\\\]|\\\\.)*"|[^",:\\[\\]{}]+|.') ~ ", 0)" -%}
    {%- set members = "filter(ts, (t, i) -> not ((t = 'null' and get(ts, i - 1) <=> ':') or (t = ':' and get(ts, i + 1) <=> 'null')"
        ~ " or (get(ts, i + 1) <=> ':' and get(ts, i + 2) <=> 'null')))" -%}
    {%- set trailing = "filter(ms, (t, i) -> not (t = ',' and (get(ms, i + 1) <=> ',' or get(ms, i + 1) <=> '}')))" -%}
    {%- set leading = "filter(cs, (t, i) -> not (t = ',' and get(cs, i - 1) <=> '{'))" -%}
    {%- set without_nulls = "get(transform(array(get(transform(array(" ~ members ~ "), ms -> " ~ trailing ~ "), 0)), cs -> " ~ leading ~ "), 0)" -%}
    {%- set tokens = "get(transform(array(" ~ tokens ~ "), ts -> case when array_contains(ts, 'null') then " ~ without_nulls ~ " else ts end), 0)" -%}
    {%- set double = 'cast(t as double)' -%}
    {%- set number = parity._json_number_text('t', '{0} rlike {1}', double, "format_string('%.14e', " ~ double ~ ")", 'cast(cast(' ~ double ~ ' as bigint) as string)',
        'rint(' ~ double ~ ') = ' ~ double, parity._spark_hex_float(double)) -%}
    {{ return("array_join(transform(" ~ tokens ~ ", t -> case when t rlike '^-?[0-9]' then " ~ number ~ " else t end), '')") }}
{% endmacro %}


{#- C's `%.13a` of a double: Java's lacks the plus sign of a non-negative exponent. -#}
{% macro _spark_hex_float(value) %}
    {{ return("replace(replace(format_string('%.13a', " ~ value ~ "), 'p', 'p+'), 'p+-', 'p-')") }}
{% endmacro %}


{#- Microseconds from 1970-01-01 00:00:00 to a timestamp_ntz, from its fields: Spark's
    timestampdiff on timestamp_ntz goes through the session time zone, so a wall-clock time in
    a DST gap (02:30 on a spring-forward day) would count as the hour after it. -#}
{% macro _spark_wall_clock_micros(expression) %}
    {{ return(
        "(unix_date(cast(" ~ expression ~ " as date)) * 86400000000 + hour(" ~ expression ~ ") * 3600000000"
        ~ " + cast(minute(" ~ expression ~ ") as bigint) * 60000000 + cast(date_part('SECOND', " ~ expression ~ ") * 1000000 as bigint))"
    ) }}
{% endmacro %}


{#- The UTC wall clock (a timestamp_ntz) of the instant a timestamp_ntz names in `zone`, without
    the session time zone. Where the zone skips or repeats the wall-clock time, the later of its
    two readings, as PostgreSQL and DuckDB read it: convert_timezone takes the offset before a
    gap, as they do, but the earlier instant of an overlap; the reading with the offset of a
    day later is the other one, taken when it is later and names the same wall-clock time. -#}
{% macro _spark_utc_wall_clock(expression, zone) %}
    {%- set zone = parity._spark_string_literal(zone) -%}
    {%- set first = 'convert_timezone(' ~ zone ~ ", 'UTC', " ~ expression ~ ')' -%}
    {%- set day_after = '(' ~ first ~ " + interval '1' day)" -%}
    {%- set later = '(' ~ expression ~ " - (convert_timezone('UTC', " ~ zone ~ ', ' ~ day_after ~ ') - ' ~ day_after ~ '))' -%}
    {{ return('(case when ' ~ later ~ ' > ' ~ first ~ " and convert_timezone('UTC', " ~ zone ~ ', ' ~ later ~ ') = ' ~ expression
        ~ ' then ' ~ later ~ ' else ' ~ first ~ ' end)') }}
{% endmacro %}


{#- `YYYY-MM-DD HH:MM:SS.ffffff` of a count of microseconds since 1970-01-01 00:00:00, by
    arithmetic on timestamp_ntz, so neither the session time zone nor its DST gaps matter. -#}
{% macro _spark_micros_text(micros) %}
    {%- set fraction = 'pmod(' ~ micros ~ ', 1000000)' -%}
    {{ return(
        "concat(cast(timestampadd(second, (" ~ micros ~ " - " ~ fraction ~ ") div 1000000,"
        ~ " timestamp_ntz'1970-01-01 00:00:00') as string), '.', lpad(cast(" ~ fraction ~ " as string), 6, '0'))"
    ) }}
{% endmacro %}


{% macro spark__row_hash(canonical_expressions) %}
    {%- set row = parity._row_string(canonical_expressions, 'char_length', 'string') -%}
    {{ return('cast(conv(substring(md5(' ~ row ~ '), 18, 15), 16, 10) as bigint)') }}
{% endmacro %}


{% macro spark__key_position(expression) %}
    {{ return('cast(' ~ expression ~ ' as bigint)') }}
{% endmacro %}


{% macro spark__quote_identifier(name) %}
    {{ return('`' ~ (name | string).replace('`', '``') ~ '`') }}
{% endmacro %}


{#- A UTC instant (`YYYY-MM-DD HH:MM:SS.ffffff`) as a literal comparable with a column of that
    kind: naive timestamps are read as UTC, as in the canonical encoding. -#}
{% macro spark__timestamp_literal(utc_text, kind) %}
    {%- if kind == 'date' -%}
        {{ return("date'" ~ utc_text[:10] ~ "'") }}
    {%- endif -%}
    {{ return(("timestamp_ntz'" ~ utc_text ~ "'") if kind == 'timestamp_ntz' else ("timestamp_ltz'" ~ utc_text ~ "+00:00'")) }}
{% endmacro %}


{% macro spark__trim_spaces(text) %}
    {{ return("btrim(" ~ text ~ ", ' ')") }}
{% endmacro %}
