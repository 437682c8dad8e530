-- Both algorithms find every planted difference and nothing else: rows here are a miss or an
-- invention. The seed marks differences of whole rows with the column name '(row)'.
with found as (
    select
        pair_name,
        key,
        kind,
        coalesce(column_name, '(row)') as differing_column
    from {{ ref('parity', 'parity_differences') }}
    where pair_name in ('orders', 'orders_hashdiff')
),

pairs as (
    select 'orders' as pair_name
    union all
    select 'orders_hashdiff' as pair_name
),

expected as (
    select
        pairs.pair_name,
        planted.key,
        planted.kind,
        planted.column_name as differing_column
    from {{ ref('expected_orders_differences') }} as planted
    cross join pairs
),

unexpected as (
    select * from found
    except
    select * from expected
),

missed as (
    select * from expected
    except
    select * from found
)

select
    'found but not planted' as problem,
    pair_name,
    key,
    kind,
    differing_column
from unexpected
union all
select
    'planted but not found' as problem,
    pair_name,
    key,
    kind,
    differing_column
from missed
