{#- One row per pair, side and column: each compared relation's schema as its engine reports it,
    and its hash, published with the results of the run that planned it. -#}
select
    planned.pair_name,
    planned.side,
    planned.relation_name,
    planned.dialect,
    if(planned.side = 'source', results.source_schema_hash, results.target_schema_hash) as schema_hash,
    inline(from_json(
        planned.schema_snapshot,
        'array<struct<ordinal: int, column_name: string, data_type: string, nullable: boolean, precision: int,
        scale: int, max_length: int, nested_fields: array<struct<path: string, data_type: string, nullable: boolean>>>>'
    )) as (ordinal, column_name, data_type, nullable, precision, scale, max_length, nested_fields)
from {{ ref('parity_plan') }} as planned
inner join {{ ref('parity_pair_results') }} as results on planned.pair_name = results.pair_name
