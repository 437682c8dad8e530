{#- The profiles the two sides of a column pair canonicalize at, [source, target]: the precision
    both can represent. A timestamp with a time zone pairs with one without it, read as UTC. A pair
    of kinds that cannot be made comparable is an error naming both columns and types. -#}
{% macro negotiate_profile(where, source_column, target_column) %}
    {%- set source = source_column['profile'] -%}
    {%- set target = target_column['profile'] -%}
    {%- set kinds = [source['kind'], target['kind']] | sort -%}
    {%- set described = "source column '" ~ source_column['name'] ~ "' (" ~ source_column['data_type'] ~ ") and target column '"
        ~ target_column['name'] ~ "' (" ~ target_column['data_type'] ~ ")" -%}
    {%- if 'unsupported' in kinds -%}
        {{ exceptions.raise_compiler_error(where ~ ": " ~ described ~ ": parity cannot canonicalize this type yet") }}
    {%- elif kinds == ['integer', 'integer'] -%}
        {{ return([{'kind': 'integer'}] * 2) }}
    {%- elif kinds in [['decimal', 'decimal'], ['decimal', 'integer']] -%}
        {{ return([{'kind': 'decimal', 'scale': [source['scale'], target['scale']] | min}] * 2) }}
    {%- elif kinds == ['float', 'float'] -%}
        {#- Spark (Java) rounds a double's shortest decimal form, the other engines its exact
            binary value: at a tie the texts differ, so Spark floats compare only with Spark's. -#}
        {%- set spark_sides = [source_column, target_column] | selectattr('dialect', 'in', ['spark', 'databricks']) | list -%}
        {%- if spark_sides | length == 1 -%}
            {{ exceptions.raise_compiler_error(where ~ ": " ~ described ~ ": floating-point columns cannot yet be compared exactly between "
                ~ source_column['dialect'] ~ " and " ~ target_column['dialect'] ~ "; leave them out with 'columns'") }}
        {%- endif -%}
        {{ return([{'kind': 'float', 'digits': [source['digits'], target['digits']] | min}] * 2) }}
    {%- elif kinds == ['timestamp', 'timestamp_ntz'] -%}
        {{ return([{'kind': source['kind']}, {'kind': target['kind']}]) }}
    {%- elif kinds[0] == kinds[1] -%}
        {{ return([{'kind': kinds[0]}] * 2) }}
    {%- endif -%}
    {{ exceptions.raise_compiler_error(where ~ ": " ~ described ~ " cannot be compared") }}
{% endmacro %}
