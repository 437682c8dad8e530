{#- A model's key, as its own project declares it, in this order: its `unique_key` config, a
    primary-key constraint (the model's, or one column's), a `unique` test on one column, a
    `unique_combination_of_columns` test (dbt_utils'). An empty list where it declares none. A
    `meta: {parity: {key: ...}}` comes before all of these (parity.derived_pairs). -#}
{% macro model_key(node, tests=none) %}
    {%- set unique_key = node.config.get('unique_key') -%}
    {%- if unique_key -%}
        {{ return([unique_key] if unique_key is string else unique_key | list) }}
    {%- endif -%}
    {%- for constraint in node.get('constraints', []) if constraint.get('type') == 'primary_key' and constraint.get('columns') -%}
        {{ return(constraint['columns'] | list) }}
    {%- endfor -%}
    {%- for column in node.get('columns', {}).values() -%}
        {%- for constraint in column.get('constraints', []) if constraint.get('type') == 'primary_key' -%}
            {{ return([column['name']]) }}
        {%- endfor -%}
    {%- endfor -%}
    {%- set tests = (tests if tests is not none else parity.tests_by_model()).get(node.unique_id, []) -%}
    {%- for test in tests if test.test_metadata.name == 'unique' and test.get('column_name') -%}
        {{ return([test.column_name]) }}
    {%- endfor -%}
    {%- for test in tests if test.test_metadata.name == 'unique_combination_of_columns' -%}
        {{ return(test.test_metadata.kwargs.get('combination_of_columns', []) | list) }}
    {%- endfor -%}
    {{ return([]) }}
{% endmacro %}


{#- The project's generic tests by the unique id of the model each is attached to, in the order
    of their ids: read once for every model a check keys. -#}
{% macro tests_by_model() %}
    {%- set tests = {} -%}
    {%- for test in graph.nodes.values() | sort(attribute='unique_id')
        if test.resource_type == 'test' and test.get('attached_node') and test.get('test_metadata') -%}
        {%- do tests.setdefault(test.attached_node, []).append(test) -%}
    {%- endfor -%}
    {{ return(tests) }}
{% endmacro %}
