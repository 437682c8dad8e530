-- A faithful copy of the legacy table.
select * from {{ ref('legacy_orders') }}
