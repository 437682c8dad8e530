{#- The profiles the two sides of a column pair canonicalize at, [source, target]: the precision
    both can represent (docs/canonical-encoding.md, "Negotiation"). For a pair of types that
    cannot be made comparable, the reason as text instead: the plan reports it as a schema
    finding and compares the other columns. `time_zones`, [source, target], are the zones the
    naive timestamps of each side were written in (none: UTC). -#}
{% macro negotiate_profile(source_column, target_column, time_zones=none) %}
    {%- set profiles = [source_column['profile'], target_column['profile']] -%}
    {%- set kinds = profiles | map(attribute='kind') | list -%}
    {%- set sorted_kinds = kinds | sort -%}
    {%- if 'unsupported' in kinds -%}
        {{ return('parity cannot canonicalize ' ~ (source_column['data_type'] if kinds[0] == 'unsupported' else target_column['data_type'])
            ~ ' (' ~ (source_column['dialect'] if kinds[0] == 'unsupported' else target_column['dialect']) ~ ') yet') }}
    {%- elif sorted_kinds == ['integer', 'integer'] -%}
        {{ return([{'kind': 'integer'}] * 2) }}
    {%- elif sorted_kinds in [['decimal', 'decimal'], ['decimal', 'integer']] -%}
        {{ return([{'kind': 'decimal', 'scale': profiles | map(attribute='scale', default=0) | min}] * 2) }}
    {%- elif sorted_kinds == ['float', 'float'] -%}
        {#- The wider side narrows to float32 as the engine storing float32 did: nearest, ties to even. -#}
        {{ return([{'kind': 'float', 'bits': profiles | map(attribute='bits') | min}] * 2) }}
    {%- elif sorted_kinds in [['decimal', 'float'], ['float', 'integer']] -%}
        {#- The decimal (or integer) becomes the float of the other side's width nearest to it,
            ties to even, rounded once (never through a double first): what every engine's cast
            computes and what a copy of the decimal into the float column holds. -#}
        {%- set bits = (profiles | selectattr('kind', 'equalto', 'float') | first)['bits'] -%}
        {%- set negotiated = [] -%}
        {%- for kind in kinds -%}
            {%- do negotiated.append({'kind': 'float', 'bits': bits, 'integer': true} if kind == 'integer' else {'kind': 'float', 'bits': bits}) -%}
        {%- endfor -%}
        {{ return(negotiated) }}
    {%- elif sorted_kinds == ['boolean', 'integer'] -%}
        {#- 1 and 0 match true and false; any other integer shows as a difference. -#}
        {{ return(profiles) }}
    {%- elif sorted_kinds == ['boolean', 'string'] -%}
        {%- set negotiated = [] -%}
        {%- for kind in kinds -%}
            {%- do negotiated.append({'kind': 'boolean' if kind == 'boolean' else 'boolean_text'}) -%}
        {%- endfor -%}
        {{ return(negotiated) }}
    {%- elif sorted_kinds == ['string', 'string'] -%}
        {#- A fixed-width char pads with blanks that a varchar copy drops: both sides drop them. -#}
        {{ return([{'kind': 'string', 'padded': profiles | selectattr('padded') | list | length > 0}] * 2) }}
    {%- elif sorted_kinds in [['string', 'uuid'], ['uuid', 'uuid']] -%}
        {#- Each side as it holds the UUID: as text, or as its 16 bytes (a Parquet UUID in Spark). -#}
        {%- set negotiated = [] -%}
        {%- for profile in profiles -%}
            {%- do negotiated.append({'kind': 'uuid', 'bytes': true} if profile.get('bytes') else {'kind': 'uuid'}) -%}
        {%- endfor -%}
        {{ return(negotiated) }}
    {%- elif sorted_kinds[0] in ['timestamp', 'timestamp_ntz'] and sorted_kinds[1] in ['timestamp', 'timestamp_ntz'] -%}
        {#- The coarser side's engine rounded the finer values when it stored them: the finer side
            is rounded by its rule (its rule for nanoseconds stored in microseconds, where it has
            one of its own). A side holding more than 6 digits is read in nanoseconds. -#}
        {%- set coarser, finer = profiles | sort(attribute='digits') -%}
        {%- set rounding = coarser.get('nanos_rounding', coarser['rounding']) if coarser['digits'] == 6 and finer['digits'] > 6 else coarser['rounding'] -%}
        {%- set zones = parity._naive_time_zones(kinds, time_zones or [none, none]) -%}
        {%- set negotiated = [] -%}
        {%- for profile in profiles -%}
            {%- set side = {'kind': kinds[loop.index0], 'digits': coarser['digits'], 'rounding': rounding} -%}
            {%- if profile['digits'] > 6 -%}
                {%- do side.update({'nanos': true}) -%}
            {%- endif -%}
            {%- if zones[loop.index0] -%}
                {%- do side.update({'time_zone': zones[loop.index0]}) -%}
            {%- endif -%}
            {%- do negotiated.append(side) -%}
        {%- endfor -%}
        {{ return(negotiated) }}
    {%- elif sorted_kinds in [['json', 'string'], ['nested', 'string']] -%}
        {#- A string column holding JSON documents: parsed, then written like the other side's. -#}
        {%- set negotiated = [] -%}
        {%- for kind in kinds -%}
            {%- do negotiated.append({'kind': 'json_text' if kind == 'string' else kind}) -%}
        {%- endfor -%}
        {{ return(negotiated) }}
    {%- elif sorted_kinds in [['json', 'json'], ['json', 'nested']] -%}
        {{ return([{'kind': kinds[0]}, {'kind': kinds[1]}]) }}
    {%- elif kinds[0] == kinds[1] and kinds[0] in ['date', 'binary', 'nested', 'boolean'] -%}
        {{ return([{'kind': kinds[0]}] * 2) }}
    {%- endif -%}
    {{ return(source_column['data_type'] ~ ' (' ~ source_column['dialect'] ~ ') and ' ~ target_column['data_type'] ~ ' (' ~ target_column['dialect'] ~ ') cannot be compared') }}
{% endmacro %}


{#- The zone each side's naive timestamps are read in, to compare instants (none: its wall clock
    as it stands, which UTC also is): a naive side paired with a zoned one is read in its zone;
    two naive sides are read in theirs when the zones differ, and compared as wall clocks when
    they are the same. -#}
{% macro _naive_time_zones(kinds, time_zones) %}
    {%- set zones = [time_zones[0] or 'UTC', time_zones[1] or 'UTC'] -%}
    {%- set read = [] -%}
    {%- for kind in kinds -%}
        {%- set as_instant = kind == 'timestamp_ntz' and ('timestamp' in kinds or zones[0] != zones[1]) -%}
        {%- do read.append(zones[loop.index0] if as_instant and zones[loop.index0] != 'UTC' else none) -%}
    {%- endfor -%}
    {{ return(read) }}
{% endmacro %}
