{#- An on-run-end hook of the package: the published run's verdict, per pair and per column, as
    JSON in the target folder (parity_summary.json), which a CI step or a person reads at once,
    without starting Spark. Written by every run that selected the reconciliation, once the
    result views are built: when this run published nothing, the file says so and holds the last
    published run, as the report does. Per pair, every column of parity_summary; under
    `columns`, that result's rows of parity_column_drift; `published_run`, the row of parity_runs
    the views show. No compared value is in it: counts, errors and hashes, as in those views. -#}
{% macro run_summary_file() %}
    {%- set statuses = parity._statuses(results) if results is defined else none -%}
    {%- if not execute or statuses is none or 'parity_pair_results' not in statuses -%}
        {{ return('') }}
    {%- endif -%}
    {%- set relations = {} -%}
    {%- for name in ['parity_runs', 'parity_summary', 'parity_column_drift'] -%}
        {%- do relations.update({name: parity._built_relation(name)}) -%}
    {%- endfor -%}
    {%- if none in relations.values() -%}
        {{ return('') }}
    {%- endif -%}
    {%- set published = parity._json_rows(relations['parity_runs'], 'order by published_at desc, run_id desc limit 1') -%}
    {%- if not published -%}
        {{ return('') }}
    {%- endif -%}
    {%- set pairs = parity._json_rows(relations['parity_summary'], 'order by pair_name') -%}
    {%- set columns = {} -%}
    {%- if pairs -%}
        {%- for column in parity._json_rows(relations['parity_column_drift'],
            'where ' ~ parity._report_results_of(pairs) ~ ' order by pair_name, column_name') -%}
            {%- do columns.setdefault(column.pop('pair_name'), []).append(column) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- for pair in pairs -%}
        {%- do pair.update({'columns': columns.get(pair['pair_name'], [])}) -%}
    {%- endfor -%}
    {%- do adapter.parity_write_json('parity_summary.json', {
        'run_id': invocation_id,
        'published': published[0]['run_id'] == invocation_id,
        'published_run': published[0],
        'passed': pairs | rejectattr('passed') | list | length == 0,
        'pairs': pairs,
    }) -%}
    {{ return('') }}
{% endmacro %}
