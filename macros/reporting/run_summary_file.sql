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
    {#- One query, of three subqueries: each round trip to Spark is a share of every run's end. -#}
    {%- set json = parity._json_options() -%}
    {%- set read = run_query('select (select to_json(struct(*), ' ~ json ~ ') from ' ~ relations['parity_runs']
        ~ ' order by published_at desc, run_id desc limit 1), (select to_json(collect_list(struct(*)), ' ~ json
        ~ ') from ' ~ relations['parity_summary'] ~ '), (select to_json(collect_list(struct(*)), ' ~ json
        ~ ') from ' ~ relations['parity_column_drift'] ~ ' as drift left semi join ' ~ relations['parity_summary']
        ~ ' as pair on drift.run_id = pair.run_id and drift.pair_name = pair.pair_name)').rows[0] -%}
    {%- if read[0] is none -%}
        {{ return('') }}
    {%- endif -%}
    {%- set published = fromjson(read[0]) -%}
    {%- set pairs = fromjson(read[1]) | sort(attribute='pair_name') -%}
    {%- set columns = {} -%}
    {%- for column in fromjson(read[2]) | sort(attribute='pair_name,column_name') -%}
        {%- do columns.setdefault(column.pop('pair_name'), []).append(column) -%}
    {%- endfor -%}
    {%- for pair in pairs -%}
        {%- do pair.update({'columns': columns.get(pair['pair_name'], [])}) -%}
    {%- endfor -%}
    {%- do adapter.parity_write_json('parity_summary.json', {
        'run_id': invocation_id,
        'published': published['run_id'] == invocation_id,
        'published_run': published,
        'passed': pairs | rejectattr('passed') | list | length == 0,
        'pairs': pairs,
    }) -%}
    {{ return('') }}
{% endmacro %}
