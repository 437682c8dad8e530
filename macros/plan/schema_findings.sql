{#- Whether a schema diff row keeps each direction of reading working, as schema registries
    define them: backward, the target schema reads data written with the source schema; forward,
    the source schema reads data written with the target schema. A column or nested field one
    side lacks only breaks the side that requires it (NOT NULL): a reader ignores what it does
    not know, and fills what the writer lacked with NULL. Unknown nullability counts as nullable. -#}
{% macro _compatible_directions(row) %}
    {%- set change = row['change'] -%}
    {%- set source_optional = row['source_nullable'] is not false -%}
    {%- set target_optional = row['target_nullable'] is not false -%}
    {%- set backward = {
        'unchanged': true, 'renamed': true, 'widened': true, 'narrowed': false, 'incompatible': false,
        'nullability_changed': target_optional, 'added': target_optional, 'removed': true,
        'nested_field_added': target_optional, 'nested_field_removed': true,
    } -%}
    {%- set forward = {
        'unchanged': true, 'renamed': true, 'widened': false, 'narrowed': true, 'incompatible': false,
        'nullability_changed': source_optional, 'added': true, 'removed': source_optional,
        'nested_field_added': true, 'nested_field_removed': source_optional,
    } -%}
    {{ return({'backward_compatible': backward[change], 'forward_compatible': forward[change]}) }}
{% endmacro %}


{#- The pair's schema findings, each {kind, column_name, source_type, target_type, fails,
    rejected}, and every diff row marked `accepted` under the pair's compatibility mode and with
    the kind of finding it is reported as (`finding_kind`, none when it is not one). A type
    mismatch and a column on one side only are findings in every mode, as before modes existed;
    any other change is a finding when the mode rejects it. `rejected`: the mode rejects it, so
    the pair is not scanned; `fails`: the pair does not pass (a rejected change, a type mismatch,
    or more columns on one side only than column_presence_tolerance). -#}
{% macro schema_findings(pair, changes, dialects) %}
    {%- set mode = pair['compatibility'] -%}
    {%- set presence = changes | selectattr('change', 'in', ['added', 'removed']) | list | length -%}
    {%- set too_many = presence > pair['column_presence_tolerance'] -%}
    {%- set findings = [] -%}
    {%- for change in changes -%}
        {%- set accepted = (mode in ['none', 'forward'] or change['backward_compatible'])
            and (mode in ['none', 'backward'] or change['forward_compatible']) -%}
        {%- set kind = parity._finding_kind(change, accepted) -%}
        {%- do change.update({'accepted': accepted, 'finding_kind': kind}) -%}
        {%- if kind is not none -%}
            {%- do findings.append({
                'kind': kind,
                'column_name': change['field_path'] or change['column_name'],
                'source_type': parity._finding_value(change, kind, 'source', dialects['source']),
                'target_type': parity._finding_value(change, kind, 'target', dialects['target']),
                'fails': not accepted or kind == 'type_mismatch' or (change['change'] in ['added', 'removed'] and too_many),
                'rejected': not accepted,
            }) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(findings) }}
{% endmacro %}


{% macro _finding_kind(change, accepted) %}
    {%- set kind = change['change'] -%}
    {%- if kind == 'added' -%}
        {{ return('column_missing_in_source') }}
    {%- elif kind == 'removed' -%}
        {{ return('column_missing_in_target') }}
    {%- elif kind == 'incompatible' and not change['compared'] -%}
        {{ return('type_mismatch') }}
    {%- elif accepted -%}
        {{ return(none) }}
    {%- endif -%}
    {{ return({'widened': 'type_widened', 'narrowed': 'type_narrowed', 'incompatible': 'type_incompatible'}.get(kind, kind)) }}
{% endmacro %}


{#- What a finding shows of one side: the declared type (with the engine where two types meet),
    or the nullability for a nullability change. -#}
{% macro _finding_value(change, kind, side, dialect) %}
    {%- set declared = change[side ~ '_type'] -%}
    {%- if kind == 'nullability_changed' -%}
        {{ return('nullable' if change[side ~ '_nullable'] else 'not null') }}
    {%- elif declared is none or kind in ['column_missing_in_source', 'column_missing_in_target'] or change['field_path'] -%}
        {{ return(declared) }}
    {%- endif -%}
    {{ return(declared ~ ' (' ~ dialect ~ ')') }}
{% endmacro %}
