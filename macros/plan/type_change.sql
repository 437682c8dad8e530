{#- How a column's declared type changed from source to target: `unchanged` when each side holds
    every value of the other (int and integer, string and text), `widened` when only the target
    holds every source value, `narrowed` when only the source holds every target value, and
    `incompatible` when neither does, or when the two cannot be compared at all. -#}
{% macro type_change(source_column, target_column, comparable) %}
    {%- if not comparable -%}
        {{ return('incompatible') }}
    {%- endif -%}
    {%- set widening = parity._holds_every_value(target_column, source_column) -%}
    {%- set narrowing = parity._holds_every_value(source_column, target_column) -%}
    {%- if widening and narrowing -%}
        {{ return('unchanged') }}
    {%- elif widening -%}
        {{ return('widened') }}
    {%- elif narrowing -%}
        {{ return('narrowed') }}
    {%- endif -%}
    {{ return('incompatible') }}
{% endmacro %}


{#- Whether column `wide` can hold every value column `narrow` can, for two comparable columns. A
    zoned and a naive timestamp hold different things (an instant, a wall-clock time). -#}
{% macro _holds_every_value(wide, narrow) %}
    {%- set kinds = [wide['profile']['kind'], narrow['profile']['kind']] -%}
    {%- if kinds[0] in ['integer', 'decimal'] and kinds[1] in ['integer', 'decimal'] -%}
        {{ return(parity._range_holds(parity._value_range(wide), parity._value_range(narrow))) }}
    {%- elif kinds == ['float', 'float'] -%}
        {{ return(wide['profile']['bits'] >= narrow['profile']['bits']) }}
    {%- elif kinds[0] == kinds[1] and kinds[0] in ['timestamp', 'timestamp_ntz'] -%}
        {{ return(wide['profile']['digits'] >= narrow['profile']['digits']) }}
    {%- elif kinds[0] == 'string' and kinds[1] in ['string', 'boolean', 'uuid', 'json', 'nested'] -%}
        {#- As text, a boolean takes at most 5 characters (false), a UUID 36. -#}
        {%- set room = parity._type_text(wide['data_type'])['numbers'][0] -%}
        {%- set needed = parity._type_text(narrow['data_type'])['numbers'][0] if kinds[1] == 'string' else {'boolean': 5, 'uuid': 36}.get(kinds[1]) -%}
        {{ return(room is none or (needed is not none and needed <= room)) }}
    {%- elif kinds == ['nested', 'nested'] -%}
        {#- The same container (struct, array or map); their fields are compared one by one. -#}
        {{ return(parity._type_text(wide['data_type'])['leading'] == parity._type_text(narrow['data_type'])['leading']) }}
    {%- endif -%}
    {{ return((kinds[0] == kinds[1] and kinds[0] in ['boolean', 'uuid', 'date', 'binary', 'json'])
        or kinds in [['integer', 'boolean'], ['json', 'nested']]) }}
{% endmacro %}


{#- The integer part's bounds and the scale of a numeric type; none where unbounded (an
    unconstrained PostgreSQL numeric). -#}
{% macro _value_range(column) %}
    {%- set declared = parity._type_text(column['data_type'])['numbers'] -%}
    {%- if column['profile']['kind'] == 'decimal' -%}
        {%- if declared[0] is none -%}
            {{ return({'low': none, 'high': none, 'scale': none}) }}
        {%- endif -%}
        {%- set scale = declared[1] or 0 -%}
        {{ return({'low': 1 - 10 ** (declared[0] - scale), 'high': 10 ** (declared[0] - scale) - 1, 'scale': scale}) }}
    {%- endif -%}
    {%- set name = parity._type_text(column['data_type'])['leading'] -%}
    {#- DuckDB spells unsigned integers utinyint...uhugeint, MySQL `int unsigned`. -#}
    {%- set duckdb_unsigned = name in ['utinyint', 'usmallint', 'uinteger', 'ubigint', 'uhugeint'] -%}
    {%- set unsigned = duckdb_unsigned or (column['data_type'] | lower | trim).endswith(' unsigned') -%}
    {%- set bits = {
        'tinyint': 8, 'byte': 8, 'smallint': 16, 'short': 16, 'mediumint': 24, 'int': 32, 'integer': 32,
        'bigint': 64, 'long': 64, 'int64': 64, 'hugeint': 128,
    }.get(name[1:] if duckdb_unsigned else name) -%}
    {%- if bits is none -%}
        {#- An integer declared by its digits, as Snowflake's number(38, 0). -#}
        {%- set high = none if declared[0] is none else 10 ** declared[0] - 1 -%}
        {{ return({'low': none if high is none else -high, 'high': high, 'scale': 0}) }}
    {%- elif unsigned -%}
        {{ return({'low': 0, 'high': 2 ** bits - 1, 'scale': 0}) }}
    {%- endif -%}
    {{ return({'low': -(2 ** (bits - 1)), 'high': 2 ** (bits - 1) - 1, 'scale': 0}) }}
{% endmacro %}


{% macro _range_holds(wide, narrow) %}
    {%- set scale = wide['scale'] is none or (narrow['scale'] is not none and narrow['scale'] <= wide['scale']) -%}
    {%- set high = wide['high'] is none or (narrow['high'] is not none and narrow['high'] <= wide['high']) -%}
    {%- set low = wide['low'] is none or (narrow['low'] is not none and narrow['low'] >= wide['low']) -%}
    {{ return(scale and high and low) }}
{% endmacro %}

