{#- The canonical text of one value (NULL stays NULL), after the negotiated profile of its column
    pair: the same value renders to the same text on every engine. docs/canonical-encoding.md is
    the contract. -#}
{% macro canonical_value(dialect, expression, profile) %}
    {{ return(parity._dialect_macro('canonical_value', dialect)(expression, profile)) }}
{% endmacro %}


{% macro spark__canonical_value(expression, profile) %}
    {%- set kind = profile['kind'] -%}
    {%- if kind == 'integer' -%}
        {{ return('cast(' ~ expression ~ ' as string)') }}
    {%- elif kind == 'decimal' -%}
        {{ return('cast(cast(' ~ expression ~ ' as decimal(38, ' ~ profile['scale'] ~ ')) as string)') }}
    {%- elif kind == 'float' -%}
        {%- set value = 'cast(' ~ expression ~ ' as double)' -%}
        {{ return(parity._float_text(value, "double('NaN')", "double('Infinity')", "format_string('" ~ parity._printf_e(profile) ~ "', " ~ value ~ ")")) }}
    {%- elif kind == 'boolean' -%}
        {{ return("case when " ~ expression ~ " then '1' when not " ~ expression ~ " then '0' end") }}
    {%- elif kind == 'string' -%}
        {{ return('cast(' ~ expression ~ ' as string)') }}
    {%- elif kind == 'date' -%}
        {{ return('cast(cast(' ~ expression ~ ' as date) as string)') }}
    {%- elif kind == 'timestamp' -%}
        {{ return(parity._spark_utc_text('unix_micros(' ~ expression ~ ')')) }}
    {%- elif kind == 'timestamp_ntz' -%}
        {{ return(parity._spark_utc_text("timestampdiff(microsecond, timestamp_ntz'1970-01-01 00:00:00', " ~ expression ~ ")")) }}
    {%- elif kind == 'binary' -%}
        {{ return('lower(hex(' ~ expression ~ '))') }}
    {%- elif kind == 'nested' -%}
        {{ return('to_json(' ~ expression ~ ')') }}
    {%- endif -%}
    {{ exceptions.raise_compiler_error("parity: spark cannot canonicalize a value of kind '" ~ kind ~ "'") }}
{% endmacro %}


{#- `YYYY-MM-DD HH:MM:SS.ffffff` of a count of microseconds since 1970-01-01 00:00:00, by
    arithmetic on timestamp_ntz, so neither the session time zone nor its DST gaps matter. -#}
{% macro _spark_utc_text(micros) %}
    {%- set fraction = 'pmod(' ~ micros ~ ', 1000000)' -%}
    {{ return(
        "concat(cast(timestampadd(second, (" ~ micros ~ " - " ~ fraction ~ ") div 1000000,"
        ~ " timestamp_ntz'1970-01-01 00:00:00') as string), '.', lpad(cast(" ~ fraction ~ " as string), 6, '0'))"
    ) }}
{% endmacro %}


{% macro duckdb__canonical_value(expression, profile) %}
    {%- set kind = profile['kind'] -%}
    {%- if kind in ['integer', 'string'] -%}
        {{ return('cast(' ~ expression ~ ' as varchar)') }}
    {%- elif kind == 'decimal' -%}
        {{ return('cast(cast(' ~ expression ~ ' as decimal(38, ' ~ profile['scale'] ~ ')) as varchar)') }}
    {%- elif kind == 'float' -%}
        {%- set value = 'cast(' ~ expression ~ ' as double)' -%}
        {{ return(parity._float_text(value, "'NaN'::double", "'Infinity'::double", "printf('" ~ parity._printf_e(profile) ~ "', " ~ value ~ ")")) }}
    {%- elif kind == 'boolean' -%}
        {{ return("case when " ~ expression ~ " then '1' when not " ~ expression ~ " then '0' end") }}
    {%- elif kind == 'date' -%}
        {{ return("strftime(cast(" ~ expression ~ " as date), '%Y-%m-%d')") }}
    {%- elif kind == 'timestamp' -%}
        {{ return("strftime(timezone('UTC', " ~ expression ~ "), '%Y-%m-%d %H:%M:%S.%f')") }}
    {%- elif kind == 'timestamp_ntz' -%}
        {{ return("strftime(" ~ expression ~ ", '%Y-%m-%d %H:%M:%S.%f')") }}
    {%- endif -%}
    {{ exceptions.raise_compiler_error("parity: duckdb cannot canonicalize a value of kind '" ~ kind ~ "'") }}
{% endmacro %}


{#- A float's canonical text, given how the dialect spells NaN (equal to itself in every engine
    here) and positive infinity, and formats a finite non-zero value in scientific notation. -#}
{% macro _float_text(value, nan, infinity, formatted) %}
    {{ return(
        "case when " ~ value ~ " is null then null"
        ~ " when " ~ value ~ " = " ~ nan ~ " then 'NaN'"
        ~ " when " ~ value ~ " = " ~ infinity ~ " then 'Infinity'"
        ~ " when " ~ value ~ " = -" ~ infinity ~ " then '-Infinity'"
        ~ " when " ~ value ~ " = 0 then '0'"
        ~ " else " ~ formatted ~ " end"
    ) }}
{% endmacro %}


{#- printf's scientific format for the negotiated significant digits. -#}
{% macro _printf_e(profile) %}
    {{ return('%.' ~ (profile['digits'] - 1) ~ 'e') }}
{% endmacro %}


{% macro postgres__canonical_value(expression, profile) %}
    {%- set kind = profile['kind'] -%}
    {%- if kind in ['integer', 'string'] -%}
        {{ return('cast(' ~ expression ~ ' as text)') }}
    {%- elif kind == 'decimal' -%}
        {{ return('cast(round(cast(' ~ expression ~ ' as numeric), ' ~ profile['scale'] ~ ') as text)') }}
    {%- elif kind == 'float' -%}
        {#- to_char rounds like C's printf; ltrim drops the blank it keeps for a sign. -#}
        {%- set value = 'cast(' ~ expression ~ ' as double precision)' -%}
        {%- set pattern = '9.' ~ ('9' * (profile['digits'] - 1)) ~ 'EEEE' -%}
        {{ return(parity._float_text(value, "'NaN'::double precision", "'Infinity'::double precision", "ltrim(to_char(" ~ value ~ ", '" ~ pattern ~ "'))")) }}
    {%- elif kind == 'boolean' -%}
        {{ return("case when " ~ expression ~ " then '1' when not " ~ expression ~ " then '0' end") }}
    {%- elif kind == 'date' -%}
        {{ return("to_char(" ~ expression ~ ", 'YYYY-MM-DD')") }}
    {%- elif kind == 'timestamp' -%}
        {{ return("to_char(" ~ expression ~ " at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')") }}
    {%- elif kind == 'timestamp_ntz' -%}
        {{ return("to_char(" ~ expression ~ ", 'YYYY-MM-DD HH24:MI:SS.US')") }}
    {%- endif -%}
    {{ exceptions.raise_compiler_error("parity: postgres cannot canonicalize a value of kind '" ~ kind ~ "'") }}
{% endmacro %}
