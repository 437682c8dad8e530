{#- The columns of a pair's verdict, in the order parity_pair_results writes them (PairResult):
    what the history keeps of every result and what parity_summary publishes, both rendered from
    this one list. tests/unit/test_contracts.py holds it to PairResult. -#}
{% macro verdict_columns() %}
    {{ return([
        'pair_name', 'source_relation', 'target_relation', 'algorithm', 'source_rows', 'target_rows',
        'missing_in_target_rows', 'missing_in_source_rows', 'value_mismatch_rows', 'duplicate_in_source_rows',
        'duplicate_in_target_rows', 'within_tolerance_rows', 'mismatched_values', 'within_tolerance_values',
        'within_tolerance_counted', 'differing_rows', 'schema_findings', 'row_drift_pct', 'passed', 'halted',
        'checksum_passes', 'segments_checked', 'segments_reused', 'rows_moved', 'source_rows_moved',
        'target_rows_moved', 'elapsed_seconds', 'config_hash', 'tolerance_hash', 'filters', 'data_compared',
        'schema_compatible', 'source_schema_hash', 'target_schema_hash', 'source_null_keys',
        'source_duplicate_keys', 'target_null_keys', 'target_duplicate_keys', 'keys_flagged', 'status',
        'status_reason',
    ]) }}
{% endmacro %}
