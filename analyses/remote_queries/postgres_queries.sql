{#- The queries parity sends a PostgreSQL side, keyed by one and by two columns
    (parity._every_remote_query); tests/golden/remote_queries/postgres.sql.golden holds them. -#}
{{ parity._every_remote_query('postgres', 'public.orders', ['attributes']) }}
