{#- The reconciliation pairs a project declares under `vars: parity: pairs:`, and those a
    pull-request check derives from its models (parity.derived_pairs), validated and with every
    default filled in. Each error names the pair and the problem. -#}
{% macro parity_pairs() %}
    {%- set declared = var('parity', {}) -%}
    {%- if declared is not mapping -%}
        {{ exceptions.raise_compiler_error("parity: var 'parity' must be a mapping with a 'pairs' list") }}
    {%- endif -%}
    {%- set pairs = declared.get('pairs', []) or [] -%}
    {%- if pairs is string or pairs is mapping -%}
        {{ exceptions.raise_compiler_error("parity: var 'parity.pairs' must be a list of pairs") }}
    {%- endif -%}
    {%- set defaults = parity._pair_defaults() -%}
    {%- set seen = [] -%}
    {%- set normalized = [] -%}
    {%- for pair in pairs | list + parity.derived_pairs() -%}
        {%- do normalized.append(parity._normalize_pair(pair, loop.index, defaults, seen)) -%}
    {%- endfor -%}
    {{ return(normalized) }}
{% endmacro %}


{% macro _normalize_pair(pair, position, defaults, seen) %}
    {%- if pair is not mapping or not pair.get('name') -%}
        {{ exceptions.raise_compiler_error("parity: pair #" ~ position ~ " must be a mapping with a 'name'") }}
    {%- endif -%}
    {%- set name = pair['name'] | string -%}
    {%- set where = "parity pair '" ~ name ~ "'" -%}
    {%- if name in seen -%}
        {{ exceptions.raise_compiler_error(where ~ ": duplicate pair name") }}
    {%- endif -%}
    {%- do seen.append(name) -%}
    {%- set allowed = ['name', 'source', 'target', 'key', 'columns', 'renames'] + (defaults.keys() | list) -%}
    {%- for option in pair -%}
        {%- if option not in allowed -%}
            {{ exceptions.raise_compiler_error(where ~ ": unknown option '" ~ option ~ "' (allowed: " ~ (allowed | join(', ')) ~ ")") }}
        {%- endif -%}
    {%- endfor -%}
    {%- for side in ['source', 'target'] -%}
        {%- do parity._check_relation_spec(where, side, pair.get(side)) -%}
    {%- endfor -%}
    {%- set key = pair.get('key') -%}
    {%- set key = [key] if key is string else key -%}
    {%- if not key or key is mapping -%}
        {{ exceptions.raise_compiler_error(where ~ ": 'key' must name one or more key columns") }}
    {%- endif -%}
    {%- set columns = pair.get('columns') -%}
    {%- if columns is not none and (columns is string or columns is mapping or not columns) -%}
        {{ exceptions.raise_compiler_error(where ~ ": 'columns' must be a non-empty list of column names") }}
    {%- endif -%}
    {%- set renames = pair.get('renames') or {} -%}
    {%- if renames is not mapping -%}
        {{ exceptions.raise_compiler_error(where ~ ": 'renames' must map source column names to target column names") }}
    {%- endif -%}
    {%- set normalized = {
        'name': name,
        'source': pair['source'],
        'target': pair['target'],
        'key': key | map('string') | list,
        'columns': (columns | map('string') | list) if columns is not none else none,
        'renames': renames,
    } -%}
    {%- for option, default in defaults.items() -%}
        {%- do normalized.update({option: pair.get(option, default)}) -%}
    {%- endfor -%}
    {%- if normalized['algorithm'] not in ['auto', 'hashdiff', 'joindiff'] -%}
        {{ exceptions.raise_compiler_error(where ~ ": algorithm must be auto, hashdiff or joindiff, not '" ~ normalized['algorithm'] ~ "'") }}
    {%- endif -%}
    {#- A pass asks for at most 65,536 cells per segment it refines (src/parity/algorithms/hashdiff.py). -#}
    {%- for option, minimum, maximum in [('bisection_factor', 2, 65536), ('bisection_threshold', 1, none), ('max_differences', 1, none), ('retries', 0, none)]
        if option != 'max_differences' or normalized[option] is not none -%}
        {%- set value = normalized[option] -%}
        {%- if value is not number or value is boolean or (value | int) != value or value < minimum or (maximum is not none and value > maximum) -%}
            {{ exceptions.raise_compiler_error(where ~ ": " ~ option ~ " must be a whole number of at least " ~ minimum
                ~ ((" and at most " ~ maximum) if maximum is not none else "") ~ ", not '" ~ value ~ "'") }}
        {%- endif -%}
    {%- endfor -%}
    {#- How many values within tolerance per column its differences list: at most Spark's bottom-k
        aggregate keeps (src/parity/results/examples.py). -#}
    {%- set examples = normalized['within_tolerance_examples'] -%}
    {%- if examples != 'all' and (examples is not number or examples is boolean or (examples | int) != examples or examples < 0 or examples > 100000) -%}
        {{ exceptions.raise_compiler_error(where ~ ": within_tolerance_examples (or the var parity_within_tolerance_examples, its default)"
            ~ " must be a whole number from 0 to 100000 or 'all', not '" ~ examples ~ "'") }}
    {%- endif -%}
    {%- do parity._check_tolerance(where, normalized['tolerance']) -%}
    {%- do parity._check_filters(where, normalized) -%}
    {%- do parity._check_time_zone(where, normalized['time_zone']) -%}
    {%- set drift = parity._tolerance_number(normalized['max_row_drift_pct']) -%}
    {%- if drift is none or drift < 0 or drift > 100 -%}
        {{ exceptions.raise_compiler_error(where ~ ": max_row_drift_pct must be a percentage from 0 to 100, not '" ~ normalized['max_row_drift_pct'] ~ "'") }}
    {%- endif -%}
    {%- for option in ['sensitive', 'tolerant_checksums'] if normalized[option] is not boolean -%}
        {{ exceptions.raise_compiler_error(where ~ ": '" ~ option ~ "' must be true or false, not '" ~ normalized[option] ~ "'") }}
    {%- endfor -%}
    {%- set hidden = normalized['sensitive_columns'] -%}
    {%- if hidden is string or hidden is mapping or hidden is not iterable or (hidden | reject('string') | list) -%}
        {{ exceptions.raise_compiler_error(where ~ ": 'sensitive_columns' must be a list of column names") }}
    {%- endif -%}
    {%- set ratio = normalized['critical_drift_ratio'] -%}
    {%- if ratio is not none and not (parity._tolerance_number(ratio) is not none and 0 < parity._tolerance_number(ratio) <= 1) -%}
        {{ exceptions.raise_compiler_error(where ~ ": critical_drift_ratio must be a number above 0 and at most 1, not '" ~ ratio ~ "'") }}
    {%- endif -%}
    {#- A side outside Spark retries a query that failed for a passing reason (src/parity/sides/sql.py). -#}
    {%- set patience = normalized['retry_seconds'] -%}
    {%- if patience is not number or patience is boolean or patience <= 0 -%}
        {{ exceptions.raise_compiler_error(where ~ ": retry_seconds must be a number of seconds above 0, not '" ~ patience ~ "'") }}
    {%- endif -%}
    {%- do parity._check_schema_options(where, normalized) -%}
    {%- do normalized.update({'sync': parity._sync_options(where, normalized['sync'])}) -%}
    {{ return(normalized) }}
{% endmacro %}


{% macro _check_relation_spec(where, side, spec) %}
    {%- set valid = spec is mapping and spec | length == 1 and (
        (spec.get('ref') is string)
        or (spec.get('ref') is iterable and spec.get('ref') is not mapping and spec.get('ref') | length == 2)
        or (spec.get('source') is iterable and spec.get('source') is not string and spec.get('source') | length == 2)
        or (spec.get('relation') is iterable and spec.get('relation') is not string and spec.get('relation') | length in [2, 3])
    ) -%}
    {%- if not valid -%}
        {{ exceptions.raise_compiler_error(where ~ ": '" ~ side ~ "' must be {ref: model}, {ref: [package, model]}, {source: [source_name, table_name]} or {relation: [schema, table]}, not " ~ tojson(spec)) }}
    {%- endif -%}
{% endmacro %}
