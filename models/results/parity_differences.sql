select
    results.pair_name,
    difference.key,
    difference.kind,
    difference.column_name,
    difference.source_value,
    difference.target_value
from {{ ref('parity_pair_results') }} as results
lateral view explode(results.differences) exploded as difference
