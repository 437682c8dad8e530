{#- An operation (`dbt run-operation parity_html_report`): the published run as one
    self-contained HTML page, target/parity_report.html, which a person opens from the file or a
    CI artifact: the run's verdict, each pair's verdict, counts, columns, schema findings and
    first differences, and charts of the last `runs` published runs. Reads the published views
    only, so it needs no reconciliation of its own; the package's on-run-end hook writes the
    same page after a run (html_report_file). -#}
{% macro parity_html_report(runs=20, examples=5, max_value_chars=80) %}
    {%- if not execute -%}
        {{ return('') }}
    {%- endif -%}
    {%- set document = parity._html_report_document(runs | int, examples | int, max_value_chars | int, false) -%}
    {%- if document is none -%}
        {%- do log('parity: no run has been published yet: no report page written', info=True) -%}
    {%- else -%}
        {%- do log('parity: the report page is ' ~ adapter.parity_write_report_page(document), info=True) -%}
    {%- endif -%}
    {{ return('') }}
{% endmacro %}


{#- What the page shows, read from the published views in seven queries whatever the number
    of pairs, the differences and schema changes capped in SQL: the last `runs` runs of parity_runs; every pair of
    parity_summary and its columns' rows of parity_column_drift; per pair the rows differing, and
    per column the values beyond tolerance, in each of those runs (through parity_run_pairs, so
    that a result kept by a run counts in it); the first `examples` differences of each pair and
    kind in parity_differences with how many there are (values cut at `max_value_chars`); the
    first 10 × `examples` schema changes of each pair in parity_schema_diff, with how many.
    `reconciling`: this command ran the reconciliation, so the page says whether it published.
    None when the views are not built or no run has been published. -#}
{% macro _html_report_document(runs, examples, max_value_chars, reconciling) %}
    {%- set relations = {} -%}
    {%- for name in ['parity_runs', 'parity_summary', 'parity_column_drift', 'parity_differences', 'parity_schema_diff', 'parity_run_pairs', 'parity_run_results'] -%}
        {%- do relations.update({name: parity._built_relation(name)}) -%}
    {%- endfor -%}
    {%- if none in relations.values() -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set listed = parity._json_rows(relations['parity_runs'], 'order by published_at desc, run_id desc limit ' ~ runs) -%}
    {%- if not listed -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set run_ids = [] -%}
    {%- for run in listed -%}
        {%- do run_ids.append(parity._spark_string_literal(run['run_id'])) -%}
    {%- endfor -%}
    {%- set pairs = parity._json_rows(relations['parity_summary'], 'order by pair_name') -%}
    {#- Each shown run's result of each pair: the one it computed, or the one it kept. -#}
    {%- set of_shown_runs = ' as pairs inner join ' ~ '{relation} as {alias} on {alias}.run_id = pairs.computed_run_id and {alias}.pair_name = pairs.pair_name'
        ~ ' where pairs.run_id in (' ~ run_ids | join(', ') ~ ')' -%}
    {%- set pair_history = "(select pairs.pair_name, map_from_entries(collect_list(struct(pairs.run_id,"
        ~ " named_struct('differing_rows', results.differing_rows, 'status', results.status)))) as by_run from "
        ~ relations['parity_run_pairs'] ~ of_shown_runs.replace('{relation}', relations['parity_run_results'] | string).replace('{alias}', 'results')
        ~ " group by pairs.pair_name) as history" -%}
    {%- set column_history = "(select pairs.pair_name, drift.column_name, map_from_entries(collect_list(struct(pairs.run_id,"
        ~ " named_struct('values_compared', drift.values_compared, 'out_of_tolerance', drift.out_of_tolerance,"
        ~ " 'within_tolerance', drift.within_tolerance)))) as by_run from "
        ~ relations['parity_run_pairs'] ~ of_shown_runs.replace('{relation}', relations['parity_column_drift'] | string).replace('{alias}', 'drift')
        ~ " group by pairs.pair_name, drift.column_name) as history" -%}
    {#- Values cut in SQL, with their whole length: a difference may hold a whole document. -#}
    {%- set values = [] -%}
    {%- for side in ['source', 'target'] -%}
        {%- do values.append('left(' ~ side ~ '_value, ' ~ max_value_chars ~ ') as ' ~ side ~ '_value, length(' ~ side ~ '_value) as ' ~ side ~ '_length') -%}
    {%- endfor -%}
    {#- The first differences of each pair and kind, and how many there are, apart: a window of
        row_number alone lets Spark keep only the first of each group before it shuffles
        (WindowGroupLimit), half the time of one window that counts too, at a million rows. -#}
    {%- set differences = relations['parity_differences'] ~ ' where key is not null' -%}
    {%- set examples_query = "(select ranked.*, counted.of_kind from (select * from (select pair_name, kind, key, column_name, "
        ~ values | join(', ') ~ ", delta, source_hash, target_hash,"
        ~ " row_number() over (partition by pair_name, kind order by length(key), key, column_name) as example from "
        ~ differences ~ ") as numbered where example <= " ~ examples ~ ") as ranked inner join (select pair_name, kind, count(*) as of_kind from "
        ~ differences ~ " group by pair_name, kind) as counted on ranked.pair_name = counted.pair_name and ranked.kind = counted.kind) as examples" -%}
    {%- set schema_query = "(select *, row_number() over (partition by pair_name order by accepted, column_name, field_path, change) as finding,"
        ~ " count(*) over (partition by pair_name) as of_pair from " ~ relations['parity_schema_diff']
        ~ " where change <> 'unchanged') as ranked" -%}
    {{ return({
        'run_id': invocation_id,
        'command': 'dbt ' ~ flags.WHICH,
        'written_at': run_started_at.isoformat(),
        'published': listed[0]['run_id'] == invocation_id if reconciling else none,
        'runs': listed,
        'pairs': pairs,
        'max_value_chars': max_value_chars,
        'examples_per_kind': examples,
        'columns': parity._json_rows(relations['parity_column_drift'], 'where ' ~ parity._report_results_of(pairs) ~ ' order by pair_name, column_name') if pairs else [],
        'pair_history': parity._json_rows(pair_history, ''),
        'column_history': parity._json_rows(column_history, ''),
        'examples': parity._json_rows(examples_query, 'order by pair_name, kind, example'),
        'schema': parity._json_rows(schema_query, 'where finding <= ' ~ 10 * examples ~ ' order by pair_name, finding'),
    }) }}
{% endmacro %}
