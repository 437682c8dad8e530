select
    pair_name,
    inline(differences) as (key, kind, column_name, source_value, target_value, delta, relative_error)
from {{ ref('parity_pair_results') }}
