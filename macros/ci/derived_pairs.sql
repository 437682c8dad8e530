{#- The pairs a pull-request check derives from the project (`--vars '{parity_ci: {against:
    prod}}'`): each model the build before it built (that build's run_results.json), or each
    model it lists, against the model's relation in the environment it names (`vars: parity:
    environments:`). The production relation is the source (what is), the model as built here
    the target (what the change made). Keys come from the model (parity.model_key); its
    `meta: {parity: {...}}` sets any option a declared pair has. Only at run time: the graph and
    the artifact are read then, and neither draws lineage. A model with no production relation
    (new) or no key is no pair (parity.ci_models says which). -#}
{% macro derived_pairs() %}
    {{ return(parity.ci_models() | selectattr('pair') | map(attribute='pair') | list) }}
{% endmacro %}


{#- The models a pull-request check looks at, each as {name, node, expect, pair, reason,
    production, here, hidden (its sensitive columns, lower case, or '*')}: the pair it is compared as, or none, with the reason (new: no production
    relation; no key; removed: only production's manifest has it), and both relations. A model
    whose meta says `compare: false` is left out. `expect` is `changed`, `unchanged` or none,
    from its meta or the check's own `expect`. Empty when the check is not asked for. -#}
{% macro ci_models() %}
    {%- set ci = var('parity_ci', none) -%}
    {%- if ci is none or not execute -%}
        {{ return([]) }}
    {%- endif -%}
    {%- if ci is not mapping or not ci.get('against') -%}
        {{ exceptions.raise_compiler_error("parity_ci: must name the environment to compare against, as {against: prod}, not " ~ tojson(ci)) }}
    {%- endif -%}
    {%- for option in ci if option not in ['against', 'models', 'run_results', 'expect'] -%}
        {{ exceptions.raise_compiler_error("parity_ci: unknown option '" ~ option ~ "' (allowed: against, models, run_results, expect)") }}
    {%- endfor -%}
    {%- set environments = (var('parity', {}) or {}).get('environments') or {} -%}
    {%- set environment = environments.get(ci['against']) if environments is mapping else none -%}
    {%- if environment is not mapping or (environment.get('schema') is not string and environment.get('manifest') is not string) -%}
        {{ exceptions.raise_compiler_error("parity_ci: no environment '" ~ ci['against'] ~ "' with a schema or a manifest under vars: parity: environments ("
            ~ ("declared: " ~ (environments | list | join(', ')) if environments is mapping and environments else "none declared") ~ ")") }}
    {%- endif -%}
    {%- set chosen = parity._models_to_compare(ci) -%}
    {%- set deployed = parity._production_models(environment) -%}
    {%- set tests = parity.tests_by_model() -%}
    {%- set models = [] -%}
    {%- for node in graph.nodes.values() | sort(attribute='unique_id') if node.unique_id in chosen -%}
        {%- set options = {} -%}
        {%- do options.update(node.config.get('meta', {}).get('parity', {})) -%}
        {%- do options.update(node.get('meta', {}).get('parity', {})) -%}
        {%- set expect = options.get('expect', ci.get('expect')) -%}
        {%- if expect not in [none, 'changed', 'unchanged'] -%}
            {{ exceptions.raise_compiler_error("model " ~ node.name ~ ": parity expect must be changed or unchanged, not '" ~ expect ~ "'") }}
        {%- endif -%}
        {%- set found = deployed.get(node.unique_id) -%}
        {%- set pair = {
            'name': node.name,
            'source': {'relation': [found.database, found.schema, found.alias] if found
                else [environment.get('database', node.database), environment.get('schema') or '', node.alias]},
            'target': {'relation': [node.database, node.schema, node.alias]},
            'key': options.get('key') or parity.model_key(node, tests),
        } -%}
        {%- for option, value in options.items() if option not in ['key', 'compare', 'expect'] -%}
            {%- do pair.update({option: value}) -%}
        {%- endfor -%}
        {%- set production = parity.parity_relation(pair['source']) -%}
        {#- Not in production's manifest, where one is named, or not in its schema: new. -#}
        {%- set deployed_there = found or (not deployed and environment.get('schema')) -%}
        {%- set reason = 'new' if not deployed_there or adapter.get_relation(production.database, production.schema, production.identifier) is none
            else 'no key' if not pair['key'] else none -%}
        {%- if options.get('compare', true) -%}
            {%- do models.append({
                'name': node.name, 'node': node, 'expect': expect, 'pair': none if reason else pair, 'reason': reason,
                'production': production, 'here': parity.parity_relation(pair['target']),
                'hidden': '*' if options.get('sensitive') else options.get('sensitive_columns', []) | map('lower') | list,
            }) -%}
        {%- endif -%}
    {%- endfor -%}
    {#- A model production has and this project no longer does: removed by the change. -#}
    {%- set here = graph.nodes.keys() | list -%}
    {%- for unique_id, node in deployed | dictsort if unique_id not in here -%}
        {%- set production = api.Relation.create(database=node.database, schema=node.schema, identifier=node.alias) -%}
        {%- if adapter.get_relation(production.database, production.schema, production.identifier) is not none -%}
            {%- do models.append({'name': node.name, 'node': none, 'expect': none, 'pair': none, 'reason': 'removed', 'production': production, 'here': none, 'hidden': []}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(models) }}
{% endmacro %}


{#- Production's models, by unique id, as {name, database, schema, alias}, from its manifest
    (`manifest`: the file or its folder, as dbt's --state takes it), where the environment names
    one; else none known. Never parity's own. -#}
{% macro _production_models(environment) %}
    {%- set deployed = {} -%}
    {%- if environment.get('manifest') -%}
        {%- set read = adapter.parity_artifact(environment['manifest'], 'manifest.json') -%}
        {%- if read['problem'] -%}
            {{ exceptions.raise_compiler_error("parity_ci: production's manifest could not be read: " ~ read['problem']) }}
        {%- endif -%}
        {%- for unique_id, node in read['document'].get('nodes', {}).items()
            if node.get('resource_type') == 'model' and node.get('package_name') != 'parity' -%}
            {%- do deployed.update({unique_id: {'name': node['name'], 'database': node.get('database'), 'schema': node['schema'], 'alias': node.get('alias') or node['name']}}) -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(deployed) }}
{% endmacro %}


{#- The unique ids of the models a check compares: those it lists by name, or those the build
    before it built (its run_results.json: `run_results` names the file or its folder, by default
    the project's target folder). Never parity's own. -#}
{% macro _models_to_compare(ci) %}
    {%- set listed = ci.get('models', 'built') -%}
    {%- set models = {} -%}
    {%- for node in graph.nodes.values() if node.resource_type == 'model' and node.package_name != 'parity' -%}
        {%- do models.update({node.unique_id: node.name}) -%}
    {%- endfor -%}
    {%- if listed == 'built' -%}
        {%- set read = adapter.parity_artifact(ci.get('run_results'), 'run_results.json') -%}
        {%- if read['problem'] -%}
            {{ exceptions.raise_compiler_error("parity_ci: the models the last build built are read from its run_results.json, and "
                ~ read['problem'] ~ ": run the check right after that build, or list the models (models: [...])") }}
        {%- endif -%}
        {%- set built = read['document'].get('results', []) | selectattr('status', 'equalto', 'success')
            | map(attribute='unique_id') | select('in', models) | list -%}
        {%- do log("parity_ci: the last build built no model of the project (" ~ read['path'] ~ "): nothing to compare", info=True) if not built -%}
        {{ return(built) }}
    {%- endif -%}
    {%- if listed is string or listed is mapping or listed is not iterable -%}
        {{ exceptions.raise_compiler_error("parity_ci: models must be a list of model names or 'built', not " ~ tojson(listed)) }}
    {%- endif -%}
    {%- set chosen = [] -%}
    {%- for name in listed -%}
        {%- set found = [] -%}
        {%- for unique_id, model in models.items() if model == name -%}
            {%- do found.append(unique_id) -%}
        {%- endfor -%}
        {%- if not found -%}
            {{ exceptions.raise_compiler_error("parity_ci: no model named '" ~ name ~ "' in the project") }}
        {%- endif -%}
        {%- do chosen.extend(found) -%}
    {%- endfor -%}
    {{ return(chosen) }}
{% endmacro %}
