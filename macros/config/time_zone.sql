{#- A pair's `time_zone`: the zone naive timestamps were written in, one for both sides or one
    per side ({source: zone, target: zone}); a side not given one is in UTC. Each name must be
    an IANA zone name, which PostgreSQL, DuckDB (ICU) and Spark (Java) all know. -#}
{% macro _check_time_zone(where, declared) %}
    {%- if declared is none -%}
        {{ return(none) }}
    {%- endif -%}
    {%- if declared is not string and not (declared is mapping and declared and (declared.keys() | reject('in', ['source', 'target']) | list | length) == 0) -%}
        {{ exceptions.raise_compiler_error(where ~ ": 'time_zone' must be a time zone name such as Europe/Paris, or {source: zone, target: zone}") }}
    {%- endif -%}
    {%- for side in ['source', 'target'] -%}
        {%- set zone = declared if declared is string else declared.get(side) -%}
        {%- if zone is not none and (zone is not string or zone not in modules.pytz.all_timezones_set) -%}
            {{ exceptions.raise_compiler_error(where ~ ": " ~ side ~ " time_zone '" ~ zone ~ "' is not a time zone name (an IANA name such as Europe/Paris or UTC)") }}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}


{#- [source zone, target zone] of a validated pair: none for a side left in UTC. -#}
{% macro _side_time_zones(pair) %}
    {%- set declared = pair.get('time_zone') -%}
    {%- if declared is none or declared is string -%}
        {{ return([declared, declared]) }}
    {%- endif -%}
    {{ return([declared.get('source'), declared.get('target')]) }}
{% endmacro %}
