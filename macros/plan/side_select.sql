{#- The canonical select of one side of a pair, in that side's dialect: the key position that
    segmentation splits, the canonical key and column values, and the row hash. The Python
    library only filters and groups this relation; it never builds canonical SQL itself.
    `columns` lists {name, profile} in comparison order, keys first; `predicate` (the side's
    filters, parity.side_filters) keeps only the rows compared; the relation always has an
    alias, so no engine can read the filter's parenthesis as an alias with a column list. A
    single integer key is its own position, so segments are key ranges; any other key
    (compound, text, dates...) is positioned by the hash of its canonical fields, which both
    engines compute alike. A
    column with a `hash_grid` enters the row hash (that only segment checksums use) by its
    tolerant text, kept beside its exact canonical text (parity.tolerant_text). `within`, a
    condition on `{position}` (or, for an integer key, on the stored `{key}` column, which an
    index on it can answer), keeps only the rows that meet it, tested on the stored row before
    any value is canonicalized. Where the dialect would otherwise inline the
    canonical values into the row hash that reads each of them more than once, a fence
    (parity.subquery_fence) keeps them computed once; a second keeps the row hash computed
    before the queries around the select sort or group its rows, which then carry the hash,
    not the values. `exact`: a row hashed on a grid also gets its exact row hash (the
    whole-table checksum a re-run compares, pipelines/incremental.py), for the first pass; the
    drill-down's queries leave it out. -#}
{% macro side_select(dialect, relation_name, key_count, columns, predicate=none, within=none, exact=false) %}
    {%- set aliases = parity.column_aliases(key_count, (columns | length) - key_count) -%}
    {%- set canonical, hashed = [], [] -%}
    {%- for column in columns -%}
        {%- set alias = (aliases['keys'] + aliases['values'])[loop.index0] -%}
        {%- set quoted = parity.quote_identifier(dialect, column['name']) -%}
        {%- do canonical.append({'alias': alias, 'sql': parity.canonical_value(dialect, quoted, column['profile'])}) -%}
        {%- if column.get('hash_grid') -%}
            {%- do hashed.append({'alias': parity.tolerant_alias(alias), 'sql': parity.tolerant_text(dialect, quoted, column['profile'], column['hash_grid'])}) -%}
        {%- else -%}
            {%- do hashed.append({'alias': alias}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set integer_key = parity.key_is_position(key_count, columns) -%}
    {%- set conditions = [predicate] if predicate else [] -%}
    {%- if within -%}
        {%- set position = parity.key_position(dialect, parity.quote_identifier(dialect, columns[0]['name'])) if integer_key
            else parity.row_hash(dialect, canonical[:key_count] | map(attribute='sql') | list) -%}
        {%- do conditions.append(within | replace('{position}', position) | replace('{key}', parity.quote_identifier(dialect, columns[0]['name']))) -%}
    {%- endif -%}
    {%- set fence = parity.subquery_fence(dialect) -%}
select
    canonical.*,
    {%- if not integer_key %}
    {{ parity.row_hash(dialect, canonical[:key_count] | map(attribute='alias') | list) }} as {{ aliases['position'] }},
    {%- endif %}
    {{ parity.row_hash(dialect, hashed | map(attribute='alias') | list) }} as {{ aliases['hash'] }}
    {%- if exact and hashed | selectattr('sql', 'defined') | list %},
    {{ parity.row_hash(dialect, canonical | map(attribute='alias') | list) }} as {{ aliases['exact_hash'] }}
    {%- endif %}
from (
    select
        {%- if integer_key %}
        {{ parity.key_position(dialect, parity.quote_identifier(dialect, columns[0]['name'])) }} as {{ aliases['position'] }},
        {%- endif %}
        {%- for value in canonical + (hashed | selectattr('sql', 'defined') | list) %}
        {{ value['sql'] }} as {{ value['alias'] }}{{ ',' if not loop.last }}
        {%- endfor %}
    from {{ relation_name }} as __parity_relation
    {%- if conditions %}
    where {{ conditions | join(' and ') }}
    {%- endif %}
    {%- if fence %}
    {{ fence }}
    {%- endif %}
) as canonical
{%- if fence %}
{{ fence }}
{%- endif %}
{%- endmacro %}


{#- What ends a subquery so that the dialect computes its columns once, rather than inlining
    them wherever the outer query reads them (empty where the engine shares common
    subexpressions). -#}
{% macro subquery_fence(dialect) %}
    {{ return(parity._dialect_macro('subquery_fence', dialect)()) }}
{% endmacro %}
