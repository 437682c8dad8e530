{#- What every dialect renders alike: `_dialect_macro` takes `<dialect>__<concept>` where the
    dialect's own file has one, and `default__<concept>` here otherwise. A dialect overrides
    only what it does differently. -#}

{#- The kinds every dialect spells alike; none for a kind no dialect can render alike (the
    caller then names the kind and the dialect). -#}
{% macro default__canonical_value(expression, profile) %}
    {%- if profile['kind'] == 'boolean' -%}
        {{ return("case when " ~ expression ~ " then '1' when not " ~ expression ~ " then '0' end") }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}


{#- The checksum's sum as a decimal wide enough for any table: 60-bit hashes leave room for
    2^66 rows in 38 digits. -#}
{% macro default__segment_checksum(row_hash_column) %}
    {{ return('sum(cast(' ~ row_hash_column ~ ' as decimal(38, 0)))') }}
{% endmacro %}


{#- The SQL standard's quoting: the name in double quotes, inner double quotes doubled. -#}
{% macro default__quote_identifier(name) %}
    {{ return('"' ~ (name | string).replace('"', '""') ~ '"') }}
{% endmacro %}


{#- Spaces (U+0020 alone) trimmed from both ends. -#}
{% macro default__trim_spaces(text) %}
    {{ return("trim(" ~ text ~ ", ' ')") }}
{% endmacro %}


{#- The letters A-Z folded to lower case, and nothing else: lower() follows a locale or
    collation, which may fold more than the verdict does. -#}
{% macro default__ascii_lower(text) %}
    {{ return("translate(" ~ text ~ ", 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')") }}
{% endmacro %}


{% macro default__group_key(expression) %}
    {{ return(expression) }}
{% endmacro %}


{% macro default__subquery_fence() %}
    {{ return('') }}
{% endmacro %}


{#- What a dialect's SQL can do beyond the canonical select, each a concept it then renders:
    `key_blocks`, number the blocks of consecutive integer keys (`key_block`); `hashed_blocks`,
    number the blocks of hashed positions (`hashed_block`); `listed_keys`, test a stored key
    against a bound array of keys in a form an index answers (`key_listed`). A dialect that can
    none profiles its side by key and fetches its rows by cell. -#}
{% macro default__capabilities() %}
    {{ return({'key_blocks': false, 'hashed_blocks': false, 'listed_keys': false}) }}
{% endmacro %}
