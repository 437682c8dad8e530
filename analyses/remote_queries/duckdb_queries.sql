{#- The queries parity sends a DuckDB side, keyed by one and by two columns
    (parity._every_remote_query); tests/golden/remote_queries/duckdb.sql.golden holds them. -#}
{{ parity._every_remote_query('duckdb', 'main.orders', ['attributes']) }}
