{#- The tolerance one compared column is evaluated with, once its negotiated kind is known: the
    defaults of its type family, overridden by the options set for the column itself (each one
    its family has: `_tolerance_kinds_problem`); a column with no family is compared exactly.
    Column names match case-insensitively. -#}
{% macro column_tolerance(column_name, kind, tolerance) %}
    {%- set resolved = {} -%}
    {%- do resolved.update((tolerance.get('defaults') or {}).get(parity._tolerance_family(kind), {})) -%}
    {%- do resolved.update(parity._own_tolerance(column_name, tolerance)) -%}
    {{ return(resolved) }}
{% endmacro %}


{#- The options set for one column itself in tolerance.columns (names match case-insensitively). -#}
{% macro _own_tolerance(column_name, tolerance) %}
    {%- set own = {} -%}
    {%- for name, options in (tolerance.get('columns') or {}).items() if name | lower == column_name | lower -%}
        {%- do own.update(options) -%}
    {%- endfor -%}
    {{ return(own) }}
{% endmacro %}


{#- Every option set for a compared column that its negotiated kind's family does not have, as
    the pair's problem (the column, the option, the kind and the options it has); '' when every
    option applies. `columns`: the compared columns as described, with their profiles. -#}
{% macro _tolerance_kinds_problem(columns, tolerance) %}
    {%- set problems = [] -%}
    {%- for column in columns -%}
        {%- set kind = column['profile']['kind'] -%}
        {%- set allowed = parity._tolerance_options().get(parity._tolerance_family(kind), []) -%}
        {%- for option in parity._own_tolerance(column['name'], tolerance) if option not in allowed -%}
            {%- do problems.append("tolerance for column '" ~ column['name'] ~ "': " ~ option ~ " does not apply to a " ~ kind ~ " column"
                ~ ((" (its options: " ~ (allowed | join(', ')) ~ ")") if allowed else " (it is compared exactly)")) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(problems | join('; ')) }}
{% endmacro %}


{#- What the comparison needs to know of one compared column: its name, the kind both sides
    were canonicalized as (with a decimal's scale, to read the exact value back, and a float's
    width, to show it in its shortest form) and its
    resolved tolerance ({} when compared exactly). -#}
{% macro column_rule(column_name, profile, tolerance) %}
    {%- set rule = {'column': column_name, 'kind': profile['kind'], 'tolerance': parity.column_tolerance(column_name, profile['kind'], tolerance)} -%}
    {%- if profile['kind'] == 'decimal' -%}
        {%- do rule.update({'scale': profile['scale']}) -%}
    {%- elif profile['kind'] == 'float' -%}
        {%- do rule.update({'bits': profile['bits']}) -%}
    {%- endif -%}
    {{ return(rule) }}
{% endmacro %}


{#- Every column named in tolerance.columns is one the pair compares (not a key column, not left
    out as a schema finding): else the pair's problem, naming every such column; '' when all are. -#}
{% macro _tolerance_columns_problem(tolerance, rules) %}
    {%- set compared = rules | map(attribute='column') | list -%}
    {%- set uncompared = [] -%}
    {%- for name in (tolerance.get('columns') or {}) if name | lower not in compared | map('lower') | list -%}
        {%- do uncompared.append("'" ~ name ~ "'") -%}
    {%- endfor -%}
    {{ return(("tolerance names column " ~ (uncompared | join(', ')) ~ ", which the pair does not compare"
        ~ " (key columns are compared exactly; compared columns: " ~ (compared | join(', ')) ~ ")") if uncompared else '') }}
{% endmacro %}
