{#- The canonical text of one value (NULL stays NULL), after the negotiated profile of its column
    pair: the same value renders to the same text on every engine. docs/canonical-encoding.md is
    the contract; each dialect's `<dialect>__canonical_value` in macros/dialects/ implements it
    for the kinds integer, decimal, float, boolean_text, string, uuid, date, timestamp,
    timestamp_ntz, binary and nested, and leaves to `default__canonical_value` the kinds every
    dialect spells alike (boolean). -#}
{% macro canonical_value(dialect, expression, profile) %}
    {%- set text = parity._dialect_macro('canonical_value', dialect)(expression, profile) -%}
    {%- if text is none -%}
        {%- set text = parity.default__canonical_value(expression, profile) -%}
    {%- endif -%}
    {%- if text is none -%}
        {{ exceptions.raise_compiler_error("parity: " ~ dialect ~ " cannot canonicalize a value of kind '" ~ profile['kind'] ~ "'") }}
    {%- endif -%}
    {{ return(text) }}
{% endmacro %}


{#- A float's canonical text, given the dialect's double value (already narrowed to float32 when
    the pair negotiated 32 bits), its spelling of NaN (equal to itself in every engine here) and
    of positive infinity, and its C99 `%.13a` text of a finite non-zero value. -#}
{% macro _float_text(value, nan, infinity, hex_text) %}
    {{ return(
        "case when " ~ value ~ " is null then null"
        ~ " when " ~ value ~ " = " ~ nan ~ " then 'NaN'"
        ~ " when " ~ value ~ " = " ~ infinity ~ " then 'Infinity'"
        ~ " when " ~ value ~ " = -" ~ infinity ~ " then '-Infinity'"
        ~ " when " ~ value ~ " = 0 then '0'"
        ~ " else " ~ hex_text ~ " end"
    ) }}
{% endmacro %}


{#- A string column that may hold booleans ('t'/'f', 'true'/'false', 'yes'/'no', '0'/'1', any
    case) paired with a boolean column: those spellings become '1'/'0', anything else stays as it
    is and so shows as a difference. -#}
{% macro _boolean_text(expression) %}
    {%- set spelled = 'lower(trim(' ~ expression ~ '))' -%}
    {{ return(
        "case when " ~ spelled ~ " in ('t', 'true', 'y', 'yes', '1') then '1'"
        ~ " when " ~ spelled ~ " in ('f', 'false', 'n', 'no', '0') then '0'"
        ~ " else " ~ expression ~ " end"
    ) }}
{% endmacro %}


{#- Microseconds since the epoch reduced to the negotiated fractional digits (parity._micros_at_digits)
    and, for a column hashed on its tolerance's grid (a `grid` in the profile), to its cell's
    label (macros/canonical/tolerant_text.sql). -#}
{% macro _rounded_micros(micros, profile, division) %}
    {%- set grid = profile.get('grid') -%}
    {%- set rounded = parity._micros_at_digits(micros, profile, division) -%}
    {{ return(rounded if grid is none else parity._floored_micros(rounded, grid['width'], grid['offset'], division)) }}
{% endmacro %}


{#- Microseconds since the epoch reduced to the negotiated fractional digits by the rounding
    rule of the engine that stored the coarser copy (docs/canonical-encoding.md, "Timestamps").
    Every division is of non-negative integers, where all engines truncate alike; `division`
    is the dialect's integer division with the placeholders {0} and {1}. -#}
{% macro _micros_at_digits(micros, profile, division) %}
    {%- set unit = 10 ** (6 - profile['digits']) -%}
    {%- if unit == 1 -%}
        {{ return(micros) }}
    {%- endif -%}
    {%- set half = unit // 2 -%}
    {%- set rule = profile['rounding'] -%}
    {%- if rule == 'truncate' -%}
        {{ return(parity._floored_micros(micros, unit, 0, division)) }}
    {%- elif rule == 'half_up' -%}
        {{ return(parity._floored_micros(micros, unit, half, division)) }}
    {%- elif rule in ['half_away_from_1970', 'half_away_from_2000'] -%}
        {%- set epoch = 0 if rule == 'half_away_from_1970' else 946684800000000 -%}
        {%- set offset = '(' ~ micros ~ ' - ' ~ epoch ~ ')' -%}
        {{ return('(case when ' ~ offset ~ ' < 0 then ' ~ epoch ~ ' - ' ~ division.format('(' ~ epoch ~ ' - ' ~ micros ~ ' + ' ~ half ~ ')', unit) ~ ' * ' ~ unit
            ~ ' else ' ~ epoch ~ ' + ' ~ division.format('(' ~ offset ~ ' + ' ~ half ~ ')', unit) ~ ' * ' ~ unit ~ ' end)') }}
    {%- endif -%}
    {{ exceptions.raise_compiler_error("parity: unknown timestamp rounding rule '" ~ rule ~ "'") }}
{% endmacro %}


{#- SQL of the multiple of `width` at or below `micros` + `offset` (microseconds). Every division
    is of non-negative integers, where all engines truncate alike: a lift to a multiple of the
    width from 10^17 µs (3,170 years) up puts any supported instant above 0. -#}
{% macro _floored_micros(micros, width, offset, division) %}
    {%- set lift = width * ((10 ** 17 + width - 1) // width) -%}
    {{ return('(' ~ division.format('(' ~ micros ~ ' + ' ~ (lift + offset) ~ ')', width) ~ ' * ' ~ width ~ ' - ' ~ lift ~ ')') }}
{% endmacro %}


{#- A timestamp's canonical text from the dialect's 26-character `YYYY-MM-DD HH:MM:SS.ffffff`
    of already rounded microseconds: the fraction cut to the negotiated digits (none: no dot). -#}
{% macro _timestamp_text(full_text, digits) %}
    {%- if digits == 6 -%}
        {{ return(full_text) }}
    {%- endif -%}
    {{ return('left(' ~ full_text ~ ', ' ~ (19 if digits == 0 else 20 + digits) ~ ')') }}
{% endmacro %}
