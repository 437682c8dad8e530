{#- What a declared column type means for canonicalization: its kind and the precision it
    carries. Each dialect (`<dialect>__type_profile` in macros/dialects/) lists its type names by
    kind and its traits; names are matched without their parenthesized precision. -#}
{% macro type_profile(dialect, data_type) %}
    {{ return(parity._dialect_macro('type_profile', dialect)(data_type | lower | trim)) }}
{% endmacro %}


{#- The profile of `data_type` from a dialect's names by kind (integer, decimal, float32,
    float64, boolean, string, char, uuid, date, timestamp, timestamp_ntz, binary, nested) and its
    traits: `default_scale` of a decimal that declares none; `timestamp_digits`, the fractional
    digits of a timestamp that declares none (`digits_by_name` for names that imply them); and
    `rounding`, how the engine stores a finer timestamp in a coarser column. Nested types match
    by their leading name (array<int> is an array). -#}
{% macro _profile_by_name(data_type, names_by_kind, traits) %}
    {%- set name = modules.re.sub('\\([^)]*\\)', '', data_type) | trim -%}
    {%- set leading = modules.re.split('[<(\\[ ]', name)[0] -%}
    {%- for kind, names in names_by_kind.items() if name in names or (kind == 'nested' and leading in names) -%}
        {%- if kind == 'decimal' -%}
            {{ return({'kind': 'decimal', 'scale': parity._declared_scale(data_type, traits['default_scale'])}) }}
        {%- elif kind in ['float32', 'float64'] -%}
            {{ return({'kind': 'float', 'bits': 32 if kind == 'float32' else 64}) }}
        {%- elif kind in ['string', 'char'] -%}
            {{ return({'kind': 'string', 'padded': kind == 'char'}) }}
        {%- elif kind in ['timestamp', 'timestamp_ntz'] -%}
            {%- set declared = modules.re.search('\\((\\d+)\\)', data_type) -%}
            {%- set digits = (declared.group(1) | int) if declared else traits.get('digits_by_name', {}).get(name, traits['timestamp_digits']) -%}
            {{ return({'kind': kind, 'digits': [digits, 6] | min, 'rounding': traits['rounding']}) }}
        {%- endif -%}
        {{ return({'kind': kind}) }}
    {%- endfor -%}
    {{ return({'kind': 'unsupported'}) }}
{% endmacro %}


{#- The scale of `decimal(p, s)`, or the dialect's default scale when the type names none. -#}
{% macro _declared_scale(data_type, default_scale) %}
    {%- if '(' not in data_type -%}
        {{ return(default_scale) }}
    {%- endif -%}
    {%- set arguments = data_type.split('(')[1].rstrip(')').split(',') -%}
    {{ return((arguments[1] | trim | int) if arguments | length > 1 else 0) }}
{% endmacro %}
