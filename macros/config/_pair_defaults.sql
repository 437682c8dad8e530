{#- Every option a pair may leave out, with its default: the one place defaults live. A project
    sets its own default of `within_tolerance_examples` by the var of that name. -#}
{% macro _pair_defaults() %}
    {{ return({
        'algorithm': 'auto',
        'bisection_factor': 32,
        'bisection_threshold': 16384,
        'tolerance': {},
        'max_row_drift_pct': 0,
        'critical_drift_ratio': none,
        'max_differences': none,
        'within_tolerance_examples': var('parity_within_tolerance_examples', 10),
        'tolerant_checksums': true,
        'where': none,
        'time_zone': none,
        'exclude_columns': [],
        'time_window': none,
        'sensitive': false,
        'sensitive_columns': [],
        'compatibility': 'none',
        'column_presence_tolerance': 0,
        'enforce_key': 'error',
        'retries': 4,
        'retry_seconds': 60,
        'sync': {},
    }) }}
{% endmacro %}
