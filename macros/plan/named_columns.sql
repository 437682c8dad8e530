{#- Every column a pair names, looked up in the catalog columns of the side it is named on before
    anything else is planned: the key and `columns` (on the target through `renames`), both names
    of each rename, `exclude_columns`, the columns of `tolerance`, `sensitive_columns` and the
    time window's column (on the target through `renames`). A name a side lacks is the pair's
    problem: every such name at once, each with the option that names it and, once per side, the
    relation's columns; '' when every name is found. A name the source lacks is looked for on the
    target only where a rename gives its target name: else it is the same typo, said once. -#}
{% macro named_columns_problem(pair, locations, described) %}
    {%- set renames = pair['renames'] -%}
    {%- set named = {'source': [], 'target': []} -%}
    {%- set window = [pair['time_window']['column']] if pair['time_window'] else [] -%}
    {%- for option, names in [('key', pair['key']), ('columns', pair['columns'] or []), ('time_window', window)] -%}
        {%- for name in names -%}
            {%- do named['source'].append((option, name)) -%}
            {%- if name in renames or parity._found_column(described['source'], name) is not none -%}
                {%- do named['target'].append((option, renames.get(name, name) | string)) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- for source_name, target_name in renames.items() -%}
        {%- do named['source'].append(('renames', source_name | string)) -%}
        {%- do named['target'].append(('renames', target_name | string)) -%}
    {%- endfor -%}
    {%- for option, names in [('exclude_columns', pair['exclude_columns']), ('tolerance', (pair['tolerance'].get('columns') or {}).keys()), ('sensitive_columns', pair['sensitive_columns'])] -%}
        {%- for name in names -%}
            {%- do named['source'].append((option, name | string)) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set problems = [] -%}
    {%- for side in ['source', 'target'] -%}
        {%- set lacking = [] -%}
        {%- for option, name in named[side] if parity._found_column(described[side], name) is none -%}
            {%- set said = option ~ " names column '" ~ name ~ "'" -%}
            {%- if said not in lacking -%}
                {%- do lacking.append(said) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if lacking -%}
            {%- set listed = lacking[:-1] | join(', ') ~ ' and ' ~ lacking[-1] if lacking | length > 1 else lacking[0] -%}
            {%- do problems.append(listed ~ ", which the " ~ side ~ " relation " ~ locations[side]['name'] ~ " does not have (its columns: "
                ~ (described[side] | map(attribute='name') | join(', ')) ~ ")") -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(problems | join('; ')) }}
{% endmacro %}
