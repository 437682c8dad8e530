{#- The three queries parity sends a side held by another engine, rendered whole in its dialect
    around the side's canonical select: `profile` (sizes, checksum, key range and key counts, in
    one pass grouped by key), `checksums` (count and checksum of each cell at one depth, of the
    rows in listed cells at another) and `rows` (the canonical rows of listed cells). Cells
    come as bound parameters (parity.query_parameter), numbered: 1 the grid's lowest position,
    2 its scale, 3 its width, 4 the number of cells at the depth listed, 5 the listed cells;
    `checksums` adds 6, the number of cells at the depth it groups by
    (src/parity/values/keyspace.py). A row with a NULL key matches no key: it is counted,
    never compared. -#}
{% macro remote_queries(dialect, canonical_sql, aliases) %}
    {%- set keys = aliases['keys'] | join(', ') -%}
    {%- set null_tests = [] -%}
    {%- for key in aliases['keys'] -%}
        {%- do null_tests.append(key ~ ' is null') -%}
    {%- endfor -%}
    {%- set null_key = '(' ~ null_tests | join(' or ') ~ ')' -%}
    {%- set checksum = parity.segment_checksum(dialect, aliases['hash']) -%}
    {%- set position = aliases['position'] -%}
    {%- set p = [none] -%}
    {%- for number in range(1, 7) -%}
        {%- do p.append(parity.query_parameter(dialect, number)) -%}
    {%- endfor -%}
    {%- set listed = parity.cell_number(dialect, position, p[1], p[2], p[4], p[3]) -%}
    {%- set grouped = parity.cell_number(dialect, position, p[1], p[2], p[6], p[3]) -%}
    {%- set within = parity.cell_listed(dialect, listed, p[5]) ~ ' and not ' ~ null_key -%}
    {{ return({
        'profile': 'select sum(n), sum(case when ' ~ null_key ~ ' then 0 else n end),'
            ~ ' sum(case when ' ~ null_key ~ ' then 0 else total end),'
            ~ ' min(case when ' ~ null_key ~ ' then null else low end),'
            ~ ' max(case when ' ~ null_key ~ ' then null else high end),'
            ~ ' sum(case when ' ~ null_key ~ ' then n else 0 end),'
            ~ ' sum(case when ' ~ null_key ~ ' or n = 1 then 0 else 1 end)'
            ~ ' from (select ' ~ keys ~ ', count(*) as n, ' ~ checksum ~ ' as total,'
            ~ ' min(' ~ position ~ ') as low, max(' ~ position ~ ') as high'
            ~ ' from (' ~ canonical_sql ~ ') as canonical group by ' ~ keys ~ ') as per_key',
        'checksums': 'select ' ~ grouped ~ ' as cell, count(*), ' ~ checksum
            ~ ' from (' ~ canonical_sql ~ ') as canonical where ' ~ within ~ ' group by 1',
        'rows': 'select ' ~ (aliases['keys'] + aliases['values']) | join(', ')
            ~ ' from (' ~ canonical_sql ~ ') as canonical where ' ~ within,
    }) }}
{% endmacro %}
