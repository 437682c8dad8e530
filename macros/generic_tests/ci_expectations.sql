{#- Fails for each model of a pull-request check (the `parity_ci` var) that was compared and did
    not change as it expects: `expect: unchanged` (a refactor) that changed, or `expect: changed`
    that did not, by its `meta: {parity: {expect: ...}}` or the check's own `expect`. A model
    is unchanged when its pair passed with no differing row and no schema finding; one with no
    key, when its rows, schema and column profiles are (parity.ci_profiles). -#}
{% test ci_expectations(model) %}
    {%- set expected = [] -%}
    {%- set profiled = [] -%}
    {%- for checked in parity.ci_models() if checked.expect and (checked.pair or checked.reason == 'no key') -%}
        {%- do expected.append('select ' ~ parity._spark_string_literal(checked.name) ~ ' as pair_name, '
            ~ parity._spark_string_literal(checked.expect) ~ ' as expected') -%}
        {%- if not checked.pair -%}
            {%- do profiled.append('select ' ~ parity._spark_string_literal(checked.name) ~ ' as pair_name, '
                ~ parity._spark_string_literal(parity.ci_profiles(checked)['verdict']) ~ ' as found') -%}
        {%- endif -%}
    {%- endfor %}
with expected as (
    {{ expected | join('\n    union all\n    ') if expected else "select cast(null as string) as pair_name, cast(null as string) as expected where false" }}
),

found as (
    select
        pair_name,
        case
            when passed and differing_rows = 0 and schema_findings = 0 then 'unchanged'
            else 'changed'
        end as found
    from {{ model }}
    {%- for row in profiled %}
    union all
    {{ row }}
    {%- endfor %}
)

select
    expected.pair_name,
    expected.expected,
    coalesce(found.found, 'no result') as found
from expected
left join found on expected.pair_name = found.pair_name
where found.found is null or found.found != expected.expected
{% endtest %}
