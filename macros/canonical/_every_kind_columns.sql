{#- One column of every canonicalization profile, and one of each tolerance grid, for the
    analyses that render each dialect's canonical select (analyses/canonical_select/, checked
    against tests/golden/): `leave_out` names the columns whose profile that dialect cannot
    canonicalize; `dialect` is the one rendered (a grid depends on what it can compute). -#}
{% macro _every_kind_columns(leave_out, dialect) %}
    {%- set profiles = [
        ('order_id', {'kind': 'integer'}),
        ('amount', {'kind': 'decimal', 'scale': 2}),
        ('fx_rate', {'kind': 'decimal', 'scale': 8}),
        ('yield_rate', {'kind': 'decimal', 'scale': 38}),
        ('discount', {'kind': 'float', 'bits': 64}),
        ('weight', {'kind': 'float', 'bits': 32}),
        ('is_gift', {'kind': 'boolean'}),
        ('gift_flag', {'kind': 'boolean_text'}),
        ('status', {'kind': 'string', 'padded': false}),
        ('region_code', {'kind': 'string', 'padded': true}),
        ('order_uuid', {'kind': 'uuid'}),
        ('ship_date', {'kind': 'date'}),
        ('ordered_at', {'kind': 'timestamp', 'digits': 6, 'rounding': 'truncate'}),
        ('packed_at', {'kind': 'timestamp', 'digits': 3, 'rounding': 'half_away_from_2000'}),
        ('local_time', {'kind': 'timestamp_ntz', 'digits': 0, 'rounding': 'half_up'}),
        ('settled_at', {'kind': 'timestamp_ntz', 'digits': 9, 'rounding': 'half_away_from_1970', 'nanos': true}),
        ('logged_at', {'kind': 'timestamp', 'digits': 6, 'rounding': 'half_even', 'nanos': true}),
        ('store_time', {'kind': 'timestamp_ntz', 'digits': 6, 'rounding': 'truncate', 'time_zone': 'Europe/Paris'}),
        ('payload', {'kind': 'binary'}),
        ('attributes', {'kind': 'nested'}),
        ('document', {'kind': 'json'}),
        ('document_text', {'kind': 'json_text'}),
    ] -%}
    {#- Hashed on their tolerance's grid (parity.hash_grid) in segment checksums. -#}
    {%- set tolerant = [
        ('price', {'kind': 'float', 'bits': 64}, {'rel_tol': '1e-9', 'abs_tol': 0.01}),
        ('picked_at', {'kind': 'timestamp', 'digits': 6, 'rounding': 'truncate'}, {'temporal_tolerance_ms': 1}),
        ('channel', {'kind': 'string', 'padded': false}, {'trim': true, 'case_insensitive': true, 'empty_equals_null': true}),
    ] -%}
    {#- Only DuckDB and Snowflake hold nanoseconds; only these three read a naive side in a zone. -#}
    {%- set leave_out = leave_out + ([] if dialect in ['duckdb', 'snowflake'] else ['settled_at', 'logged_at'])
        + ([] if dialect in ['postgres', 'duckdb', 'spark'] else ['store_time']) -%}
    {%- set columns = [] -%}
    {%- for name, profile in profiles if name not in leave_out -%}
        {%- do columns.append({'name': name, 'profile': profile}) -%}
    {%- endfor -%}
    {%- for name, profile, tolerance in tolerant if name not in leave_out -%}
        {%- do columns.append({'name': name, 'profile': profile, 'hash_grid': parity.hash_grid(profile['kind'], tolerance, [dialect])}) -%}
    {%- endfor -%}
    {{ return(columns) }}
{% endmacro %}
