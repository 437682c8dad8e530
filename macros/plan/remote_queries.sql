{#- The queries parity sends a side held by another engine, rendered whole in its dialect around
    the side's canonical select (parity.side_select):
    - `profile`: sizes, checksum, key range and key counts, in one pass grouped by key (its
      canonical fields, parity.group_key), and the exact checksum (the same as the checksum
      but where a column hashes on a tolerance's grid);
    - `blocks` (a single integer key, where the dialect can `key_blocks`): one pass grouped by
      block of 32 consecutive keys, each with its rows, checksum, one bit per key present
      (parity.key_block) and exact checksum, from which parity answers the checksums of coarser
      cells itself; with a key positioned by its hash (where the dialect can
      `hashed_blocks`, parity.hashed_block): `profile`'s pass grouped by key, then by block of the top
      15 bits of the position, each with its rows, checksum, keys held by more than one row
      and exact checksum, and one group (block NULL) of the rows with a NULL key;
    - `bounds` and `blocks_between`, with `blocks`: the least and greatest key and the rows
      with a NULL key; `blocks` of the keys from parameter 1 to parameter 2, which a side
      spreads over several sessions, each a range of keys (an index on the key answers each
      range without reading the others);
    - `duplicates`: how many keys more than one row holds, in listed blocks;
    - `duplicate_examples`: the first keys (by position where the key is its own, else by
      canonical text) more than one row holds, each with its rows, for an error to show;
    - `checksums`: count and checksum of each cell at one depth, of the rows in listed cells at
      another;
    - `rows`: the canonical rows of listed cells;
    - `rows_of_keys` (a single integer key, where the dialect can `listed_keys`): the canonical rows of
      listed keys, parameter 1, which an index on the key answers without reading the table.
    The listed cells are tested on each stored row's position before any value is
    canonicalized. They come as bound parameters (parity.query_parameter), numbered: 1 the
    grid's lowest position, 2 its scale, 3 its width, 4 the number of cells at the depth listed,
    5 the listed cells; `checksums` adds 6, the number of cells at the depth it groups by
    (src/parity/values/keyspace.py); `duplicates` takes the listed blocks as 1. A row with a NULL
    key matches no key: it is counted, never compared. -#}
{% macro remote_queries(dialect, relation_name, key_count, columns, predicate, aliases) %}
    {%- set keys = aliases['keys'] | join(', ') -%}
    {%- set grouped_keys = [] -%}
    {%- for key in aliases['keys'] -%}
        {%- do grouped_keys.append(parity.group_key(dialect, key)) -%}
    {%- endfor -%}
    {%- set null_tests = [] -%}
    {%- for key in aliases['keys'] -%}
        {%- do null_tests.append(key ~ ' is null') -%}
    {%- endfor -%}
    {%- set null_key = '(' ~ null_tests | join(' or ') ~ ')' -%}
    {%- set checksum = parity.segment_checksum(dialect, aliases['hash']) -%}
    {%- set exact = parity.segment_checksum(dialect, parity.exact_hash_alias(aliases, columns)) -%}
    {%- set position = aliases['position'] -%}
    {%- set p = [none] -%}
    {%- for number in range(1, 7) -%}
        {%- do p.append(parity.query_parameter(dialect, number)) -%}
    {%- endfor -%}
    {%- set whole = parity.side_select(dialect, relation_name, key_count, columns, predicate) -%}
    {%- set first_pass = parity.side_select(dialect, relation_name, key_count, columns, predicate, exact=true) -%}
    {%- set listed = parity.cell_listed(dialect, parity.cell_number(dialect, '{position}', p[1], p[2], p[4], p[3]), p[5]) -%}
    {%- set in_cells = parity.side_select(dialect, relation_name, key_count, columns, predicate, listed) -%}
    {%- set grouped = parity.cell_number(dialect, position, p[1], p[2], p[6], p[3]) -%}
    {%- set queries = {
        'profile': 'select sum(n), sum(case when ' ~ null_key ~ ' then 0 else n end),'
            ~ ' sum(case when ' ~ null_key ~ ' then 0 else total end),'
            ~ ' min(case when ' ~ null_key ~ ' then null else low end),'
            ~ ' max(case when ' ~ null_key ~ ' then null else high end),'
            ~ ' sum(case when ' ~ null_key ~ ' then n else 0 end),'
            ~ ' sum(case when ' ~ null_key ~ ' or n = 1 then 0 else 1 end),'
            ~ ' sum(case when ' ~ null_key ~ ' then 0 else exact end)'
            ~ ' from (select ' ~ keys ~ ', count(*) as n, ' ~ checksum ~ ' as total, ' ~ exact ~ ' as exact,'
            ~ ' min(' ~ position ~ ') as low, max(' ~ position ~ ') as high'
            ~ ' from (' ~ first_pass ~ ') as canonical group by ' ~ grouped_keys | join(', ') ~ ') as per_key',
        'blocks': '',
        'bounds': '',
        'blocks_between': '',
        'duplicates': '',
        'duplicate_examples': 'select ' ~ parity._duplicate_examples_select(aliases['keys']) ~ ', count(*) from (' ~ whole ~ ') as canonical'
            ~ ' where not ' ~ null_key ~ ' group by ' ~ grouped_keys | join(', ') ~ ' having count(*) > 1'
            ~ ' order by ' ~ ((('min(' ~ position ~ '), ') if parity.key_is_position(key_count, columns) else '') ~ range(1, key_count + 1) | join(', '))
            ~ ' limit ' ~ parity.duplicate_examples_limit(),
        'checksums': 'select ' ~ grouped ~ ' as cell, count(*), ' ~ checksum
            ~ ' from (' ~ in_cells ~ ') as canonical where not ' ~ null_key ~ ' group by 1',
        'rows': 'select ' ~ (aliases['keys'] + aliases['values']) | join(', ')
            ~ ' from (' ~ in_cells ~ ') as canonical where not ' ~ null_key,
        'rows_of_keys': '',
    } -%}
    {%- if parity.key_is_position(key_count, columns) and parity.dialect_can(dialect, 'listed_keys') -%}
        {%- set keys_listed = parity.key_listed(dialect, '{key}', p[1]) -%}
        {%- do queries.update({'rows_of_keys': 'select ' ~ (aliases['keys'] + aliases['values']) | join(', ')
            ~ ' from (' ~ parity.side_select(dialect, relation_name, key_count, columns, predicate, keys_listed) ~ ') as canonical'}) -%}
    {%- endif -%}
    {%- if not parity.key_is_position(key_count, columns) and parity.dialect_can(dialect, 'hashed_blocks') -%}
        {%- set hashed_block = parity.hashed_block(dialect, 'low') -%}
        {%- do queries.update({'blocks': 'select case when ' ~ null_key ~ ' then null else ' ~ hashed_block ~ ' end,'
            ~ ' sum(n), sum(total), sum(case when n = 1 then 0 else 1 end), sum(exact)'
            ~ ' from (select ' ~ keys ~ ', count(*) as n, ' ~ checksum ~ ' as total, ' ~ exact ~ ' as exact,'
            ~ ' min(' ~ position ~ ') as low'
            ~ ' from (' ~ first_pass ~ ') as canonical group by ' ~ grouped_keys | join(', ') ~ ') as per_key group by 1'}) -%}
    {%- endif -%}
    {%- if parity.key_is_position(key_count, columns) and parity.dialect_can(dialect, 'key_blocks') -%}
        {%- set block = parity.key_block(dialect, position) -%}
        {%- set in_blocks = parity.side_select(dialect, relation_name, key_count, columns, predicate,
            parity.cell_listed(dialect, parity.key_block(dialect, '{position}')['number'], p[1])) -%}
        {%- set between = '{key} >= ' ~ parity.key_position(dialect, p[1]) ~ ' and {key} <= ' ~ parity.key_position(dialect, p[2]) -%}
        {%- set blocks = 'select ' ~ block['number'] ~ ', count(*), ' ~ checksum ~ ', ' ~ block['keys'] ~ ', ' ~ exact ~ ' from ({}) as canonical group by 1' -%}
        {%- do queries.update({
            'blocks': blocks.format(first_pass),
            'bounds': 'select min(' ~ position ~ '), max(' ~ position ~ '), count(*) - count(' ~ position ~ ') from (' ~ whole ~ ') as canonical',
            'blocks_between': blocks.format(parity.side_select(dialect, relation_name, key_count, columns, predicate, between, exact=true)),
            'duplicates': 'select count(*) from (select ' ~ position ~ ' from (' ~ in_blocks
                ~ ') as canonical group by 1 having count(*) > 1) as duplicated',
        }) -%}
    {%- endif -%}
    {{ return(queries) }}
{% endmacro %}


{#- How many keys held by more than one row a duplicate-key error shows. -#}
{% macro duplicate_examples_limit() %}
    {{ return(5) }}
{% endmacro %}


{#- Each key field of a group of rows with one key: the same text on every row, whatever the
    engine grouped it by (parity.group_key), so its least. -#}
{% macro _duplicate_examples_select(keys) %}
    {%- set fields = [] -%}
    {%- for key in keys -%}
        {%- do fields.append('min(' ~ key ~ ')') -%}
    {%- endfor -%}
    {{ return(fields | join(', ')) }}
{% endmacro %}
