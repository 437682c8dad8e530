{#- One row per pair, side and column: each compared relation's schema as its engine reports it,
    and its hash, as planned by the published run. -#}
with published as (
    select * from {{ ref('parity_run_results') }}
    where (run_id, pair_name) in {{ parity.published_pairs() }}
),

sides as (
    select
        run_id,
        pair_name,
        'source' as side,
        source_relation as relation_name,
        source_schema_hash as schema_hash,
        source_schema_snapshot as schema_snapshot
    from published
    union all
    select
        run_id,
        pair_name,
        'target' as side,
        target_relation as relation_name,
        target_schema_hash as schema_hash,
        target_schema_snapshot as schema_snapshot
    from published
)

select
    run_id,
    pair_name,
    side,
    relation_name,
    schema_hash,
    inline(from_json(
        schema_snapshot,
        'array<struct<ordinal: int, column_name: string, data_type: string, nullable: boolean, precision: int,
        scale: int, max_length: int, nested_fields: array<struct<path: string, data_type: string, nullable: boolean>>>>'
    )) as (ordinal, column_name, data_type, nullable, precision, scale, max_length, nested_fields)
from sides
