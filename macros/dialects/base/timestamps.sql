{#- A timestamp's ticks rounded to the negotiated digits, and its text: part of the dialects' shared
    base (macros/dialects/base/), which each dialect's macros call with its engine's functions. The
    base calls no concept macro, so calls run one way: canonical/ → dialects/ → base/. -#}

{#- Ticks since the epoch (microseconds; nanoseconds for a side whose profile has `nanos`)
    reduced to the negotiated fractional digits (parity._micros_at_digits) and, for a column
    hashed on its tolerance's grid (a `grid` in the profile, in microseconds), to its cell's
    label (macros/canonical/tolerant_text.sql). -#}
{% macro _rounded_micros(micros, profile, division) %}
    {%- set grid = profile.get('grid') -%}
    {%- set rounded = parity._micros_at_digits(micros, profile, division) -%}
    {%- set per_micro, tick = (1000, 1) if profile.get('nanos') else (1, 1000) -%}
    {{ return(rounded if grid is none else parity._floored_micros(rounded, grid['width'] * per_micro, grid['offset'] * per_micro, division, tick)) }}
{% endmacro %}


{#- Ticks since the epoch (microseconds, or nanoseconds with `nanos`) reduced to the negotiated
    fractional digits by the rounding rule of the engine that stored the coarser copy
    (docs/canonical-encoding.md, "Timestamps"). Every division is of non-negative integers,
    where all engines truncate alike; `division` is the dialect's integer division with the
    placeholders {0} and {1}. -#}
{% macro _micros_at_digits(micros, profile, division) %}
    {%- set held, tick = (9, 1) if profile.get('nanos') else (6, 1000) -%}
    {%- set unit = 10 ** (held - profile['digits']) -%}
    {%- if unit == 1 -%}
        {{ return(micros) }}
    {%- endif -%}
    {%- set half = unit // 2 -%}
    {%- set rule = profile['rounding'] -%}
    {%- if rule == 'truncate' -%}
        {{ return(parity._floored_micros(micros, unit, 0, division, tick)) }}
    {%- elif rule == 'half_up' -%}
        {{ return(parity._floored_micros(micros, unit, half, division, tick)) }}
    {%- elif rule == 'half_even' -%}
        {#- Half up, then a tie that went to an odd unit back down: the lift is a multiple of
            twice the unit, so a unit's parity is its quotient's. -#}
        {%- set lift = 2 * unit * ((10 ** 20 // tick + 2 * unit - 1) // (2 * unit)) -%}
        {%- set lifted = '(' ~ micros ~ ' + ' ~ (lift + half) ~ ')' -%}
        {%- set units = division.format(lifted, unit) -%}
        {%- set odd_tie = '(' ~ lifted ~ ' - ' ~ units ~ ' * ' ~ unit ~ ' = 0 and ' ~ units ~ ' - ' ~ division.format(units, 2) ~ ' * 2 = 1)' -%}
        {{ return('((' ~ units ~ ' - case when ' ~ odd_tie ~ ' then 1 else 0 end) * ' ~ unit ~ ' - ' ~ lift ~ ')') }}
    {%- elif rule in ['half_away_from_1970', 'half_away_from_2000'] -%}
        {%- set epoch = 0 if rule == 'half_away_from_1970' else 946684800 * 10 ** held -%}
        {%- set offset = '(' ~ micros ~ ' - ' ~ epoch ~ ')' -%}
        {{ return('(case when ' ~ offset ~ ' < 0 then ' ~ epoch ~ ' - ' ~ division.format('(' ~ epoch ~ ' - ' ~ micros ~ ' + ' ~ half ~ ')', unit) ~ ' * ' ~ unit
            ~ ' else ' ~ epoch ~ ' + ' ~ division.format('(' ~ offset ~ ' + ' ~ half ~ ')', unit) ~ ' * ' ~ unit ~ ' end)') }}
    {%- endif -%}
    {{ exceptions.raise_compiler_error("parity: unknown timestamp rounding rule '" ~ rule ~ "'") }}
{% endmacro %}


{#- SQL of the multiple of `width` at or below `micros` + `offset`, in ticks of `tick`
    nanoseconds (1000: microseconds). Every division is of non-negative integers, where all
    engines truncate alike: a lift to a multiple of the width from 3,170 years (10^17 µs) up
    puts any supported instant above 0. In nanoseconds that passes 2^63: a dialect's nanoseconds
    are a 128-bit or decimal integer. -#}
{% macro _floored_micros(micros, width, offset, division, tick=1000) %}
    {%- set lift = width * ((10 ** 20 // tick + width - 1) // width) -%}
    {{ return('(' ~ division.format('(' ~ micros ~ ' + ' ~ (lift + offset) ~ ')', width) ~ ' * ' ~ width ~ ' - ' ~ lift ~ ')') }}
{% endmacro %}


{#- A timestamp's canonical text from the dialect's `YYYY-MM-DD HH:MM:SS.ffffff` (26 characters;
    29 with nanoseconds, `held` 9) of already rounded ticks: the fraction cut to the negotiated
    digits (none: no dot). -#}
{% macro _timestamp_text(full_text, digits, held=6) %}
    {%- if digits == held -%}
        {{ return(full_text) }}
    {%- endif -%}
    {{ return('left(' ~ full_text ~ ', ' ~ (19 if digits == 0 else 20 + digits) ~ ')') }}
{% endmacro %}
