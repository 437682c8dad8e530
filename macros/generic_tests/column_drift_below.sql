{#- Fails when one compared column drifts more than allowed: its values beyond tolerance as a
    percentage of the rows compared (the larger side) above max_pct, or the largest relative
    error of its differing values (within tolerance or not) above max_relative_error; or when
    the pair has no complete result. Give at least one of the two limits. -#}
{% test column_drift_below(model, pair, column, max_pct=none, max_relative_error=none) %}
    {%- set where = "parity.column_drift_below on pair '" ~ pair ~ "', column '" ~ column ~ "'" -%}
    {%- if max_pct is none and max_relative_error is none -%}
        {{ exceptions.raise_compiler_error(where ~ ": give max_pct, max_relative_error or both") }}
    {%- endif -%}
    {%- for name, limit in [('max_pct', max_pct), ('max_relative_error', max_relative_error)] if limit is not none -%}
        {%- if limit is not number or limit is boolean or limit < 0 -%}
            {{ exceptions.raise_compiler_error(where ~ ": " ~ name ~ " must be a number of at least 0, not '" ~ limit ~ "'") }}
        {%- endif -%}
    {%- endfor -%}
    {%- set pair_literal = parity._spark_string_literal(pair) -%}
with compared as (
    select greatest(source_rows, target_rows) as compared_rows
    from {{ ref('parity', 'parity_summary') }}
    where pair_name = {{ pair_literal }} and status = 'complete'
),

drift as (
    select count_if(kind = 'value_mismatch') as out_of_tolerance_values
    from {{ ref('parity', 'parity_differences') }}
    where pair_name = {{ pair_literal }} and lower(column_name) = lower({{ parity._spark_string_literal(column) }})
),

-- From the column's aggregates: parity_differences lists only examples of its values within
-- tolerance.
largest as (
    select max(columns.max_relative_error) as max_relative_error
    from {{ ref('parity', 'parity_column_drift') }} as columns
    inner join {{ ref('parity', 'parity_summary') }} as summary
        on columns.run_id = summary.run_id and columns.pair_name = summary.pair_name
    where summary.pair_name = {{ pair_literal }} and lower(columns.column_name) = lower({{ parity._spark_string_literal(column) }})
),

measured as (
    select
        largest.max_relative_error,
        case
            when compared.compared_rows > 0 then 100.0 * drift.out_of_tolerance_values / compared.compared_rows
            else 0.0
        end as out_of_tolerance_pct
    from compared cross join drift cross join largest
)

select
    {{ pair_literal }} as pair_name,
    out_of_tolerance_pct,
    max_relative_error
from measured
where
    {%- if max_pct is not none %}
    out_of_tolerance_pct > {{ max_pct }}
    {%- endif %}
    {%- if max_pct is not none and max_relative_error is not none %} or{% endif %}
    {%- if max_relative_error is not none %}
    coalesce(max_relative_error, 0) > {{ max_relative_error }}
    {%- endif %}
union all
select
    {{ pair_literal }} as pair_name,
    cast(null as double) as out_of_tolerance_pct,
    cast(null as double) as max_relative_error
where not exists (select 1 from compared)
{% endtest %}
