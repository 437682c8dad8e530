-- A faithful copy of the legacy table, whatever its columns: the wildcard is the point.
select * from {{ ref('legacy_orders') }}  -- noqa: AM04
