{#- The row hash: the lower 60 bits of MD5 over the canonical row string, as an integer.
    60 bits (15 hex digits) keep every per-row value below 2^60, so a sum over 2^66 rows still
    fits a decimal(38, 0); see docs/canonical-encoding.md for the row string. -#}
{% macro row_hash(dialect, canonical_expressions) %}
    {{ return(parity._dialect_macro('row_hash', dialect)(canonical_expressions)) }}
{% endmacro %}


{#- The aggregate that sums row hashes over a segment without overflow. -#}
{% macro segment_checksum(dialect, row_hash_column) %}
    {{ return(parity._dialect_macro('segment_checksum', dialect)(row_hash_column)) }}
{% endmacro %}
