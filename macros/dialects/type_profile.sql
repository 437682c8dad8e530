{#- What a declared column type means for canonicalization: its kind (integer, decimal, float,
    boolean, string, date, timestamp, timestamp_ntz, binary, nested, unsupported) and the
    precision it carries (decimal scale, float significant digits). -#}
{% macro type_profile(dialect, data_type) %}
    {{ return(parity._dialect_macro('type_profile', dialect)(data_type | lower | trim)) }}
{% endmacro %}


{% macro spark__type_profile(data_type) %}
    {%- set base = data_type.split('(')[0].split('<')[0] | trim -%}
    {%- if base in ['tinyint', 'byte', 'smallint', 'short', 'int', 'integer', 'bigint', 'long'] -%}
        {{ return({'kind': 'integer', 'scale': 0}) }}
    {%- elif base in ['decimal', 'dec', 'numeric'] -%}
        {{ return({'kind': 'decimal', 'scale': parity._declared_scale(data_type, 0)}) }}
    {%- elif base in ['float', 'real'] -%}
        {{ return({'kind': 'float', 'digits': 6}) }}
    {%- elif base == 'double' -%}
        {{ return({'kind': 'float', 'digits': 15}) }}
    {%- elif base == 'boolean' -%}
        {{ return({'kind': 'boolean'}) }}
    {%- elif base in ['string', 'varchar', 'char'] -%}
        {{ return({'kind': 'string'}) }}
    {%- elif base == 'date' -%}
        {{ return({'kind': 'date'}) }}
    {%- elif base in ['timestamp', 'timestamp_ltz'] -%}
        {{ return({'kind': 'timestamp'}) }}
    {%- elif base == 'timestamp_ntz' -%}
        {{ return({'kind': 'timestamp_ntz'}) }}
    {%- elif base == 'binary' -%}
        {{ return({'kind': 'binary'}) }}
    {%- elif base in ['array', 'struct', 'map'] -%}
        {{ return({'kind': 'nested'}) }}
    {%- endif -%}
    {{ return({'kind': 'unsupported'}) }}
{% endmacro %}


{#- DuckDB's information_schema spelling of types: INTEGER, DECIMAL(12,2), TIMESTAMP WITH TIME ZONE... -#}
{% macro duckdb__type_profile(data_type) %}
    {%- set base = data_type.split('(')[0] | trim -%}
    {%- if base in ['tinyint', 'smallint', 'integer', 'bigint', 'hugeint', 'utinyint', 'usmallint', 'uinteger', 'ubigint'] -%}
        {{ return({'kind': 'integer', 'scale': 0}) }}
    {%- elif base in ['decimal', 'numeric'] -%}
        {{ return({'kind': 'decimal', 'scale': parity._declared_scale(data_type, 3)}) }}
    {%- elif base in ['float', 'real'] -%}
        {{ return({'kind': 'float', 'digits': 6}) }}
    {%- elif base == 'double' -%}
        {{ return({'kind': 'float', 'digits': 15}) }}
    {%- elif base == 'boolean' -%}
        {{ return({'kind': 'boolean'}) }}
    {%- elif base == 'varchar' -%}
        {{ return({'kind': 'string'}) }}
    {%- elif base == 'date' -%}
        {{ return({'kind': 'date'}) }}
    {%- elif base in ['timestamp with time zone', 'timestamptz'] -%}
        {{ return({'kind': 'timestamp'}) }}
    {%- elif base in ['timestamp', 'timestamp_us'] -%}
        {{ return({'kind': 'timestamp_ntz'}) }}
    {%- endif -%}
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


{#- PostgreSQL's format_type() spelling: integer, numeric(12,2), timestamp(3) with time zone... -#}
{% macro postgres__type_profile(data_type) %}
    {%- set base = data_type.split('(')[0] | trim -%}
    {%- set zoned = data_type.endswith('with time zone') -%}
    {%- if base in ['smallint', 'integer', 'bigint'] -%}
        {{ return({'kind': 'integer', 'scale': 0}) }}
    {%- elif base in ['numeric', 'decimal'] -%}
        {#- An unconstrained numeric holds any scale: the other side's decides. -#}
        {{ return({'kind': 'decimal', 'scale': parity._declared_scale(data_type, 38)}) }}
    {%- elif base == 'real' -%}
        {{ return({'kind': 'float', 'digits': 6}) }}
    {%- elif base == 'double precision' -%}
        {{ return({'kind': 'float', 'digits': 15}) }}
    {%- elif base == 'boolean' -%}
        {{ return({'kind': 'boolean'}) }}
    {%- elif base in ['text', 'character varying'] -%}
        {{ return({'kind': 'string'}) }}
    {%- elif base == 'date' -%}
        {{ return({'kind': 'date'}) }}
    {%- elif base.startswith('timestamp') -%}
        {{ return({'kind': 'timestamp' if zoned else 'timestamp_ntz'}) }}
    {%- endif -%}
    {{ return({'kind': 'unsupported'}) }}
{% endmacro %}
