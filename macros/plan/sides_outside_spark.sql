{#- The sides of these pairs that live outside Spark (those parity_remote_columns reads), each as
    [pair, side]: with none, the plan asks for no remote columns. -#}
{% macro sides_outside_spark(pairs) %}
    {%- set sides = [] -%}
    {%- for pair in pairs -%}
        {%- for side in ['source', 'target'] if parity.side_location(pair[side])['dialect'] != 'spark' -%}
            {%- do sides.append([pair, side]) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(sides) }}
{% endmacro %}
