{#- What a pair compares, as each side's predicate in that side's dialect: the pair's `where`
    (one predicate for both sides, or one per side; each checked to be a filter in its side's
    dialect before it is pasted in, and marked in `applied` when the project trusts its filters
    or added functions to a dialect's list) and its `time_window` over an update column,
    whose bounds are fixed when the plan is rendered (dbt's run_started_at, UTC): rows updated at
    or after now - max_age and before now - min_age (wall clocks in the side's `time_zone`, for
    a naive column written in one). Returns {'source': sql or none, 'target':
    sql or none, 'applied': what the summary reports}. -#}
{% macro side_filters(where, pair, dialects, sides) %}
    {%- set predicates = {'source': [], 'target': []} -%}
    {%- set applied = {} -%}
    {%- set declared = pair['where'] -%}
    {%- if declared -%}
        {%- for side in ['source', 'target'] -%}
            {%- set text = declared if declared is string else declared.get(side) -%}
            {%- if text -%}
                {%- do parity._check_predicate(where, side, dialects[side], text) -%}
                {%- do predicates[side].append('(' ~ text ~ ')') -%}
                {%- do applied.update({'where_' ~ side: text}) -%}
            {%- endif -%}
        {%- endfor -%}
        {#- What the filters ran under, beyond the allow-list, said beside them. -#}
        {%- set trust = parity._filter_trust() -%}
        {%- if trust['trusted'] -%}
            {%- do applied.update({'trusted_filters': true}) -%}
        {%- endif -%}
        {%- set added = {} -%}
        {%- for side, dialect in dialects.items() if trust['functions'].get(dialect) and applied.get('where_' ~ side) -%}
            {%- do added.update({side: trust['functions'][dialect]}) -%}
        {%- endfor -%}
        {%- if added -%}
            {%- do applied.update({'added_filter_functions': added}) -%}
        {%- endif -%}
    {%- endif -%}
    {%- set window = pair['time_window'] -%}
    {%- if window -%}
        {%- set bounds, instants = {}, {} -%}
        {%- for age, bound in [('max_age', 'from'), ('min_age', 'until')] if window.get(age) -%}
            {%- set instant = run_started_at - modules.datetime.timedelta(seconds=parity._duration_seconds(where, age, window[age])) -%}
            {%- do instants.update({bound: instant if instant.tzinfo else modules.pytz.utc.localize(instant)}) -%}
            {%- do bounds.update({bound: instant.strftime('%Y-%m-%d %H:%M:%S.%f')}) -%}
        {%- endfor -%}
        {%- set zones = parity._side_time_zones(pair) -%}
        {%- for side, info in sides.items() -%}
            {%- set column = info['column'] -%}
            {%- set kind = column['profile']['kind'] -%}
            {#- A naive column written in a time zone holds wall clocks there: so are its bounds. -#}
            {%- set zone = zones[0 if side == 'source' else 1] if kind == 'timestamp_ntz' else none -%}
            {%- set side_bounds = parity._wall_clock_bounds(instants, zone) if zone else bounds -%}
            {%- set quoted = parity.quote_identifier(info['dialect'], column['name']) -%}
            {%- if 'from' in side_bounds -%}
                {%- do predicates[side].append(quoted ~ ' >= ' ~ parity.timestamp_literal(info['dialect'], side_bounds['from'], kind)) -%}
            {%- endif -%}
            {%- if 'until' in side_bounds -%}
                {%- do predicates[side].append(quoted ~ ' < ' ~ parity.timestamp_literal(info['dialect'], side_bounds['until'], kind)) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- do applied.update({'time_window': {'column': window['column'], 'from': bounds.get('from'), 'until': bounds.get('until')}}) -%}
    {%- endif -%}
    {%- if pair['exclude_columns'] -%}
        {%- do applied.update({'exclude_columns': pair['exclude_columns']}) -%}
    {%- endif -%}
    {{ return({
        'source': predicates['source'] | join(' and ') or none,
        'target': predicates['target'] | join(' and ') or none,
        'applied': applied,
    }) }}
{% endmacro %}


{#- The bounds of a time window as wall clocks in `zone` (`YYYY-MM-DD HH:MM:SS.ffffff`). -#}
{% macro _wall_clock_bounds(instants, zone) %}
    {%- set walls = {} -%}
    {%- for bound, instant in instants.items() -%}
        {%- do walls.update({bound: instant.astimezone(modules.pytz.timezone(zone)).strftime('%Y-%m-%d %H:%M:%S.%f')}) -%}
    {%- endfor -%}
    {{ return(walls) }}
{% endmacro %}


{#- The pair's problem when its time window's column is neither a timestamp nor a date on a
    side (`sides`: as `side_filters` takes them); '' otherwise. -#}
{% macro _window_kinds_problem(pair, sides) %}
    {%- set problems = [] -%}
    {%- for side, info in sides.items() if info['column']['profile']['kind'] not in ['timestamp', 'timestamp_ntz', 'date'] -%}
        {%- do problems.append("time_window column '" ~ pair['time_window']['column'] ~ "' is " ~ info['column']['data_type']
            ~ " in the " ~ side ~ " relation: it must be a timestamp or a date") -%}
    {%- endfor -%}
    {{ return(problems | join('; ')) }}
{% endmacro %}
