{#- What a declared column type means for canonicalization: its kind (integer, decimal, float,
    boolean, string, date, timestamp, timestamp_ntz, binary, nested, unsupported) and the
    precision it carries (decimal scale, float significant digits). Each dialect lists its type
    names by kind; names are matched without their parenthesized precision. -#}
{% macro type_profile(dialect, data_type) %}
    {{ return(parity._dialect_macro('type_profile', dialect)(data_type | lower | trim)) }}
{% endmacro %}


{% macro spark__type_profile(data_type) %}
    {{ return(parity._profile_by_name(data_type, {
        'integer': ['tinyint', 'byte', 'smallint', 'short', 'int', 'integer', 'bigint', 'long'],
        'decimal': ['decimal', 'dec', 'numeric'],
        'float32': ['float', 'real'],
        'float64': ['double'],
        'boolean': ['boolean'],
        'string': ['string', 'varchar', 'char'],
        'date': ['date'],
        'timestamp': ['timestamp', 'timestamp_ltz'],
        'timestamp_ntz': ['timestamp_ntz'],
        'binary': ['binary'],
        'nested': ['array', 'struct', 'map'],
    }, 0)) }}
{% endmacro %}


{#- DuckDB's information_schema spelling: INTEGER, DECIMAL(12,2), TIMESTAMP WITH TIME ZONE... -#}
{% macro duckdb__type_profile(data_type) %}
    {{ return(parity._profile_by_name(data_type, {
        'integer': ['tinyint', 'smallint', 'integer', 'bigint', 'hugeint', 'utinyint', 'usmallint', 'uinteger', 'ubigint'],
        'decimal': ['decimal', 'numeric'],
        'float32': ['float', 'real'],
        'float64': ['double'],
        'boolean': ['boolean'],
        'string': ['varchar'],
        'date': ['date'],
        'timestamp': ['timestamp with time zone', 'timestamptz'],
        'timestamp_ntz': ['timestamp', 'timestamp_us'],
    }, 3)) }}
{% endmacro %}


{#- PostgreSQL's format_type() spelling: integer, numeric(12,2), timestamp(3) with time zone...
    An unconstrained numeric holds any scale, so the other side's decides (scale 38). -#}
{% macro postgres__type_profile(data_type) %}
    {{ return(parity._profile_by_name(data_type, {
        'integer': ['smallint', 'integer', 'bigint'],
        'decimal': ['numeric', 'decimal'],
        'float32': ['real'],
        'float64': ['double precision'],
        'boolean': ['boolean'],
        'string': ['text', 'character varying'],
        'date': ['date'],
        'timestamp': ['timestamp with time zone'],
        'timestamp_ntz': ['timestamp without time zone', 'timestamp'],
    }, 38)) }}
{% endmacro %}


{#- The profile of `data_type` from a dialect's names by kind; `default_scale` for a decimal
    that declares none. Nested types match by their leading name (array<int> is an array). -#}
{% macro _profile_by_name(data_type, names_by_kind, default_scale) %}
    {%- set name = modules.re.sub('\\([^)]*\\)', '', data_type) | trim -%}
    {%- set leading = modules.re.split('[<(\\[ ]', name)[0] -%}
    {%- for kind, names in names_by_kind.items() if name in names or (kind == 'nested' and leading in names) -%}
        {%- if kind == 'decimal' -%}
            {{ return({'kind': 'decimal', 'scale': parity._declared_scale(data_type, default_scale)}) }}
        {%- elif kind in ['float32', 'float64'] -%}
            {{ return({'kind': 'float', 'digits': 6 if kind == 'float32' else 15}) }}
        {%- elif kind == 'integer' -%}
            {{ return({'kind': 'integer', 'scale': 0}) }}
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
