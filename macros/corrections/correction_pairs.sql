{#- What the corrections need of each declared pair, as literal rows: which way it is corrected,
    and which of its values are never published (as the pair sets them now). -#}
{% macro correction_pairs() %}
    {%- set rows = [] -%}
    {%- for pair in parity.parity_pairs() -%}
        {%- do rows.append({
            'pair_name': pair['name'],
            'direction': pair['sync']['direction'],
            'sensitive': pair['sensitive'] | string | lower,
            'sensitive_columns': tojson(pair['sensitive_columns'] | map('lower') | list),
        }) -%}
    {%- endfor -%}
    {{ return(parity.literal_rows(['pair_name', 'direction', 'sensitive', 'sensitive_columns'], rows)) }}
{% endmacro %}
