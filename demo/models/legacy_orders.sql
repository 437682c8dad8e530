-- The table as the legacy warehouse holds it: generated deterministically from the order id.
select
    id as order_id,
    cast(1 + pmod(id * 7919, 5000) as int) as customer_id,
    element_at(
        array('placed', 'paid', 'shipped', 'delivered', 'returned'), cast(1 + pmod(id, 5) as int)
    ) as status,
    cast(pmod(id * 104729, 1000000) / 100 as decimal(12, 2)) as amount,
    -- Eight decimals, one in ten of them zero and many below 1e-6: the values Spark once wrote
    -- in scientific notation (0E-8) in dbt's session.
    cast(
        case when pmod(id, 10) = 0 then 0 else pmod(id * 7919, 1000) * 0.00000001 end
        as decimal(18, 8)
    ) as fx_rate,
    cast(pmod(id * 31, 1000) as double) / 997 as discount,
    pmod(id, 7) = 0 as is_gift,
    timestamp_micros(
        1704067200000000 + pmod(id * 7907, 31536000) * 1000000 + pmod(id * 13, 1000000)
    ) as ordered_at,
    date_add(date '2024-01-01', cast(pmod(id * 7907, 365) as int)) as ship_date,
    case
        when pmod(id, 11) = 0 then null
        when pmod(id, 13) = 0 then 'café ☕ naïve'
        else concat('order ', id)
    end as note
from range(1, {{ var('orders_rows') }} + 1)
