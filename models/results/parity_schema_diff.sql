{#- One row per pair, column and change (macros/plan/schema_diff.sql), as planned by the published
    run. -#}
select
    run_id,
    pair_name,
    compatibility,
    inline(from_json(
        schema_diff,
        'array<struct<column_name: string, target_column_name: string, field_path: string, change: string,
        source_type: string, target_type: string, source_nullable: boolean, target_nullable: boolean,
        compared: boolean, backward_compatible: boolean, forward_compatible: boolean, accepted: boolean,
        finding_kind: string>>'
    )) as (
        column_name, target_column_name, field_path, change, source_type, target_type, source_nullable,
        target_nullable, compared, backward_compatible, forward_compatible, accepted, finding_kind
    )
from {{ ref('parity_run_results') }}
where (run_id, pair_name) in {{ parity.published_pairs() }}
