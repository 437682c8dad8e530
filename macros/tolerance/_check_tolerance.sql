{#- Checks the shape of a pair's `tolerance` before anything runs: {defaults: {family: options},
    columns: {column: options}}, every option known and its value in range. Whether a column's
    options fit its type is checked once types are known (parity._tolerance_kinds_problem). -#}
{% macro _check_tolerance(where, tolerance) %}
    {%- if tolerance is not mapping -%}
        {{ exceptions.raise_compiler_error(where ~ ": 'tolerance' must be a mapping with 'defaults' and/or 'columns'") }}
    {%- endif -%}
    {%- for part in tolerance if part not in ['defaults', 'columns'] -%}
        {{ exceptions.raise_compiler_error(where ~ ": tolerance has an unknown part '" ~ part ~ "' (allowed: defaults, columns)") }}
    {%- endfor -%}
    {%- set families = parity._tolerance_options() -%}
    {%- set known = families.values() | sum(start=[]) -%}
    {%- for part in ['defaults', 'columns'] if part in tolerance -%}
        {%- if tolerance[part] is not mapping -%}
            {{ exceptions.raise_compiler_error(where ~ ": tolerance." ~ part ~ " must be a mapping") }}
        {%- endif -%}
        {%- for subject, options in tolerance[part].items() -%}
            {%- set described = (part == 'defaults') and ("type family '" ~ subject ~ "'") or ("column '" ~ subject ~ "'") -%}
            {%- if part == 'defaults' and subject not in families -%}
                {{ exceptions.raise_compiler_error(where ~ ": tolerance.defaults names an unknown type family '" ~ subject ~ "' (families: " ~ (families.keys() | join(', ')) ~ ")") }}
            {%- endif -%}
            {%- if options is not mapping -%}
                {{ exceptions.raise_compiler_error(where ~ ": tolerance for " ~ described ~ " must be a mapping of options") }}
            {%- endif -%}
            {%- set allowed = families[subject] if part == 'defaults' else known -%}
            {%- for option, value in options.items() -%}
                {%- if option not in allowed -%}
                    {{ exceptions.raise_compiler_error(where ~ ": tolerance for " ~ described ~ ": unknown option '" ~ option ~ "' (allowed: " ~ (allowed | join(', ')) ~ ")") }}
                {%- endif -%}
                {%- do parity._check_tolerance_value(where ~ ": tolerance for " ~ described, option, value) -%}
            {%- endfor -%}
        {%- endfor -%}
    {%- endfor -%}
{% endmacro %}


{% macro _check_tolerance_value(where, option, value) %}
    {%- set number = parity._tolerance_number(value) is not none -%}
    {%- set value = parity._tolerance_number(value) if number else value -%}
    {%- if option in ['trim', 'case_insensitive', 'empty_equals_null'] and value is not boolean -%}
        {{ exceptions.raise_compiler_error(where ~ ": " ~ option ~ " must be true or false, not '" ~ value ~ "'") }}
    {%- elif option == 'temporal_grid' and value not in ['nearest', 'floor'] -%}
        {{ exceptions.raise_compiler_error(where ~ ": temporal_grid must be nearest or floor, not '" ~ value ~ "'") }}
    {%- elif option == 'rel_tol' and not (number and 0 <= value < 1) -%}
        {{ exceptions.raise_compiler_error(where ~ ": rel_tol must be a number from 0 up to (not including) 1, not '" ~ value ~ "'") }}
    {%- elif option == 'temporal_tolerance_days' and not (number and (value | int) == value and value >= 0) -%}
        {{ exceptions.raise_compiler_error(where ~ ": temporal_tolerance_days must be a whole number of at least 0, not '" ~ value ~ "'") }}
    {%- elif option in ['abs_tol', 'rel_floor', 'temporal_tolerance_ms'] and not (number and value >= 0) -%}
        {{ exceptions.raise_compiler_error(where ~ ": " ~ option ~ " must be a number of at least 0, not '" ~ value ~ "'") }}
    {%- endif -%}
{% endmacro %}


{#- A number, or a number YAML read as text (it reads 1e-9 as a string), as a float; else none. -#}
{% macro _tolerance_number(value) %}
    {%- if value is number and value is not boolean -%}
        {%- set read = value -%}
    {%- elif value is string and modules.re.fullmatch('[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?', value | trim) -%}
        {%- set read = value | trim | float -%}
    {%- endif -%}
    {#- YAML's .inf, or digits past a double's range, bound nothing a query can write. -#}
    {{ return(none if read is not defined or (read | string) in ['inf', '-inf', 'nan'] else read) }}
{% endmacro %}
