{#- Fails with one row per pair of the published run that did not complete (status `error`), with
    its reason: the package's own test on parity_summary, so that `dbt build` fails (or warns,
    with the var parity_incomplete_severity) when any pair failed, while the other pairs
    publish. -#}
{% test pairs_complete(model) %}
    {{ config(fail_calc='count(*)') }}
select
    pair_name,
    status,
    status_reason
from {{ model }}
where status <> 'complete'
{% endtest %}
