{#- The relation a parity model was built as, if it exists: hooks may not call ref(). -#}
{% macro _built_relation(model_name) %}
    {%- for node in graph.nodes.values() if node.resource_type == 'model' and node.package_name == 'parity' and node.name == model_name -%}
        {{ return(adapter.get_relation(node.database, node.schema, node.alias)) }}
    {%- endfor -%}
    {{ return(none) }}
{% endmacro %}
