{#- A model's key, as its own project declares it, in this order: its `unique_key` config, a
    primary-key constraint (the model's, or one column's), a `unique` test on one column, a
    `unique_combination_of_columns` test (dbt_utils'). An empty list where it declares none. A
    `meta: {parity: {key: ...}}` comes before all of these (parity.derived_pairs). -#}
{% macro model_key(node) %}
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
    {%- set tests = [] -%}
    {%- for test in graph.nodes.values() | sort(attribute='unique_id')
        if test.resource_type == 'test' and test.get('attached_node') == node.unique_id and test.get('test_metadata') -%}
        {%- do tests.append(test) -%}
    {%- endfor -%}
    {%- for test in tests if test.test_metadata.name == 'unique' and test.get('column_name') -%}
        {{ return([test.column_name]) }}
    {%- endfor -%}
    {%- for test in tests if test.test_metadata.name == 'unique_combination_of_columns' -%}
        {{ return(test.test_metadata.kwargs.get('combination_of_columns', []) | list) }}
    {%- endfor -%}
    {{ return([]) }}
{% endmacro %}
