{#- Checks what a pair compares before anything runs: `where` (a predicate, or one per side),
    `exclude_columns` (with the default column list only, never a key) and `time_window`. -#}
{% macro _check_filters(where, pair) %}
    {%- set declared = pair['where'] -%}
    {%- set valid = declared is none
        or (declared is string and declared | trim)
        or (declared is mapping and declared and (declared.keys() | reject('in', ['source', 'target']) | list | length) == 0
            and (declared.values() | select('string') | select | list | length) == declared | length) -%}
    {%- if not valid -%}
        {{ exceptions.raise_compiler_error(where ~ ": 'where' must be a SQL predicate, or {source: predicate, target: predicate} each in its engine's dialect") }}
    {%- endif -%}
    {%- set excluded = pair['exclude_columns'] -%}
    {%- if excluded is string or excluded is mapping or excluded is not iterable or (excluded | reject('string') | list) -%}
        {{ exceptions.raise_compiler_error(where ~ ": 'exclude_columns' must be a list of column names") }}
    {%- elif excluded and pair['columns'] -%}
        {{ exceptions.raise_compiler_error(where ~ ": give 'columns' or 'exclude_columns', not both") }}
    {%- endif -%}
    {%- for name in excluded if name | lower in pair['key'] | map('lower') | list -%}
        {{ exceptions.raise_compiler_error(where ~ ": key column '" ~ name ~ "' cannot be excluded") }}
    {%- endfor -%}
    {%- set window = pair['time_window'] -%}
    {%- if window is not none -%}
        {%- if window is not mapping or window.get('column') is not string or not (window.get('min_age') or window.get('max_age'))
            or (window.keys() | reject('in', ['column', 'min_age', 'max_age']) | list) -%}
            {{ exceptions.raise_compiler_error(where ~ ": 'time_window' must be {column: update_column, min_age: '1 hour', max_age: '30 days'} with at least one of the ages") }}
        {%- endif -%}
        {%- set ages = {} -%}
        {%- for age in ['min_age', 'max_age'] if window.get(age) -%}
            {%- do ages.update({age: parity._duration_seconds(where, age, window[age])}) -%}
        {%- endfor -%}
        {%- if ages | length == 2 and ages['max_age'] <= ages['min_age'] -%}
            {{ exceptions.raise_compiler_error(where ~ ": time_window.max_age must be longer than its min_age") }}
        {%- endif -%}
    {%- endif -%}
{% endmacro %}


{#- Seconds in a duration written as `<number> <unit>`: seconds, minutes, hours, days or weeks. -#}
{% macro _duration_seconds(where, option, text) %}
    {%- set found = modules.re.fullmatch('\\s*([0-9]+(?:[.][0-9]+)?)\\s*(second|minute|hour|day|week)s?\\s*', text | string) -%}
    {%- if not found -%}
        {{ exceptions.raise_compiler_error(where ~ ": time_window." ~ option ~ " must read like '36 hours' (seconds, minutes, hours, days or weeks), not '" ~ text ~ "'") }}
    {%- endif -%}
    {%- set unit = {'second': 1, 'minute': 60, 'hour': 3600, 'day': 86400, 'week': 604800}[found.group(2)] -%}
    {{ return((found.group(1) | float) * unit) }}
{% endmacro %}
