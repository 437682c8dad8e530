{#- The cell number of a row's key position at one depth of the segment grid, all in exact
    integer arithmetic (src/parity/values/keyspace.py: ((position - low) div scale) * cells div
    width); `low`, `scale`, `cells` and `width` are SQL expressions, bound parameters as
    parity.remote_queries renders them. Spark computes cells through its DataFrame API instead,
    in bigint where that cannot overflow. -#}
{% macro cell_number(dialect, position, low, scale, cells, width) %}
    {{ return(parity._dialect_macro('cell_number', dialect)(position, low, scale, cells, width)) }}
{% endmacro %}


{#- Whether the cell number `cell` is one of the cells of the array bound as `parameter`. -#}
{% macro cell_listed(dialect, cell, parameter) %}
    {{ return(parity._dialect_macro('cell_listed', dialect)(cell, parameter)) }}
{% endmacro %}


{#- The marker of the `number`-th bound parameter of a query (1-based). -#}
{% macro query_parameter(dialect, number) %}
    {{ return(parity._dialect_macro('query_parameter', dialect)(number)) }}
{% endmacro %}


{#- Whether the dialect's SQL can do `capability` (`key_blocks`, `hashed_blocks`,
    `listed_keys`: macros/dialects/default.sql, default__capabilities): only then may its side's
    queries use the concept that renders it. -#}
{% macro dialect_can(dialect, capability) %}
    {%- set capabilities = parity._dialect_macro('capabilities', dialect)() -%}
    {%- if capability not in capabilities -%}
        {{ exceptions.raise_compiler_error("parity: no dialect capability '" ~ capability ~ "'") }}
    {%- endif -%}
    {{ return(capabilities[capability]) }}
{% endmacro %}


{#- The block of 32 consecutive integer positions that `position` falls in (`number`, the floor
    of position / 32, for `group by 1`) and the aggregate of one bit per position present in a
    block (`keys`: bit position mod 32 set): a block whose rows outnumber its bits holds a key
    twice. Only for a dialect that can (`key_blocks`); the side is otherwise profiled by key.
    src/parity/sides/sql.py: BLOCK_BITS. -#}
{% macro key_block(dialect, position) %}
    {{ return(parity._dialect_macro('key_block', dialect)(position)) }}
{% endmacro %}


{#- The block a hashed position falls in: its top 15 bits (32,768 blocks; HASHED_BLOCK_BITS in
    src/parity/values/keyspace.py). Only for a dialect that can (`hashed_blocks`); the side is
    otherwise profiled by key only. -#}
{% macro hashed_block(dialect, position) %}
    {{ return(parity._dialect_macro('hashed_block', dialect)(position)) }}
{% endmacro %}


{#- Whether the stored integer `key` is one of the keys of the array bound as `parameter`, in
    a form an index on the key answers. Only for a dialect that can (`listed_keys`). -#}
{% macro key_listed(dialect, key, parameter) %}
    {{ return(parity._dialect_macro('key_listed', dialect)(key, parameter)) }}
{% endmacro %}
