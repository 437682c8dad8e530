{#- An operation (`dbt run-operation parity_docs`) that shows the pairs in dbt docs, in the ways
    dbt lets a package: an exposure per pair, written as YAML for the user to commit, and the
    columns parity read of each side outside Spark, added to dbt's catalog. -#}
{% macro parity_docs(file_name='parity_exposures.yml', owner='parity') %}
    {%- if not execute -%}
        {{ return('') }}
    {%- endif -%}
    {%- set pairs = parity.parity_pairs() -%}
    {%- set written = adapter.parity_write_artifact(file_name, toyaml({'version': 2, 'exposures': parity._pair_exposures(pairs, owner)})) -%}
    {%- do log('parity: ' ~ pairs | length ~ ' pair exposure(s) written to ' ~ written ~ ': commit it beside your models', info=True) -%}
    {%- set catalog = adapter.parity_artifact(none, 'catalog.json') -%}
    {%- if catalog['problem'] -%}
        {%- do log('parity: no remote columns added to the catalog: ' ~ catalog['problem'] ~ ' (run `dbt docs generate` first)', info=True) -%}
        {{ return('') }}
    {%- endif -%}
    {%- set sources = parity._remote_catalog(pairs) -%}
    {%- do catalog['document'].setdefault('sources', {}).update(sources) -%}
    {%- do adapter.parity_write_json('catalog.json', catalog['document']) -%}
    {%- do log('parity: the columns of ' ~ sources | length ~ ' source(s) outside Spark added to ' ~ catalog['path'], info=True) -%}
{% endmacro %}


{#- One exposure per pair: its two relations as what it depends on, where they are nodes of the
    project (a ref or a source), and its latest published verdict in its description and meta. -#}
{% macro _pair_exposures(pairs, owner) %}
    {%- set summary = parity._built_relation('parity_summary') -%}
    {%- set runs = parity._built_relation('parity_runs') -%}
    {%- set verdicts = {} -%}
    {%- set published = parity._json_rows(runs, 'order by published_at desc, run_id desc limit 1') if runs is not none else [] -%}
    {%- if summary is not none and published -%}
        {%- for row in parity._json_rows(summary, 'order by pair_name') -%}
            {%- do verdicts.update({row['pair_name']: row}) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- set exposures = [] -%}
    {%- for pair in pairs -%}
        {%- set sides = [parity._docs_side(pair['source']), parity._docs_side(pair['target'])] -%}
        {%- set result = verdicts.get(pair['name']) -%}
        {%- set said = "parity compares " ~ sides[0]['shown'] ~ " (source) with " ~ sides[1]['shown'] ~ " (target)." -%}
        {%- set meta = {'pair': pair['name'], 'source': sides[0]['shown'], 'target': sides[1]['shown']} -%}
        {%- if result -%}
            {%- set line = parity._report_short(result) | trim -%}
            {%- set said = said ~ " Latest published verdict (run " ~ published[0]['run_id'] ~ ", started "
                ~ published[0]['run_started_at'] ~ "): " ~ line[line.index(': ') + 2:] ~ "." -%}
            {%- do meta.update({'verdict': parity._verdict(result), 'run_id': published[0]['run_id'], 'run_started_at': published[0]['run_started_at']}) -%}
        {%- else -%}
            {%- set said = said ~ " No published result yet." -%}
        {%- endif -%}
        {%- do exposures.append({
            'name': 'parity_' ~ modules.re.sub('[^0-9A-Za-z_]', '_', pair['name']),
            'label': 'parity: ' ~ pair['name'],
            'type': 'analysis',
            'owner': {'name': owner},
            'description': said,
            'depends_on': sides | map(attribute='node') | reject('none') | list,
            'meta': {'parity': meta},
        }) -%}
    {%- endfor -%}
    {{ return(exposures) }}
{% endmacro %}


{#- A side of a pair as the docs show it: its relation in words, and the node it is in the
    project (`ref(...)`, `source(...)`), or none for a relation named as such (a derived pair's
    production side), which is no node. -#}
{% macro _docs_side(spec) %}
    {%- if 'ref' in spec -%}
        {%- set names = [spec['ref']] if spec['ref'] is string else spec['ref'] -%}
        {%- set node = "ref(" ~ names | map('tojson') | join(', ') ~ ")" -%}
        {{ return({'shown': names | join('.'), 'node': node}) }}
    {%- elif 'source' in spec -%}
        {%- set node = "source(" ~ spec['source'] | map('tojson') | join(', ') ~ ")" -%}
        {{ return({'shown': spec['source'] | join('.'), 'node': node}) }}
    {%- endif -%}
    {{ return({'shown': spec['relation'] | join('.'), 'node': none}) }}
{% endmacro %}


{#- The catalog's entry of every source outside Spark a pair reads, by its unique id, with the
    columns parity_remote_columns read of it in the last run: dbt's own catalog lists only what
    Spark holds. -#}
{% macro _remote_catalog(pairs) %}
    {%- set relation = parity._built_relation('parity_remote_columns') -%}
    {%- set entries = {} -%}
    {%- if relation is none -%}
        {{ return(entries) }}
    {%- endif -%}
    {%- set columns = {} -%}
    {%- for row in parity._json_rows(relation, 'where problem is null order by pair_name, side, ordinal') -%}
        {%- do columns.setdefault(row['pair_name'] ~ '.' ~ row['side'], []).append(row) -%}
    {%- endfor -%}
    {%- for pair in pairs -%}
        {%- for side in ['source', 'target'] if 'source' in pair[side] and columns.get(pair['name'] ~ '.' ~ side) -%}
            {%- set names = pair[side]['source'] -%}
            {%- for node in graph.sources.values() if node.source_name == names[0] and node.name == names[1] -%}
                {%- set listed = {} -%}
                {%- for column in columns[pair['name'] ~ '.' ~ side] -%}
                    {%- do listed.update({column['column_name']: {
                        'type': column['data_type'], 'index': column['ordinal'], 'name': column['column_name'],
                        'comment': none if column['nullable'] else 'NOT NULL'}}) -%}
                {%- endfor -%}
                {%- do entries.update({node.unique_id: {
                    'metadata': {'type': 'table', 'schema': node.schema, 'name': node.identifier, 'database': node.database,
                        'comment': 'columns as parity read them (parity_remote_columns)', 'owner': none},
                    'columns': listed,
                    'stats': {},
                    'unique_id': node.unique_id,
                }}) -%}
            {%- endfor -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(entries) }}
{% endmacro %}
