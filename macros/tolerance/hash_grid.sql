{#- The grid one tolerant column is hashed on for hashdiff's segment checksums, or none when it
    hashes exactly (docs/canonical-encoding.md, "Tolerant checksum text"). Two values that hash
    alike are always within the column's tolerance; values within it hash alike unless they
    straddle a cell boundary. A grid can be no coarser than the tolerance, or a change bigger
    than the tolerance could hide inside a cell.
    - float: a value is rounded to the nearest multiple of a power of two no larger than
      max(abs_tol, rel_tol * rel_floor) (`step`) below `relative_from`, and from there to
      53 - `dropped_bits` significant bits, whose spacing is at most rel_tol times the value.
    - timestamp: microseconds are cut into cells of the tolerance, centred on its multiples
      (`temporal_grid: nearest`, copies rounded to it) or starting at them (`floor`, copies
      truncated to it).
    - string: the text is trimmed of spaces, ASCII letters folded to lower case and '' made
      NULL, as far as the options ask: equivalences, so no value straddles anything. Case is
      folded only where every one of `dialects` can fold ASCII alone (MySQL cannot: its
      lower() follows the collation, which may fold more than Spark's verdict does).
    Decimals, integers and dates hash exactly: their drift is usually a whole unit of the
    tolerance, which every grid no coarser than the tolerance would split. The labels are
    rendered by macros/canonical/tolerant_text.sql. -#}
{% macro hash_grid(kind, tolerance, dialects=[]) %}
    {%- if kind == 'float' -%}
        {{ return(parity._float_grid_of(tolerance)) }}
    {%- elif kind in ['timestamp', 'timestamp_ntz'] and 'temporal_tolerance_ms' in tolerance -%}
        {%- set width = (parity._tolerance_number(tolerance['temporal_tolerance_ms']) * 1000) | int -%}
        {#- Cells of one microsecond change nothing; past about 31 years the lift below would
            leave a bigint. -#}
        {%- if width < 2 or width > 10 ** 15 -%}
            {{ return(none) }}
        {%- endif -%}
        {%- set alignment = tolerance.get('temporal_grid', 'nearest') -%}
        {{ return({'kind': 'timestamp', 'width': width, 'offset': (width // 2) if alignment == 'nearest' else 0}) }}
    {%- elif kind == 'string' -%}
        {%- set grid = {'kind': 'string'} -%}
        {%- for option in ['trim', 'case_insensitive', 'empty_equals_null'] -%}
            {%- do grid.update({option: tolerance.get(option, false)}) -%}
        {%- endfor -%}
        {%- for dialect in dialects if parity._dialect_macro('ascii_lower', dialect)('text') is none -%}
            {%- do grid.update({'case_insensitive': false}) -%}
        {%- endfor -%}
        {{ return(grid if grid['trim'] or grid['case_insensitive'] or grid['empty_equals_null'] else none) }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}


{#- A float's grid from abs_tol, rel_tol and rel_floor; none when no option makes one. Every
    bound is a power of two, so the engines' IEEE arithmetic computes the same labels. -#}
{% macro _float_grid_of(tolerance) %}
    {%- set rel_tol = parity._tolerance_number(tolerance.get('rel_tol', 0)) -%}
    {%- set least = [parity._tolerance_number(tolerance.get('abs_tol', 0)), rel_tol * parity._tolerance_number(tolerance.get('rel_floor', 0))] | max -%}
    {#- Normal doubles only: below 2^-1000 a value hashes exactly. -#}
    {%- set tiny = 2.0 ** -1000 -%}
    {%- set step = parity._power_of_two_at_most(least) if least >= tiny else none -%}
    {#- Rounding to 53 - s bits leaves a spacing of at most 2^(s - 52) times the value. -#}
    {%- set dropped = namespace(bits=0) -%}
    {%- for bits in range(1, 52) if 2.0 ** (bits - 52) <= rel_tol -%}
        {%- set dropped.bits = bits -%}
    {%- endfor -%}
    {%- if step is none and dropped.bits == 0 -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set grid = {'kind': 'float', 'step': step, 'dropped_bits': dropped.bits} -%}
    {%- if dropped.bits -%}
        {#- The relative grid takes over where its spacing reaches the step; it stops where
            multiplying by 2^s + 1 could overflow. -#}
        {%- do grid.update({
            'relative_from': (step * 2.0 ** (52 - dropped.bits)) if step is not none else tiny,
            'relative_below': 2.0 ** (1021 - dropped.bits),
        }) -%}
    {%- else -%}
        {#- Past 2^51 steps, adding 1.5 * 2^52 steps would no longer round to a step. -#}
        {%- do grid.update({'relative_from': step * 2.0 ** 51}) -%}
    {%- endif -%}
    {{ return(grid) }}
{% endmacro %}


{% macro _power_of_two_at_most(value) %}
    {%- set power = namespace(value=1.0) -%}
    {%- for _ in range(1100) -%}
        {%- if power.value > value -%}
            {%- set power.value = power.value / 2 -%}
        {%- elif power.value * 2 <= value -%}
            {%- set power.value = power.value * 2 -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(power.value) }}
{% endmacro %}
