{#- A run's consistency audits, before it is published: for every result it publishes, computed
    by it or kept unchanged from an earlier run (a kept result is trusted only as far as it is
    checked), whose data was compared (but a halted one, whose counts are of what it found before
    stopping, and an incomplete one, whose dead-lettered segments were neither matched nor
    reported), the rows each side holds (less those with a NULL key, which are left out) add up
    to the same identical rows, the differing rows are the sum of their kinds, every counted
    difference beyond tolerance is listed, the values within tolerance are those of its columns
    and each column lists as many of them as the result's within_tolerance_examples lets through
    (all where it is NULL) and says it does (column_examples), the rows moved are the sum of both
    sides', and a passed result has no value mismatched beyond tolerance; and every configured
    pair has a result in this run
    (parity_run_pairs: computed by it, or kept unchanged from an earlier run).
    Raises an error naming the run, the pair and each audit that failed; when pairs have no
    result because `results` (parity_pair_results) holds another run's, it says which. -#}
{% macro audit_run(history, differences, results, run_pairs, run_id, pair_names) %}
    {%- set checks = {
        'identical rows': "source_rows - source_null_keys - missing_in_target_rows - duplicate_in_source_rows - value_mismatch_rows - within_tolerance_rows"
            ~ " = target_rows - target_null_keys - missing_in_source_rows - duplicate_in_target_rows - value_mismatch_rows - within_tolerance_rows"
            ~ " and source_rows - source_null_keys - missing_in_target_rows - duplicate_in_source_rows - value_mismatch_rows - within_tolerance_rows >= 0",
        'differing rows': "differing_rows = missing_in_target_rows + missing_in_source_rows + value_mismatch_rows"
            ~ " + duplicate_in_source_rows + duplicate_in_target_rows",
        'differences listed': "size(differences) + coalesce(found.listed, 0) = mismatched_values + missing_in_target_rows"
            ~ " + missing_in_source_rows + duplicate_in_source_rows + duplicate_in_target_rows + schema_findings",
        'within tolerance listed': "aggregate(column_stats, 0L, (n, c) -> n + c.within_tolerance) = within_tolerance_values"
            ~ " and forall(column_stats, c -> coalesce(try_element_at(found.within_by_column, c.column_name), 0)"
            ~ " = least(c.within_tolerance, coalesce(within_tolerance_examples, c.within_tolerance)))"
            ~ " and coalesce(found.within, 0) = coalesce(aggregate(column_examples, 0L, (n, c) -> n + c.within_tolerance_listed), within_tolerance_values)",
        'rows moved': "rows_moved = source_rows_moved + target_rows_moved",
        'verdict': "not passed or value_mismatch_rows = 0",
    } -%}
    {%- set failed = [] -%}
    {%- for name, check in checks.items() -%}
        {%- do failed.append("case when not coalesce(" ~ check ~ ", false) then '" ~ name ~ "' end") -%}
    {%- endfor -%}
    {#- One query, one scan of each table: each audit a column of the audited rows (the results
        this run publishes, by the run that computed them), the pairs with a result in this run
        (audit NULL) beside them. A query per audit cost Spark a scan and a plan each. -#}
    {%- set published = "select computed_run_id from " ~ run_pairs ~ " where run_id = '" ~ run_id ~ "'" -%}
    {%- set found = run_query("select pairs.pair_name, pairs.computed_run_id, explode(filter(array(" ~ failed | join(', ')
        ~ "), audit -> audit is not null)) as audit"
        ~ " from " ~ run_pairs ~ " as pairs inner join " ~ history ~ " as audited"
        ~ " on audited.run_id = pairs.computed_run_id and audited.pair_name = pairs.pair_name"
        ~ " left join (select run_id, pair_name, sum(n) filter (where not within) as listed, sum(n) filter (where within) as within,"
        ~ " map_from_entries(collect_list(struct(column_name, n)) filter (where within)) as within_by_column"
        ~ " from (select run_id, pair_name, column_name, kind = 'within_tolerance' as within, count(*) as n from " ~ differences
        ~ " where run_id in (" ~ published ~ ") group by run_id, pair_name, column_name, kind = 'within_tolerance')"
        ~ " group by run_id, pair_name) as found"
        ~ " on found.run_id = audited.run_id and found.pair_name = audited.pair_name"
        ~ " where pairs.run_id = '" ~ run_id ~ "' and audited.data_compared and not audited.halted and audited.status = 'complete'"
        ~ " union all select pair_name, computed_run_id, null as audit from " ~ run_pairs ~ " where run_id = '" ~ run_id ~ "'"
        ~ " order by pair_name, audit") -%}
    {%- set reconciled = found.rows | rejectattr('audit') | map(attribute='pair_name') | list -%}
    {%- set failed_audits = found.rows | selectattr('audit') | list -%}
    {%- set listed = [] -%}
    {%- for name in pair_names if name not in reconciled -%}
        {%- do listed.append("pair '" ~ name ~ "': no result in this run") -%}
    {%- endfor -%}
    {%- if listed -%}
        {%- set computed = run_query("select distinct run_id from " ~ results ~ " where run_id <> '" ~ run_id ~ "'").columns[0].values() -%}
        {%- if computed -%}
            {%- do listed.append("parity_pair_results holds results computed from the plan of run " ~ computed | join(', ')
                ~ ", not of this one, and only the run that planned results may publish them: build parity_plan, parity_pair_results"
                ~ " parity_run_results, parity_run_differences and parity_run_pairs in this run (dbt build selects them all)") -%}
        {%- else -%}
            {%- do listed.append("build parity_plan, parity_pair_results, parity_run_results, parity_run_differences and parity_run_pairs in this run") -%}
        {%- endif -%}
    {%- endif -%}
    {%- if failed_audits or listed -%}
        {%- for row in failed_audits -%}
            {%- set kept = '' if row['computed_run_id'] == run_id
                else " (the result of run " ~ row['computed_run_id'] ~ " it keeps: `dbt build --full-refresh` compares it again)" -%}
            {%- do listed.append("pair '" ~ row['pair_name'] ~ "': " ~ row['audit'] ~ kept) -%}
        {%- endfor -%}
        {{ exceptions.raise_compiler_error("parity: run " ~ run_id ~ " failed its audits, so it is not published and the previous results stay: "
            ~ listed | join('; ')) }}
    {%- endif -%}
{% endmacro %}
