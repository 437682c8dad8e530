{#- The sizes of the blocks a side outside Spark groups its first pass by: part of the dialects'
    shared base (macros/dialects/base/), which each dialect's macros use. Named here once in
    SQL; tests/unit/test_contracts.py holds them to the library's. -#}

{#- A block of consecutive integer positions holds 2^5 = 32 of them: one bit each in an
    aggregate that fits 32 bits (src/parity/sides/sql.py: BLOCK_BITS). -#}
{% macro key_block_bits() %}
    {{ return(5) }}
{% endmacro %}


{#- A hashed position's block is its top 15 of 60 bits: 32,768 blocks
    (src/parity/values/keyspace.py: HASHED_BLOCK_BITS). -#}
{% macro hashed_block_bits() %}
    {{ return(15) }}
{% endmacro %}
