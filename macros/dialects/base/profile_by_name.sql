{#- A declared type's profile from a dialect's type names: part of the dialects' shared base
    (macros/dialects/base/), which each dialect's macros call with its engine's functions. The base
    calls no concept macro, so calls run one way: canonical/ → dialects/ → base/. -#}

{#- The profile of `data_type` from a dialect's names by kind (integer, decimal, float32,
    float64, boolean, string, char, uuid, date, timestamp, timestamp_ntz, binary, nested) and its
    traits: `default_scale` of a decimal that declares none; `timestamp_digits`, the fractional
    digits of a timestamp that declares none (`digits_by_name` for names that imply them; at
    most 9 are kept, nanoseconds); `rounding`, how the engine stores a finer timestamp in a
    coarser column, and `nanos_rounding` where it stores nanoseconds in microseconds otherwise. Nested types match by their leading name (array<int> is an array). -#}
{% macro _profile_by_name(data_type, names_by_kind, traits) %}
    {%- set type_text = parity._type_text(data_type) -%}
    {%- set name, declared = type_text['name'], type_text['numbers'] -%}
    {%- for kind, names in names_by_kind.items() if name in names or (kind == 'nested' and type_text['leading'] in names) -%}
        {%- if kind == 'decimal' -%}
            {#- decimal(p) has scale 0; a decimal declaring nothing, the dialect's default. -#}
            {{ return({'kind': 'decimal', 'scale': traits['default_scale'] if declared[0] is none else (declared[1] or 0)}) }}
        {%- elif kind in ['float32', 'float64'] -%}
            {{ return({'kind': 'float', 'bits': 32 if kind == 'float32' else 64}) }}
        {%- elif kind in ['string', 'char'] -%}
            {{ return({'kind': 'string', 'padded': kind == 'char'}) }}
        {%- elif kind in ['timestamp', 'timestamp_ntz'] -%}
            {%- set digits = declared[0] if declared[0] is not none else traits.get('digits_by_name', {}).get(name, traits['timestamp_digits']) -%}
            {%- set profile = {'kind': kind, 'digits': [digits, 9] | min, 'rounding': traits['rounding']} -%}
            {%- if 'nanos_rounding' in traits -%}
                {%- do profile.update({'nanos_rounding': traits['nanos_rounding']}) -%}
            {%- endif -%}
            {{ return(profile) }}
        {%- endif -%}
        {{ return({'kind': kind}) }}
    {%- endfor -%}
    {{ return({'kind': 'unsupported'}) }}
{% endmacro %}
