{#- A model without a key, compared as a whole (no row can be matched to a row): its rows on each
    side, its schema changes, and a profile of each column both sides hold: NULLs, distinct
    values, least and greatest (for a column of one value each), and the sum of a number (a
    float's as a decimal of 6 places, so that the order Spark adds in changes nothing). Returns
    {rows: [production's, here's], schema: ['`column` added', ...], changes: ['`column` nulls
    0 → 2', ...], verdict: changed or unchanged}. One query per side. -#}
{% macro ci_profiles(model) %}
    {%- set columns = {} -%}
    {%- for side, relation in [('production', model.production), ('here', model.here)] -%}
        {%- set typed = {} -%}
        {%- for column in adapter.get_columns_in_relation(relation) -%}
            {%- do typed.update({column.name | lower: column.dtype | lower}) -%}
        {%- endfor -%}
        {%- do columns.update({side: typed}) -%}
    {%- endfor -%}
    {%- set schema = [] -%}
    {%- set common = [] -%}
    {%- for name, dtype in columns['production'].items() -%}
        {%- set other = columns['here'].get(name) -%}
        {%- do schema.append('`' ~ name ~ '` removed') if other is none -%}
        {%- do schema.append('`' ~ name ~ '` ' ~ dtype ~ ' → ' ~ other) if other is not none and other != dtype -%}
        {%- do common.append(name) if other == dtype -%}
    {%- endfor -%}
    {%- for name in columns['here'] if name not in columns['production'] -%}
        {%- do schema.append('`' ~ name ~ '` added') -%}
    {%- endfor -%}
    {%- set measures = ['count(*)'] -%}
    {%- set named = [] -%}
    {%- for name in common -%}
        {%- set dtype = columns['here'][name] -%}
        {%- set quoted = parity.quote_identifier('spark', name) -%}
        {%- do measures.append('count_if(' ~ quoted ~ ' is null)') -%}
        {%- do named.append((name, 'nulls')) -%}
        {%- if not (dtype.startswith('map') or dtype.startswith('array') or dtype.startswith('struct')) -%}
            {%- do measures.extend(['count(distinct ' ~ quoted ~ ')', 'cast(min(' ~ quoted ~ ') as string)', 'cast(max(' ~ quoted ~ ') as string)']) -%}
            {%- do named.extend([(name, 'distinct'), (name, 'least'), (name, 'greatest')]) -%}
        {%- endif -%}
        {%- if dtype in ['double', 'float'] -%}
            {%- do measures.append('cast(sum(cast(' ~ quoted ~ ' as decimal(38, 6))) as string)') -%}
            {%- do named.append((name, 'sum')) -%}
        {%- elif dtype in ['tinyint', 'smallint', 'int', 'bigint'] or dtype.startswith('decimal') -%}
            {%- do measures.append('cast(sum(' ~ quoted ~ ') as string)') -%}
            {%- do named.append((name, 'sum')) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set read = {} -%}
    {%- for side, relation in [('production', model.production), ('here', model.here)] -%}
        {%- do read.update({side: run_query('select ' ~ measures | join(', ') ~ ' from ' ~ relation).rows[0]}) -%}
    {%- endfor -%}
    {%- set changes = [] -%}
    {%- for name, measure in named -%}
        {%- set before, after = read['production'][loop.index], read['here'][loop.index] -%}
        {#- A sensitive column's values never show: only that its least, greatest or sum changed. -#}
        {%- set hidden = model.hidden == '*' or name in model.hidden -%}
        {%- set shown = ' changed' if hidden and measure in ['least', 'greatest', 'sum'] else ' ' ~ before ~ ' → ' ~ after -%}
        {%- do changes.append('`' ~ name ~ '` ' ~ measure ~ shown) if before != after -%}
    {%- endfor -%}
    {%- set rows = [read['production'][0], read['here'][0]] -%}
    {{ return({
        'rows': rows, 'schema': schema, 'changes': changes,
        'verdict': 'unchanged' if rows[0] == rows[1] and not schema and not changes else 'changed',
    }) }}
{% endmacro %}
