-- The migrated copy, with differences planted on purpose (seeds/expected_orders_differences.csv
-- lists them): two orders lost (17, 1001), two new ones (1000001, 1000002), one value changed in
-- each of eight columns (order 770's NULL note becomes an empty string), and order 2000 loaded
-- twice. Amounts are stored at a wider scale: parity compares them at the scale both sides hold.
with legacy as (
    select * from {{ ref('legacy_orders') }}
),

migrated as (
    select
        order_id,
        case when order_id = 64 then customer_id + 1 else customer_id end as customer_id,
        case when order_id = 314 then upper(status) else status end as status,
        cast(case when order_id = 42 then amount + 0.01 else amount end as decimal(14, 4)) as amount,
        fx_rate,
        case when order_id = 99 then discount + 1e-9 else discount end as discount,
        case when order_id = 500 then not is_gift else is_gift end as is_gift,
        case
            when order_id = 2718 then ordered_at + interval 1 second else ordered_at
        end as ordered_at,
        case when order_id = 1234 then date_add(ship_date, 1) else ship_date end as ship_date,
        case when order_id = 770 then '' else note end as note
    from legacy
    where order_id not in (17, 1001)
)

select * from migrated
union all
-- Loaded again: order 2000 as itself, orders 1 and 2 as the new orders 1000001 and 1000002.
select
    case when order_id = 2000 then order_id else order_id + 1000000 end as order_id,
    customer_id,
    status,
    amount,
    fx_rate,
    discount,
    is_gift,
    ordered_at,
    ship_date,
    note
from migrated
where order_id in (1, 2, 2000)
