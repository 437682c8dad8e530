{#- An on-run-end hook of the package: the report page (parity_html_report) written after every
    run that selected the reconciliation, once the result views are built, when the project asks
    for it with the var `parity_html_report: true`. When this run published nothing, the page
    says so and shows the last published run. -#}
{% macro html_report_file(runs=20, examples=5, max_value_chars=80) %}
    {#- Commands that only compile (compile, show, docs generate) render the hooks too. -#}
    {%- set statuses = parity._statuses(results) if results is defined else none -%}
    {%- if not execute or flags.WHICH not in ['run', 'build', 'retry'] or statuses is none or 'parity_pair_results' not in statuses -%}
        {{ return('') }}
    {%- endif -%}
    {%- set wanted = var('parity_html_report', false) -%}
    {%- if wanted is not boolean -%}
        {{ exceptions.raise_compiler_error("parity: var 'parity_html_report' must be true or false, not '" ~ wanted ~ "'") }}
    {%- endif -%}
    {%- set document = parity._html_report_document(runs, examples, max_value_chars, true) if wanted else none -%}
    {%- if document is not none -%}
        {%- do log('parity: the report page is ' ~ adapter.parity_write_report_page(document), info=True) -%}
    {%- endif -%}
    {{ return('') }}
{% endmacro %}
