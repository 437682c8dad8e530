{#- joindiff's first pass over one side in the Spark session: each row's canonical key and one
    xxhash64 of its compared values, with the side's filters. Inside one engine no hash needs to
    be portable, so a value both sides hold in the same type is hashed as Spark holds it (no text
    is built for it), and any other value by its canonical text, or its tolerant text when the
    pair hashes it on a grid. Spark's hash skips NULL arguments, so (NULL, 5) and (5, NULL) would
    hash alike: a mask of the row's NULLs is hashed first. `columns` lists {name, profile,
    hash_grid} in comparison order, keys first; `native` says, per compared column (keys first),
    whether it is selected as Spark holds it: a key by parity.natively_keyed, a value by
    parity.natively_hashed. A single integer key is its own position
    (as in parity.side_select), selected too: the first pass then sums by cells of consecutive
    keys instead of by key (algorithms/cell_hashes.py). -#}
{% macro native_select(relation_name, key_count, columns, native, predicate=none) %}
    {%- set aliases = parity.column_aliases(key_count, (columns | length) - key_count) -%}
    {%- set hashed = [] -%}
    {%- for column in columns[key_count:] -%}
        {%- set quoted = parity.quote_identifier('spark', column['name']) -%}
        {%- if column.get('hash_grid') -%}
            {%- do hashed.append(parity.tolerant_text('spark', quoted, column['profile'], column['hash_grid'])) -%}
        {%- elif native[key_count + loop.index0] -%}
            {%- do hashed.append(quoted) -%}
        {%- else -%}
            {%- do hashed.append(parity.canonical_value('spark', quoted, column['profile'])) -%}
        {%- endif -%}
    {%- endfor -%}
    {#- 62 flags per mask keep each mask a positive bigint. -#}
    {%- set masks = [] -%}
    {%- for chunk in hashed | batch(62) -%}
        {%- set flags = [] -%}
        {%- for value in chunk -%}
            {%- do flags.append('(case when ' ~ value ~ ' is null then ' ~ (2 ** loop.index0) ~ ' else 0 end)') -%}
        {%- endfor -%}
        {%- do masks.append(flags | join(' + ')) -%}
    {%- endfor -%}
select
    {%- if parity.key_is_position(key_count, columns) %}
    {{ parity.key_position('spark', parity.quote_identifier('spark', columns[0]['name'])) }} as {{ aliases['position'] }},
    {%- endif %}
    {%- for column in columns[:key_count] %}
        {%- set quoted = parity.quote_identifier('spark', column['name']) %}
    {{ 'cast(' ~ quoted ~ ' as bigint)' if native[loop.index0] else parity.canonical_value('spark', quoted, column['profile']) }} as {{ aliases['keys'][loop.index0] }},
    {%- endfor %}
    xxhash64({{ (masks + hashed) | join(', ') if hashed else '0' }}) as {{ aliases['native_hash'] }}
from {{ relation_name }} as __parity_relation
{%- if predicate %}
where {{ predicate }}
{%- endif %}
{%- endmacro %}


{#- Per key column, whether joindiff's first pass groups on it as Spark holds it (as a bigint):
    when both sides hold it in an integer type, whose canonical text is its digits. Grouping on
    the number, not its text, takes a quarter off a compound key's first pass; the keys it finds
    differing are cast back to their canonical text (algorithms/key_hashes.py). -#}
{% macro natively_keyed(source_keys, target_keys) %}
    {%- set integer = '(tinyint|smallint|int|bigint)' -%}
    {%- set native = [] -%}
    {%- for source in source_keys -%}
        {%- set target = target_keys[loop.index0] -%}
        {%- do native.append(source['profile']['kind'] == 'integer'
            and modules.re.fullmatch(integer, source['data_type'] | lower) is not none
            and modules.re.fullmatch(integer, target['data_type'] | lower) is not none) -%}
    {%- endfor -%}
    {{ return(native) }}
{% endmacro %}


{#- Per compared column, whether joindiff hashes it as Spark holds it: when both sides hold it in
    the same type, one whose equal values are equal in canonical text (numbers, text without a
    collation, booleans, dates, timestamps, binary; xxhash64 folds -0.0 into 0.0 and hashes every
    NaN alike, as the canonical text does). Any other column is hashed by its canonical text. -#}
{% macro natively_hashed(source_columns, target_columns) %}
    {%- set plain = '(tinyint|smallint|int|bigint|float|double|boolean|date|timestamp|timestamp_ntz|string|binary|decimal\\(\\d+,\\d+\\)|char\\(\\d+\\)|varchar\\(\\d+\\))' -%}
    {%- set native = [] -%}
    {%- for source in source_columns -%}
        {%- set source_type = source['data_type'] | lower | replace(' ', '') -%}
        {%- set target_type = target_columns[loop.index0]['data_type'] | lower | replace(' ', '') -%}
        {%- do native.append(source_type == target_type and modules.re.fullmatch(plain, source_type) is not none) -%}
    {%- endfor -%}
    {{ return(native) }}
{% endmacro %}
