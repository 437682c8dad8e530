{#- The relation a pair side names: calling ref()/source() here is what gives dbt docs the
    lineage from every compared relation to the plan. For a source of files this is the lineage
    only; Spark reads the files by path (parity.file_location). A relation named by its schema
    and table ([database,] schema, table: a derived pair's, parity.derived_pairs) draws none. -#}
{% macro parity_relation(spec) %}
    {%- if 'relation' in spec -%}
        {%- set parts = spec['relation'] | list -%}
        {%- set parts = [none] + parts if parts | length == 2 else parts -%}
        {{ return(api.Relation.create(database=parts[0], schema=parts[1], identifier=parts[2])) }}
    {%- endif -%}
    {%- if 'ref' in spec -%}
        {%- set target = spec['ref'] -%}
        {{ return(ref(target) if target is string else ref(target[0], target[1])) }}
    {%- endif -%}
    {{ return(source(spec['source'][0], spec['source'][1])) }}
{% endmacro %}
