{#- The options a tolerance matrix accepts, by type family, and the families of the negotiated
    kinds (docs: README "Tolerance"). A kind with no family (boolean, binary, uuid, nested, json)
    is always compared exactly. -#}
{% macro _tolerance_options() %}
    {{ return({
        'numeric': ['abs_tol', 'rel_tol', 'rel_floor'],
        'timestamp': ['temporal_tolerance_ms', 'temporal_grid'],
        'date': ['temporal_tolerance_days'],
        'string': ['trim', 'case_insensitive', 'empty_equals_null'],
    }) }}
{% endmacro %}


{% macro _tolerance_family(kind) %}
    {{ return({
        'integer': 'numeric', 'decimal': 'numeric', 'float': 'numeric',
        'timestamp': 'timestamp', 'timestamp_ntz': 'timestamp',
        'date': 'date',
        'string': 'string',
    }.get(kind)) }}
{% endmacro %}
