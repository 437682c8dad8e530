{#- Every published run's corrections: the differences beyond tolerance in each pair's data, as
    the rows to write, delete or change on the side the pair corrects, with what that side held
    (the before-image), so that an apply can tell a row changed since. Reads only. -#}
with pairs as (
    {{ parity.correction_pairs() }}
),

differences as (
    select
        differences.run_id,
        differences.run_started_at,
        differences.pair_name,
        pairs.direction,
        differences.key,
        differences.kind,
        differences.column_name,
        pairs.sensitive = 'true' as sensitive_pair,
        from_json(pairs.sensitive_columns, 'array<string>') as sensitive_columns,
        -- A key one side holds more than once in rows that are not all alike (duplicates of a
        -- key both sides hold, or different rows of a key one side lacks): the apply decides
        -- its corrections together, over all its rows on both sides (decisions.decide_key).
        bool_or(differences.kind in ('duplicate_in_source', 'duplicate_in_target')) over keyed
        or size(collect_set(
            case
                when differences.kind in ('missing_in_target', 'missing_in_source')
                    then coalesce(differences.source_canonical, differences.target_canonical)
            end
        ) over keyed) > 1 as whole_key,
        -- The side whose values are right, and the side corrected.
        case
            when pairs.direction = 'source_to_target' then differences.source_canonical
            else differences.target_canonical
        end as right_canonical,
        case
            when pairs.direction = 'source_to_target' then differences.target_canonical
            else differences.source_canonical
        end as corrected_canonical,
        case
            when pairs.direction = 'source_to_target' then differences.target_hash
            else differences.source_hash
        end as corrected_hash,
        -- A row only the right side holds is written; one only the corrected side holds, deleted.
        case
            when pairs.direction = 'source_to_target'
                then differences.kind in ('missing_in_target', 'duplicate_in_source')
            else differences.kind in ('missing_in_source', 'duplicate_in_target')
        end as to_insert
    from {{ ref('parity_run_differences') }} as differences
    inner join pairs on differences.pair_name = pairs.pair_name
    where
        differences.run_id in (select runs.run_id from {{ ref('parity_runs') }} as runs)
        and differences.kind in (
            'missing_in_target', 'missing_in_source', 'duplicate_in_source', 'duplicate_in_target',
            'value_mismatch'
        )
    window keyed as (partition by differences.run_id, differences.pair_name, differences.key)
),

whole_rows as (
    select
        run_id,
        run_started_at,
        pair_name,
        direction,
        key,
        case when to_insert then 'insert' else 'delete' end as operation,
        count(*) as copies,
        whole_key,
        -- A sensitive value is never published: the apply reads it from the right side by key.
        case
            when to_insert and not sensitive_pair
                then to_json(map_filter(
                    from_json(right_canonical, 'map<string,string>'),
                    (column_name, column_value) -> not array_contains(sensitive_columns, lower(column_name))
                ))
        end as new_values,
        case
            when to_insert and sensitive_pair then array('*')
            when to_insert
                then filter(
                    map_keys(from_json(right_canonical, 'map<string,string>')),
                    column_name -> array_contains(sensitive_columns, lower(column_name))
                )
            else cast(array() as array<string>)
        end as values_at_apply,
        case when not to_insert then corrected_canonical end as before_image
    from differences
    where kind != 'value_mismatch'
    group by
        run_id,
        run_started_at,
        pair_name,
        direction,
        key,
        to_insert,
        whole_key,
        sensitive_pair,
        sensitive_columns,
        right_canonical,
        corrected_canonical
),

changed_values as (
    select
        run_id,
        run_started_at,
        pair_name,
        direction,
        key,
        whole_key,
        -- By column name, so that a run's corrections read the same however Spark gathered them.
        array_sort(collect_list(struct(
            column_name,
            sensitive_pair or array_contains(sensitive_columns, lower(column_name)) as hidden,
            right_canonical,
            coalesce(corrected_hash, corrected_canonical) as before_value
        ))) as cells
    from differences
    where kind = 'value_mismatch'
    group by run_id, run_started_at, pair_name, direction, key, whole_key
),

-- A key held more than once may pair several of its rows as value mismatches; the cells of one
-- pair name each column once. Where a column is named twice, which cells belong together is not
-- published, and the update has no images: the apply leaves the key alone (a conflict).
paired_values as (
    select
        *,
        size(array_distinct(transform(cells, cell -> cell.column_name))) = size(cells) as one_pair
    from changed_values
),

updates as (
    select
        run_id,
        run_started_at,
        pair_name,
        direction,
        key,
        'update' as operation,
        cast(1 as bigint) as copies,
        whole_key,
        case when one_pair then to_json(map_from_entries(transform(
            filter(cells, cell -> not cell.hidden),
            cell -> struct(cell.column_name, cell.right_canonical)
        ))) end as new_values,
        transform(filter(cells, cell -> cell.hidden), cell -> cell.column_name)
            as values_at_apply,
        case when one_pair then to_json(map_from_entries(transform(
            cells, cell -> struct(cell.column_name, cell.before_value)
        ))) end as before_image
    from paired_values
),

corrections as (
    -- The same columns in the same order: whole_rows' and updates'.
    select * from whole_rows
    union all
    select * from updates
)

select
    corrections.run_id,
    corrections.run_started_at,
    corrections.pair_name,
    corrections.direction,
    case
        when corrections.direction = 'source_to_target' then results.target_relation
        else results.source_relation
    end as corrected_relation,
    corrections.key,
    corrections.operation,
    corrections.copies,
    corrections.whole_key,
    corrections.new_values,
    corrections.values_at_apply,
    corrections.before_image
from corrections
inner join {{ ref('parity_run_results') }} as results
    on corrections.run_id = results.run_id and corrections.pair_name = results.pair_name
